import Recording
import Venues
import WebSocketWire

/// The recorded sessions `ticker --demo` replays, one per venue (the same text as
/// `Tests/Fixtures/<venue>-session.ndjson`; a test keeps them equal). Embedded so the demo needs
/// no files, no token and no internet.
public enum DemoSession {
  /// The recorded session of the provider named `name` (as the ticker's `--provider` spells it),
  /// as NDJSON text; nil for any other name.
  public static func script(forProvider name: String) -> String? {
    VenueEmulation(named: name)?.demoSession
  }

  /// The symbols the recorded session of `venue` trades, in the order they first trade, spelled
  /// as `--symbol` takes them (Binance's `BTCUSDT`, not its stream name). Other symbols get a
  /// simulated walk in the demo (`FeedServer.Options.acceptAnySymbol`).
  public static func recordedSymbols(for venue: VenueEmulation) -> [String] {
    guard let script = try? SessionScript(ndjson: venue.demoSession) else { return [] }
    let provider = venue.provider
    var symbols: [String] = []
    var context = DecodingContext()
    for step in script.steps where step.direction == .server {
      let message: WebSocketMessage
      switch step.kind {
      case .text: message = .text(step.body)
      case .binary: message = .binary(Array(step.body.utf8))
      default: continue
      }
      let quotes: [Quote]
      switch provider.decode(message, context: &context) {
      case .quotes(let decoded), .partial(let decoded, _): quotes = decoded
      default: continue
      }
      for quote in quotes where !symbols.contains(quote.symbol) { symbols.append(quote.symbol) }
    }
    return symbols
  }

}
