import FeedRuntime
import Monitoring
import Testing

@testable import Outputs

/// The venues' families of `--metrics` and the reasons of `/healthz`, from feed figures.
@Suite struct FeedMetricsTests {
  static func statistics(
    connected: Bool = true, sinceLastMessage: Duration? = .seconds(1), stale: Bool = false,
    silenceLimit: Duration? = .seconds(150)
  ) -> FeedStatistics {
    var s = FeedStatistics(
      connected: connected, everConnected: true, sinceLastMessage: sinceLastMessage, messages: 12,
      pricesReceived: 10, pricesOutput: 4, reconnects: ["silence": 2], subscribed: 2,
      symbols: [
        .init(symbol: "BTCUSDT", sinceLastPrice: .milliseconds(1500), stale: false),
        .init(symbol: "ETH\"USDT", sinceLastPrice: nil, stale: stale),
      ], staleAfter: .seconds(30))
    s.silenceLimit = silenceLimit
    return s
  }

  @Test func everyVenueFamilyWithItsSeries() {
    var text = PrometheusText()
    FeedMetrics.write(
      [.init(name: "binance", statistics: Self.statistics()), .init(name: "kraken", statistics: nil)],
      into: &text)
    let lines = text.text.split(separator: "\n").map(String.init)
    #expect(lines.contains(#"ticker_venue_connected{venue="binance"} 1"#))
    #expect(lines.contains(#"ticker_venue_connected{venue="kraken"} 0"#))
    #expect(lines.contains(#"ticker_venue_messages_received_total{venue="binance"} 12"#))
    #expect(lines.contains(#"ticker_venue_prices_received_total{venue="binance"} 10"#))
    #expect(lines.contains(#"ticker_venue_prices_output_total{venue="binance"} 4"#))
    #expect(lines.contains(#"ticker_venue_reconnects_total{venue="binance",reason="silence"} 2"#))
    #expect(lines.contains(#"ticker_venue_reconnects_total{venue="binance",reason="error"} 0"#))
    #expect(lines.contains(#"ticker_venue_subscribed_symbols{venue="binance"} 2"#))
    #expect(lines.contains(#"ticker_venue_last_message_age_seconds{venue="binance"} 1"#))
    #expect(lines.contains(#"ticker_symbol_last_price_age_seconds{venue="binance",symbol="BTCUSDT"} 1.5"#))
    #expect(lines.contains(#"ticker_symbol_stale{venue="binance",symbol="ETH\"USDT"} 0"#))
    // A symbol without a price yet has no age; a venue not started has no counters.
    #expect(!text.text.contains(#"ticker_symbol_last_price_age_seconds{venue="binance",symbol="ETH"#))
    #expect(!text.text.contains(#"ticker_venue_messages_received_total{venue="kraken"}"#))
    #expect(lines.filter { $0.hasPrefix("# TYPE ") }.count == lines.filter { $0.hasPrefix("# HELP ") }.count)
  }

  @Test func healthNamesEachVenueThatIsNotWell() {
    #expect(FeedMetrics.problems([.init(name: "binance", statistics: Self.statistics())]).isEmpty)
    #expect(
      FeedMetrics.problems([
        .init(name: "binance", statistics: Self.statistics(connected: false)),
        .init(name: "kraken", statistics: nil),
        .init(name: "okx", statistics: Self.statistics(sinceLastMessage: .seconds(200))),
        .init(name: "upbit", statistics: Self.statistics(stale: true)),
      ]) == [
        "binance: disconnected, reconnecting", "kraken: not connected yet", "okx: no message for 200 s",
        "upbit: no price for ETH\"USDT in 30 s (--stale-after)",
      ])
  }
}
