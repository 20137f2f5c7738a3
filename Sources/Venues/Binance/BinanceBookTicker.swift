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
    bid = try Self.price(object, "b")
    ask = try Self.price(object, "a")
    bidSize = try Self.size(object, "B")
    askSize = try Self.size(object, "A")
  }

  private static func price(_ object: JSONObject, _ key: String) throws(ShapeError) -> Price {
    guard case .string(let text)? = object[key], let price = Price(text) else {
      throw ShapeError(#""\#(key)" must be a decimal string"#)
    }
    return price
  }

  private static func size(_ object: JSONObject, _ key: String) throws(ShapeError) -> Price? {
    switch object[key] {
    case nil, .null?: return nil
    case .string(let text)?:
      guard let size = Price(text) else { throw ShapeError(#""\#(key)" is not a decimal number"#) }
      return size
    default: throw ShapeError(#""\#(key)" must be a decimal string"#)
    }
  }

  var quote: Quote { Quote(symbol: symbol, bid: bid, bidSize: bidSize, ask: ask, askSize: askSize, time: 0) }
}
