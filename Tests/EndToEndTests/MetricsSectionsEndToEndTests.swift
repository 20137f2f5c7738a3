import Foundation
import Testing

@testable import TestSupport

/// `--metrics` of the other long runs: `--publish`'s families against a real `nats-server`, and
/// `ticker serve`'s with a client connected.
@Suite("ticker end to end: metrics of --publish and serve", .serialized)
struct MetricsSectionsEndToEndTests {
  /// The metrics port a running ticker said on stderr.
  static func metricsPort(_ ticker: RunningTicker) throws -> Int {
    let stderr = ticker.waitForStderr { $0.contains("/metrics") }
    guard let range = stderr.range(of: "metrics on http://127.0.0.1:"),
      let port = Int(stderr[range.upperBound...].prefix { $0.isNumber })
    else { throw HTTPFetchError("no metrics address on stderr: \(stderr)") }
    return port
  }

  /// The value of the sample `series` (name and labels as written) in an exposition.
  static func value(_ series: String, in exposition: String) -> Double? {
    exposition.split(separator: "\n").first { $0.hasPrefix(series + " ") }
      .flatMap { Double($0.dropFirst(series.count + 1)) }
  }

  /// `/metrics` asked again until `done` holds of it (a hang guard of 30 s).
  static func metrics(_ port: Int, until done: (String) -> Bool) throws -> String {
    let limit = Date().addingTimeInterval(30)
    var body = try HTTPFetch.get(port, "/metrics").body
    while !done(body), Date() < limit {
      Thread.sleep(forTimeInterval: 0.1)
      body = try HTTPFetch.get(port, "/metrics").body
    }
    return body
  }

  @Test("--publish: connected, published, buffered and dropped", .requires(.natsServer))
  func publish() async throws {
    let server = try await NATSServerProcess.start()
    let ticker = try RunningTicker(
      ["--demo", "--every-trade", "--format", "json", "--publish", server.url, "--metrics", "127.0.0.1:0"])
    defer { ticker.signal(SIGTERM) }
    let port = try Self.metricsPort(ticker)
    _ = ticker.waitForLines(5)
    ticker.discardStdout()
    let body = try Self.metrics(port) { (Self.value("ticker_publish_published_total", in: $0) ?? 0) >= 5 }
    #expect(Self.value("ticker_publish_connected", in: body) == 1, "\(body)")
    #expect((Self.value("ticker_publish_published_total", in: body) ?? 0) >= 5)
    #expect(Self.value("ticker_publish_dropped_total", in: body) == 0)
    #expect(Self.value("ticker_publish_buffered", in: body) != nil)
    #expect(Self.value(#"ticker_venue_connected{venue="finnhub"}"#, in: body) == 1)
  }

  @Test("serve: clients connected and frames sent")
  func serve() async throws {
    let serve = try await ServeRun.start(["--demo", "--metrics", "127.0.0.1:0"])
    defer { serve.process.signal(SIGTERM) }
    let port = try Self.metricsPort(serve.process)
    let before = try HTTPFetch.get(port, "/metrics").body
    #expect(Self.value("ticker_serve_clients", in: before) == 0, "\(before)")
    let client = try RunningTicker(
      ["--url", serve.url, "-s", "BINANCE:BTCUSDT", "--every-trade"],
      environment: TickerProcess.cleanEnvironment(["FINNHUB_TOKEN": "client-key"]))
    defer { client.signal(SIGTERM) }
    _ = client.waitForLines(3)
    client.discardStdout()
    let body = try Self.metrics(port) { (Self.value("ticker_serve_frames_total", in: $0) ?? 0) >= 3 }
    #expect(Self.value("ticker_serve_clients", in: body) == 1, "\(body)")
    #expect((Self.value("ticker_serve_frames_total", in: body) ?? 0) >= 3)
    #expect(Self.value("ticker_serve_slow_clients_dropped_total", in: body) == 0)
    #expect(Self.value(#"ticker_venue_connected{venue="finnhub"}"#, in: body) == 1)
    #expect(try HTTPFetch.get(port, "/healthz").status == 200)
  }
}
