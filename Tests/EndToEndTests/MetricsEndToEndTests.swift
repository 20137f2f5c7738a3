import Foundation
import Recording
import Testing
import Transport

@testable import Emulators
@testable import TestSupport

/// `--metrics`: the built ticker's `/metrics` scraped by a real Prometheus server and judged by
/// `promtool`, and its `/healthz` as the feed connects, goes quiet and comes back.
@Suite("ticker end to end: metrics and health", .serialized, .requires(.prometheus, .promtool))
struct MetricsEndToEndTests {
  static let token = "sk-e2e-metrics-token-0099"

  /// A Finnhub that trades `symbols` (the first gets a trade at once; all of them keep trading
  /// with `synthetic`, else only what the script says).
  static func finnhub(_ steps: [SessionScript.Step] = [], synthetic: Bool = true) throws -> FeedServer {
    var script = [
      SessionScript.Step(direction: .server, kind: .http, afterMilliseconds: 0, body: "HTTP/1.1 101")
    ]
    script +=
      steps.isEmpty ? [StaleSymbolEndToEndTests.trade("AAPL", "120.5", 1_768_655_932_000, after: 10)] : steps
    let server = try FeedServer(
      script: SessionScript(steps: script),
      options: .init(timeScale: 1, ending: synthetic ? .synthetic(seed: 7, interval: 0.05) : .hold))
    server.start()
    return server
  }

  /// The ticker running against `server` with `--metrics` on a free port, and that port (read
  /// from the line it says it on). A stopped FeedServer goes silent (its connections stay open):
  /// the 3 s silence timeout is what notices.
  static func ticker(_ server: FeedServer, symbols: String = "AAPL", _ extra: [String] = []) throws -> (
    RunningTicker, Int
  ) {
    let ticker = try RunningTicker(
      [
        "--url", "ws://127.0.0.1:\(server.port)/", "--symbol", symbols, "--every-trade", "--max-backoff", "1",
        "--silence-timeout", "3", "--metrics", "127.0.0.1:0",
      ] + extra,
      environment: TickerProcess.cleanEnvironment(["FINNHUB_TOKEN": token]))
    let stderr = ticker.waitForStderr { $0.contains("/metrics") }
    guard let range = stderr.range(of: "metrics on http://127.0.0.1:"),
      let port = Int(stderr[range.upperBound...].prefix { $0.isNumber })
    else {
      throw HTTPFetchError("no metrics address on stderr: \(stderr)")
    }
    return (ticker, port)
  }

  @Test(
    "Prometheus scrapes the venue connected, then disconnected once its server goes silent; promtool accepts it"
  )
  func prometheusScrapes() async throws {
    let server = try Self.finnhub()
    let (ticker, port) = try Self.ticker(server)
    defer { ticker.signal(SIGTERM) }
    _ = ticker.waitForLines(3)
    ticker.discardStdout()
    let prometheus = try PrometheusProcess(scraping: "127.0.0.1:\(port)")
    #expect(prometheus.await(#"ticker_venue_connected{venue="finnhub"}"#, toBe: ["1"]) == ["1"])
    #expect(
      prometheus.await(#"ticker_venue_prices_output_total{venue="finnhub"} > bool 0"#, toBe: ["1"]) == ["1"])
    // What promtool makes of the exposition as served.
    let exposition = try HTTPFetch.get(port, "/metrics")
    #expect(exposition.status == 200)
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("ticker-metrics-\(UUID()).txt")
    try exposition.body.write(to: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: file) }
    let check = try await Spawned.run(
      "/bin/sh", ["-c", "exec \"$0\" check metrics < \"$1\"", TestTools.promtool ?? "promtool", file.path])
    #expect(check.termination == .exited(0), "promtool: \(check.outputText)\(check.errorText)")
    server.stop()
    #expect(
      prometheus.await(#"ticker_venue_connected{venue="finnhub"}"#, toBe: ["0"]) == ["0"],
      "stderr: \(ticker.stderrSoFar)\nmetrics: \((try? HTTPFetch.get(port, "/metrics").body) ?? "none")")
    #expect(!ticker.stderrSoFar.contains(Self.token))
  }

