import Foundation
import TestSupport
import Testing

@testable import Monitoring

/// `promtool check metrics` (Prometheus's own parser and linter) judges what the endpoint serves.
@Suite(.requires(.promtool)) struct PromtoolTests {
  /// A realistic exposition: a gauge with labels, counters, label values and help that need
  /// escaping, and this process's `process_*` families.
  static func exposition() -> String {
    var text = PrometheusText()
    text.family(
      "ticker_venue_connected", .gauge, help: "Whether the venue's connection is open (1) or not (0).")
    text.sample("ticker_venue_connected", ["venue": "binance"], 1)
    text.sample("ticker_venue_connected", ["venue": "we\"ird\\venue\nname"], 0)
    text.family(
      "ticker_prices_received_total", .counter, help: "Prices received, by venue and symbol.\nSee \\docs.")
    text.sample("ticker_prices_received_total", ["venue": "binance", "symbol": "BTCUSDT"], 123_456)
    text.sample("ticker_prices_received_total", ["venue": "coinbase", "symbol": "BTC-USD"], 0)
    text.family("ticker_symbol_silence_seconds", .gauge, help: "Seconds since the symbol's last price.")
    text.sample("ticker_symbol_silence_seconds", ["venue": "binance", "symbol": "ETHUSDT"], 0.25)
    text.sample("ticker_symbol_silence_seconds", ["venue": "binance", "symbol": "SOLUSDT"], .infinity)
    ProcessMetrics.append(to: &text)
    return text.text
  }

  @Test func acceptsTheExpositionServed() async throws {
    let server = try MetricsServer(
      routes: MetricsRoutes(metrics: { Self.exposition() }, health: { (true, []) }))
    server.start()
    defer { server.stop() }
    let port = server.port
    let response = try await offPool { try HTTPTestClient.request(port: port, "/metrics") }
    #expect(response.status == 200)
    #if os(Linux)
      #expect(response.body.firstRange(of: "\nprocess_resident_memory_bytes ") != nil)
      #expect(response.body.firstRange(of: "\nprocess_open_fds ") != nil)
    #endif
    let check = try await Self.check(response.body)
    #expect(check.termination?.status == 0, "promtool: \(check.outputText)\(check.errorText)")
    #expect(check.outputText.isEmpty && check.errorText.isEmpty)
  }

  /// The check can fail: a counter without `_total`, a bare line break in a label value.
  @Test(arguments: [
    "# HELP a_count A count.\n# TYPE a_count counter\na_count 1\n",
    "# HELP a Gauge.\n# TYPE a gauge\na{v=\"x\ny\"} 1\n",
  ])
  func refusesWhatIsWrong(text: String) async throws {
    let check = try await Self.check(text)
    #expect(check.termination?.status != 0)
  }

  /// `promtool check metrics` with `text` on its standard input.
  private static func check(_ text: String) async throws -> Spawned.Finished {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "exposition-\(UUID().uuidString)")
    try Data(text.utf8).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    return try await Spawned.run(
      TestTools.promtool ?? "/usr/bin/promtool", ["check", "metrics"], standardInput: .file(file.path))
  }
}
