import JSON

/// One Binance trade event:
/// `{"e":"trade","E":1789404776251,"s":"BTCUSDT","t":5206081234,"p":"78860.00000000","q":"0.00009000","T":1789404776250,"m":true,"M":true}`.
/// Price and quantity are decimal strings, kept exactly; key order is free and other keys are ignored.
struct BinanceTrade: Sendable, Equatable {
  /// `s`, upper case (`BTCUSDT`).
  var symbol: String
  /// `p`, exact.
  var price: Price
  /// `q`; nil when absent or null.
  var quantity: Price?
  /// `T`, the trade time, or `E` (the event time) when `T` is missing; epoch milliseconds.
  var time: Int64

  init(symbol: String, price: Price, quantity: Price? = nil, time: Int64) {
    self.symbol = symbol
    self.price = price
    self.quantity = quantity
    self.time = time
  }

  init(object: JSONObject) throws(ShapeError) {
    guard case .string(let symbol)? = object["s"], !symbol.isEmpty else {
      throw ShapeError(#""s" must be a non-empty string"#)
    }
    guard case .string(let priceText)? = object["p"] else {
      throw ShapeError(#""p" must be a decimal string"#)
    }
    guard let price = Price(priceText) else { throw ShapeError(#""p" is not a decimal number"#) }
    var quantity: Price? = nil
    switch object["q"] {
    case nil, .null?: break
    case .string(let text)?:
      guard let q = Price(text) else { throw ShapeError(#""q" is not a decimal number"#) }
      quantity = q
    default: throw ShapeError(#""q" must be a decimal string"#)
    }
    let time: Int64
    if let value = object["T"], !value.isNull {
      guard case .number(let text) = value, let t = VenueJSON.milliseconds(text) else {
        throw ShapeError(#""T" must be an integer (epoch milliseconds)"#)
      }
      time = t
    } else if let value = object["E"], !value.isNull {
      guard case .number(let text) = value, let t = VenueJSON.milliseconds(text) else {
        throw ShapeError(#""E" must be an integer (epoch milliseconds)"#)
      }
      time = t
    } else {
      throw ShapeError(#"trade has no "T" or "E" time"#)
    }
    self.init(symbol: symbol, price: price, quantity: quantity, time: time)
  }

  var quote: Quote { Quote(symbol: symbol, price: price, volume: quantity, time: time) }
}
