import JSON
import TickerSupport

/// One entry of a Kraken v2 ticker message's `data`:
/// `{"symbol":"BTC/USD","bid":80912.3,…,"last":80912.4,"volume":1422.57318944,…,"timestamp":"2026-09-21T14:02:11.932618Z"}`.
/// Prices are JSON numbers whose text is kept exactly; the time is RFC 3339 with microseconds,
/// truncated to milliseconds. `volume` is the day's volume, not a trade's size, so the quote
/// carries none. Other keys are ignored.
struct KrakenTicker: Sendable, Equatable {
  /// `symbol` (`BTC/USD`).
  var symbol: String
  /// `last`, the last traded price, exact.
  var last: Price
  /// `timestamp`, epoch milliseconds; 0 when the update carries none (2024's updates had none):
  /// the runtime then stamps the time it was received.
  var time: Int64

  /// Why an entry cannot become a quote.
  enum Problem: Error, Equatable {
    /// Malformed: a field of the wrong type or spelling.
    case shape(ShapeError)
    /// No `last` (or null): Kraken guarantees one only for a pair that traded within a day.
    case noPrice
  }

  init(symbol: String, last: Price, time: Int64) {
    self.symbol = symbol
    self.last = last
    self.time = time
  }

  init(object: JSONObject) throws(Problem) {
    guard case .string(let symbol)? = object["symbol"], !symbol.isEmpty else {
      throw .shape(ShapeError(#""symbol" must be a non-empty string"#))
    }
    let last: Price
    switch object["last"] {
    case nil, .null?: throw .noPrice
    case .number(let text)?:
      guard let price = Price(text) else { throw .shape(ShapeError(#""last" is not a decimal number"#)) }
      last = price
    default: throw .shape(ShapeError(#""last" must be a number"#))
    }
    let time: Int64
    switch object["timestamp"] {
    case nil, .null?: time = 0
    case .string(let text)?:
      guard let t = RFC3339.milliseconds(text) else {
        throw .shape(ShapeError(#""timestamp" is not an RFC 3339 date-time"#))
      }
      time = t
    default: throw .shape(ShapeError(#""timestamp" must be an RFC 3339 string"#))
    }
    self.init(symbol: symbol, last: last, time: time)
  }

  var quote: Quote { Quote(symbol: symbol, price: last, time: time) }
}
