import FeedRuntime
import Monitoring
import WebSocketClient

/// The venues' part of `--metrics` (Prometheus families, one series per venue and per followed
/// symbol) and of `/healthz` (a reason per venue that is not well), from each feed's
/// `FeedStatistics`.
public enum FeedMetrics {
  /// One venue of the run: its name (the metrics' `venue` label) and its feed's figures (nil
  /// before the feed started).
  public struct Venue: Sendable {
    public var name: String
    public var statistics: FeedStatistics?

    public init(name: String, statistics: FeedStatistics?) {
      self.name = name
      self.statistics = statistics
    }
  }

  /// Every kind of disconnect (`DisconnectReason.label`), each given a series from the start so
  /// that rates over them work before the first one.
  static let reasons = ["closed", "error", "pong_timeout", "requested", "silence"]

  public static func write(_ venues: [Venue], into text: inout PrometheusText) {
    let started = venues.compactMap { venue in venue.statistics.map { (venue.name, $0) } }
    text.family(
      "ticker_venue_connected", .gauge, help: "Whether the venue's connection is open and subscribed.")
    for venue in venues {
      text.sample(
        "ticker_venue_connected", ["venue": venue.name], venue.statistics?.connected == true ? 1 : 0)
    }
    text.family(
      "ticker_venue_last_message_age_seconds", .gauge,
      help: "Seconds since the venue's last message, on any connection (absent before the first).")
    for (name, statistics) in started {
      guard let age = statistics.sinceLastMessage else { continue }
      text.sample("ticker_venue_last_message_age_seconds", ["venue": name], seconds(age))
    }
    perVenue(
      "ticker_venue_messages_received_total", .counter, "Messages received from the venue.", \.messages)
    perVenue(
      "ticker_venue_prices_received_total", .counter, "Prices received for followed symbols.",
      \.pricesReceived)
    perVenue(
      "ticker_venue_prices_output_total", .counter,
      "Prices that passed the filters and went to the outputs (printed, drawn, served or published).",
      \.pricesOutput)
    text.family("ticker_venue_reconnects_total", .counter, help: "Connections lost, by why.")
    for (name, statistics) in started {
      for reason in reasons {
        text.sample(
          "ticker_venue_reconnects_total", ["venue": name, "reason": reason],
          Double(statistics.reconnects[reason] ?? 0))
      }
    }
    perVenue("ticker_venue_subscribed_symbols", .gauge, "Symbols followed on the venue.", \.subscribed)
    writeSymbols(started, into: &text)

    /// A family with one series per venue started, its value read from each venue's figures.
    func perVenue(
      _ name: String, _ kind: PrometheusText.Kind, _ help: String, _ value: KeyPath<FeedStatistics, Int>
    ) {
      text.family(name, kind, help: help)
      for (venue, statistics) in started {
        text.sample(name, ["venue": venue], Double(statistics[keyPath: value]))
      }
    }
  }

  private static func writeSymbols(_ venues: [(String, FeedStatistics)], into text: inout PrometheusText) {
    text.family(
      "ticker_symbol_last_price_age_seconds", .gauge,
      help: "Seconds since the followed symbol's last price (absent before its first).")
    for (venue, statistics) in venues {
      for symbol in statistics.symbols {
        guard let age = symbol.sinceLastPrice else { continue }
        text.sample(
          "ticker_symbol_last_price_age_seconds", ["venue": venue, "symbol": symbol.symbol], seconds(age))
      }
    }
    guard venues.contains(where: { $0.1.staleAfter != nil }) else { return }
    text.family(
      "ticker_symbol_stale", .gauge,
      help: "Whether the symbol had no price for --stale-after while its venue was connected and sending.")
    for (venue, statistics) in venues where statistics.staleAfter != nil {
      for symbol in statistics.symbols {
        text.sample("ticker_symbol_stale", ["venue": venue, "symbol": symbol.symbol], symbol.stale ? 1 : 0)
      }
    }
  }

  /// Why the run is not well, a line per venue that is not (empty: healthy): not connected yet,
  /// disconnected, silent beyond its silence limit, or with stale symbols.
  public static func problems(_ venues: [Venue]) -> [String] {
    venues.compactMap { venue in
      guard let statistics = venue.statistics, statistics.everConnected else {
        return "\(venue.name): not connected yet"
      }
      guard statistics.connected else { return "\(venue.name): disconnected, reconnecting" }
      if let limit = statistics.silenceLimit, let age = statistics.sinceLastMessage, age > limit {
        return "\(venue.name): no message for \(Int(seconds(age))) s"
      }
      let stale = statistics.staleSymbols
      if !stale.isEmpty, let after = statistics.staleAfter {
        let shown =
          stale.prefix(10).joined(separator: ", ") + (stale.count > 10 ? " and \(stale.count - 10) more" : "")
        return "\(venue.name): no price for \(shown) in \(FailureText.seconds(after)) (--stale-after)"
      }
      return nil
    }
  }

  static func seconds(_ duration: Duration) -> Double {
    let (whole, atto) = duration.components
    return Double(whole) + Double(atto) / 1e18
  }
}
