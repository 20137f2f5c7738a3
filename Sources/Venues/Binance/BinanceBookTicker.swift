import JSON

/// One Binance book ticker (`<symbol>@bookTicker`), the best bid and ask after each change:
/// `{"u":400900217,"s":"BNBUSDT","b":"25.35190000","B":"31.21000000","a":"25.36520000","A":"40.66000000"}`.
/// No event type and no time: the quote is timed when it arrives. Prices and sizes are decimal
/// strings, kept exactly.
struct BinanceBookTicker: Sendable, Equatable {
  var symbol: String
  var bid: Price
  var bidSize: Price?
  var ask: Price
  var askSize: Price?

  /// Whether a payload without `e` is a book ticker: it has `b` and `a`.
  static func isOne(_ object: JSONObject) -> Bool { object["b"] != nil && object["a"] != nil }

  init(object: JSONObject) throws(ShapeError) {
    guard case .string(let symbol)? = object["s"], !symbol.isEmpty else {
      throw ShapeError(#""s" must be a non-empty string"#)
    }
    self.symbol = symbol
    bid = try VenueJSON.decimalString(object, "b")
    ask = try VenueJSON.decimalString(object, "a")
    bidSize = try VenueJSON.optionalDecimalString(object, "B")
    askSize = try VenueJSON.optionalDecimalString(object, "A")
  }

  var quote: Quote { Quote(symbol: symbol, bid: bid, bidSize: bidSize, ask: ask, askSize: askSize, time: 0) }
}
