import JSON
import TickerSupport

/// The best bid and ask of one entry of a Kraken v2 ticker message's `data`:
/// `{"symbol":"BTC/USD","bid":80912.3,"bid_qty":0.01234,"ask":80912.4,"ask_qty":1.5,…,"timestamp":"2026-09-21T14:02:11.932618Z"}`.
/// Prices and quantities are JSON numbers whose text is kept exactly (Kraken writes them with
/// trailing zeros: `740.0`); the time is RFC 3339, truncated to milliseconds, 0 when absent.
struct KrakenBookTicker: Sendable, Equatable {
  var symbol: String
  var bid: Price
  var bidSize: Price
  var ask: Price
  var askSize: Price
  var time: Int64

  typealias Problem = BookEntryProblem

  init(object: JSONObject) throws(Problem) {
    guard case .string(let symbol)? = object["symbol"], !symbol.isEmpty else {
      throw .shape(ShapeError(#""symbol" must be a non-empty string"#))
    }
    self.symbol = symbol
    guard let bid = try Self.number(object, "bid"), let ask = try Self.number(object, "ask") else {
      throw .emptySide
    }
    self.bid = bid
    self.ask = ask
    guard let bidSize = try Self.number(object, "bid_qty"), let askSize = try Self.number(object, "ask_qty")
    else { throw .shape(ShapeError(#"a ticker with "bid" and "ask" needs "bid_qty" and "ask_qty""#)) }
    self.bidSize = bidSize
    self.askSize = askSize
    switch object["timestamp"] {
    case nil, .null?: time = 0
    case .string(let text)?:
      guard let t = RFC3339.milliseconds(text) else {
        throw .shape(ShapeError(#""timestamp" is not an RFC 3339 date-time"#))
      }
      time = t
    default: throw .shape(ShapeError(#""timestamp" must be an RFC 3339 string"#))
    }
  }

  /// The number at `key`, exactly as written; nil when absent or null.
  private static func number(_ object: JSONObject, _ key: String) throws(Problem) -> Price? {
    switch object[key] {
    case nil, .null?: return nil
    case .number(let text)?:
      guard let price = Price(text) else { throw .shape(ShapeError(#""\#(key)" is not a decimal number"#)) }
      return price
    default: throw .shape(ShapeError(#""\#(key)" must be a number"#))
    }
  }

  var quote: Quote {
    Quote(symbol: symbol, bid: bid, bidSize: bidSize, ask: ask, askSize: askSize, time: time)
  }
}
