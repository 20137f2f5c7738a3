import JSON
import Venues

/// The recorded sessions `ticker --demo` replays, one per venue (the same text as
/// `Tests/Fixtures/<venue>-session.ndjson`; a test keeps them equal). Embedded so the demo needs
/// no files, no token and no internet.
public enum DemoSession {
  /// The recorded session of the provider named `name` (`finnhub`, `upbit`, `binance`,
  /// `coinbase`, as the ticker's `--provider` spells it), as NDJSON text; nil for any other name.
  public static func script(forProvider name: String) -> String? {
    Venue(provider: name).map(script(for:))
  }

  /// The symbols the recorded session of `venue` trades, in the order they first trade, spelled
  /// as `--symbol` takes them (Binance's `BTCUSDT`, not its stream name). Other symbols get a
  /// simulated walk in the demo (`FeedServer.Options.acceptAnySymbol`).
  public static func recordedSymbols(for venue: Venue) -> [String] {
    guard let script = try? SessionScript(ndjson: script(for: venue)) else { return [] }
    var symbols: [String] = []
    for step in script.steps where step.direction == .server && (step.kind == .text || step.kind == .binary) {
      guard let value = try? JSONParser().parse(step.body) else { continue }
      let traded: [String]
      switch venue {
      case .finnhub:
        let trades = value["type"]?.stringValue == "trade" ? value["data"]?.arrayValue ?? [] : []
        traded = trades.compactMap { $0["s"]?.stringValue }
      case .upbit:
        traded = UpbitTicker.simple(value)?["cd"]?.stringValue.map { [$0] } ?? []
      case .binance:
        traded = BinanceEmulator.trade(in: value)?.data["s"]?.stringValue.map { [$0] } ?? []
      case .coinbase:
        let product = value["type"]?.stringValue == "ticker" ? value["product_id"]?.stringValue : nil
        traded = product.map { [$0] } ?? []
      }
      for symbol in traded where !symbols.contains(symbol) { symbols.append(symbol) }
    }
    return symbols
  }

  /// The recorded session of `venue`, as NDJSON text.
  public static func script(for venue: Venue) -> String {
    switch venue {
    case .finnhub: finnhub
    case .upbit: upbit
    case .binance: binance
    case .coinbase: coinbase
    }
  }
}
