import CLI
import Dispatch
import Emulators
import FeedRuntime
import Gateway
import Outputs
import Recording
import Synchronization
import TickerSupport
import Venues
import WebSocketClient

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `ticker serve`: one upstream feed (every trade), served to local clients as Finnhub's WebSocket
/// API by `ServeHub`. stdout gets one line, the address clients connect to; stderr a status line
/// per client connected, disconnected or dropped (more with `-v`).
enum ServeCommand {
  /// Why the configuration cannot be served, or nil: a non-loopback address needs a token.
  static func refusal(_ config: TickerConfig) -> String? {
    if !ServeAccess.isLoopback(config.bind), config.serveToken == nil {
      return "--bind \(config.bind) would let anyone who can reach this machine use the feed: "
        + "set --serve-token (or TICKER_SERVE_TOKEN) so that clients must pass ?token=, "
        + "or bind 127.0.0.1"
    }
    return nil
  }

  /// Settings given on the command line that do nothing for this command.
  static func unused(_ config: TickerConfig, serving: Bool) -> [String] {
    let serveOnly = ["--port", "--bind", "--serve-token", "--max-clients"]
    let printOnly = [
      "--count", "--format", "--timestamps", "--board", "--control", "--alert", "--until", "--debounce",
      "--max-wait", "--every-trade", "--publish", "--publish-buffer",
    ]
    return (serving ? printOnly : serveOnly).filter { config.sources[$0] == .commandLine }
  }

  /// The demo server as `serve` needs it: the replay starts at the first subscription, and no
  /// venue deadline for subscribing (clients may come much later).
  static func demoOptions(_ options: FeedServer.Options, serving: Bool) -> FeedServer.Options {
    guard serving else { return options }
    var options = options
    options.awaitSubscriptions = max(1, options.awaitSubscriptions)
    options.rules.subscribeDeadline = nil
    return options
  }

  static func run(
    config: TickerConfig, settings: Feed.Settings, stdout: FileDescriptorWriter, diagnostics: Diagnostics
  ) async -> ExitCode {
    var settings = settings
    settings.mode = .everyTrade
    settings.endsWhenEverySymbolRefused = false
    return await run(
      config: config, provider: settings.provider, pinned: settings.symbols, stdout: stdout,
      diagnostics: diagnostics
    ) { report in Feed(settings, report: report) }
  }

  /// Serves whatever `makeSource` makes (told where its reports go): a live `Feed`, or any other
  /// `QuoteSource` (a recording played back) whose symbols follow `provider`'s rules.
  static func run(
    config: TickerConfig, provider: any Provider, pinned: [String], stdout: FileDescriptorWriter,
    diagnostics: Diagnostics,
    makeSource: (@escaping @Sendable (FeedReport) -> Void) -> any QuoteSource
  ) async -> ExitCode {
    let reports = ReportWriter<ContinuousClock.Instant>(
      diagnostics: diagnostics, provider: provider, now: { ContinuousClock.now }, bell: false)
    let box = HubBox()
    let feed = makeSource { report in
      reports.write(report)
      box.hub?.upstream(report)
    }
    let hub: ServeHub
    do {
      hub = try ServeHub(
        source: feed,
        options: ServeHub.Options(
          host: config.bind, port: config.servePort, token: config.serveToken,
          maximumClients: config.maxClients, pinned: pinned),
        log: { say($0, diagnostics) })
    } catch {
      diagnostics.error("cannot listen on \(config.bind) port \(config.servePort): \(listenFailure(error))")
      return .cannotListen
    }
    box.hub = hub
    let host = config.bind.contains(":") ? "[\(config.bind)]" : config.bind
    try? stdout.write("ws://\(host):\(hub.port)/\n")
    diagnostics.note(
      "serving \(provider.displayName) on ws://\(host):\(hub.port)/"
        + (config.serveToken == nil ? "" : " (clients must pass ?token=)")
        + (pinned.isEmpty ? "" : "; following \(pinned.joined(separator: ", ")) throughout"))
    hub.start()
    let signals = SignalWatcher { sig in
      hub.shutdown(CloseStatus(code: .goingAway, reason: "ticker serve is stopping"))
      feed.stop(.signal(sig))
    }
    defer { signals.cancel() }
    let outcome = await feed.run()
    // Every quote the upstream gave is handed out before the clients are closed.
    await hub.drained()
    await withCheckedContinuation { done in
      DispatchQueue(label: "serve.shutdown").async {
        // The upstream ended (or a signal, which closed the clients already): what the clients'
        // queues hold goes out first, for at most a few seconds.
        hub.shutdown(CloseStatus(code: .goingAway, reason: "ticker serve is stopping"), waiting: 5)
        done.resume()
      }
    }
    reports.summary()
    return ErrorReport.report(outcome, provider: provider, diagnostics)
  }

  /// Why listening failed, in words.
  static func listenFailure(_ error: TransportError) -> String {
    guard case .syscall(let call, let code) = error else { return "\(error)" }
    let words = String(cString: strerror(code))
    switch code {
    case EADDRINUSE: return "\(words) (another ticker serve? pick another --port)"
    case EADDRNOTAVAIL: return "\(words) (--bind must be an address of this machine)"
    case EACCES: return "\(words) (ports below 1024 need privileges)"
    default: return "\(call): \(words)"
    }
  }

  /// The status line for a hub event (Diagnostics escapes what clients control).
  static func say(_ event: ServeHub.Event, _ diagnostics: Diagnostics) {
    switch event {
    case .connected(let client, let open):
      diagnostics.note("serve: client \(client) connected (\(open) open)")
    case .disconnected(let client, let status, let why, let open):
      if let why {
        diagnostics.note(
          "serve: client \(client) closed by the server: \(why)\(status.map { " (\($0.code))" } ?? "") (\(open) open)"
        )
      } else {
        diagnostics.note(
          "serve: client \(client) disconnected\(status.map { ": \($0)" } ?? "") (\(open) open)")
      }
    case .refused(let status, let why):
      diagnostics.note("serve: refused a connection with HTTP \(status): \(why)")
    case .request(let client, let request):
      switch request {
      case .subscribe(let symbol): diagnostics.info("serve: client \(client) subscribes \(symbol)")
      case .unsubscribe(let symbol): diagnostics.info("serve: client \(client) unsubscribes \(symbol)")
      case .ping: break
      }
    case .venueRefused(let symbol, let clients):
      diagnostics.note(
        "serve: the venue refused \(symbol); told client\(clients.count == 1 ? "" : "s") "
          + clients.map(String.init).joined(separator: ", "))
    case .clientError(let client, let message):
      diagnostics.info("serve: client \(client) told: \(message)")
    case .upstream(let subscribed, let unsubscribed):
      if !subscribed.isEmpty {
        diagnostics.info("serve: upstream subscribes \(subscribed.joined(separator: ", "))")
      }
      if !unsubscribed.isEmpty {
        diagnostics.info("serve: upstream unsubscribes \(unsubscribed.joined(separator: ", "))")
      }
    }
  }
}

/// Lets the feed's report closure reach the hub made after it.
private final class HubBox: Sendable {
  private let stored = Mutex<ServeHub?>(nil)
  var hub: ServeHub? {
    get { stored.withLock { $0 } }
    set { stored.withLock { $0 = newValue } }
  }
}