  @Test("/healthz: 200 while prices flow, 503 naming the venue once its server stops")
  func healthFollowsTheConnection() async throws {
    let server = try Self.finnhub()
    let (ticker, port) = try Self.ticker(server)
    defer { ticker.signal(SIGTERM) }
    _ = ticker.waitForLines(3)
    ticker.discardStdout()
    let healthy = try HTTPFetch.get(port, "/healthz")
    #expect(healthy.status == 200)
    #expect(healthy.body == "ok\n")
    server.stop()
    let sick = try Self.health(port, until: { $0.status == 503 })
    #expect(sick.status == 503)
    #expect(sick.body.contains("finnhub: disconnected"), "body: \(sick.body)")
    #expect(try HTTPFetch.get(port, "/nothing").status == 404)
  }

  @Test("/healthz: a stale symbol counts against it, and its recovery clears it")
  func healthCountsStaleSymbols() async throws {
    // AAPL every 250 ms; MSFT quiet for 6 s, then a trade; AAPL goes on.
    var steps: [SessionScript.Step] = []
    let start: Int64 = 1_768_655_932_000
    for index in 1...24 {
      steps.append(
        StaleSymbolEndToEndTests.trade("AAPL", "\(120 + index).5", start + Int64(index) * 250, after: 250))
    }
    steps.append(StaleSymbolEndToEndTests.trade("MSFT", "410.25", start + 6_100, after: 100))
    for index in 1...200 {
      steps.append(
        StaleSymbolEndToEndTests.trade(
          "AAPL", "\(130 + index).5", start + 6_100 + Int64(index) * 250, after: 250))
    }
    let server = try Self.finnhub(steps, synthetic: false)
    defer { server.stop() }
    let (ticker, port) = try Self.ticker(server, symbols: "AAPL,MSFT", ["--stale-after", "1"])
    defer { ticker.signal(SIGTERM) }
    ticker.discardStdout()
    let stale = try Self.health(port, until: { $0.body.contains("no price for MSFT") })
    #expect(stale.status == 503)
    #expect(stale.body.contains("finnhub: no price for MSFT"), "body: \(stale.body)")
    let metrics = try HTTPFetch.get(port, "/metrics").body
    #expect(metrics.contains(#"ticker_symbol_stale{venue="finnhub",symbol="MSFT"} 1"#))
    #expect(metrics.contains(#"ticker_symbol_stale{venue="finnhub",symbol="AAPL"} 0"#))
    let recovered = try Self.health(port, until: { $0.status == 200 })
    #expect(recovered.status == 200)
    #expect(ticker.waitForStderr { $0.contains("MSFT has prices again") }.contains("MSFT has prices again"))
  }

  @Test("beyond loopback without --metrics-token: refused (64); a port in use: 71; the token never said")
  func listeningRules() async throws {
    let open = try await TickerProcess.run(["--demo", "--metrics", "0.0.0.0:0", "--count", "1"])
    #expect(open.status == 64)
    #expect(open.stderr.contains("--metrics 0.0.0.0:0 would show this run's metrics to anyone"))
    let taken = try TCPListener(host: "127.0.0.1", port: 0)
    defer { taken.close() }
    let busy = try await TickerProcess.run(["--demo", "--metrics", "127.0.0.1:\(taken.port)", "--count", "1"])
    #expect(busy.status == 71)
    #expect(busy.stderr.contains("cannot listen for --metrics on 127.0.0.1:\(taken.port)"))
    let secret = "metrics-secret-4242"
    let guarded = try await TickerProcess.run(
      ["--demo", "--metrics", "0.0.0.0:0", "--count", "2"],
      environment: TickerProcess.cleanEnvironment(["TICKER_METRICS_TOKEN": secret]))
    #expect(guarded.status == 0, "stderr: \(guarded.stderr)")
    #expect(!guarded.stderr.contains(secret))
  }

  /// `/healthz` asked again until `done` holds (a hang guard of 30 s: the ticker's state changes
  /// within seconds).
  static func health(_ port: Int, until done: (HTTPFetch) -> Bool) throws -> HTTPFetch {
    let limit = Date().addingTimeInterval(30)
    var response = try HTTPFetch.get(port, "/healthz")
    while !done(response), Date() < limit {
      Thread.sleep(forTimeInterval: 0.1)
      response = try HTTPFetch.get(port, "/healthz")
    }
    return response
  }
}
