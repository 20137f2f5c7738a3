import CLI
import Gateway
import Monitoring
import Outputs
import Transport

/// `--metrics HOST:PORT`: `/metrics` and `/healthz` of the run's `RunMonitor`, served over HTTP
/// on their own event loop thread, from start to exit.
enum MetricsEndpoint {
  /// Why `--metrics` cannot be served as set, or nil: beyond loopback, as for `serve`, a token.
  static func refusal(_ config: TickerConfig) -> String? {
    guard let address = config.metrics, !ServeAccess.isLoopback(address.host), config.metricsToken == nil
    else {
      return nil
    }
    return "--metrics \(address) would show this run's metrics to anyone who can reach this machine: "
      + "set --metrics-token (or TICKER_METRICS_TOKEN) so that scrapers must send it, or listen on 127.0.0.1"
  }

  /// Runs `run` with the endpoint up when `--metrics` is set; a failure to listen is said and
  /// ends the run before it starts (exit 71).
  static func serving(_ context: RunContext, _ monitor: RunMonitor, during run: () async -> ExitCode) async
    -> ExitCode
  {
    switch start(context, monitor) {
    case .failure(let stop): return stop.code
    case .success(let server):
      defer { server?.stop() }
      return await run()
    }
  }

  /// Listens when `--metrics` is set (nil otherwise); a failure to listen is said and stops the run.
  private static func start(_ context: RunContext, _ monitor: RunMonitor) -> Result<MetricsServer?, Stop> {
    let config = context.config
    guard let address = config.metrics else { return .success(nil) }
    let server: MetricsServer
    do {
      server = try MetricsServer(
        host: address.host == "localhost" ? "127.0.0.1" : address.host, port: address.port,
        token: config.metricsToken,
        routes: MetricsRoutes(
          metrics: { monitor.metrics() },
          health: {
            let problems = monitor.problems()
            return (problems.isEmpty, problems)
          }))
    } catch {
      context.diagnostics.error(
        "cannot listen for --metrics on \(address): \(ServeCommand.listenFailure(error))")
      return .failure(Stop(code: .cannotListen))
    }
    server.start()
    let host = address.host.contains(":") ? "[\(address.host)]" : address.host
    context.diagnostics.note("metrics on http://\(host):\(server.port)/metrics, health on /healthz")
    return .success(server)
  }
}
