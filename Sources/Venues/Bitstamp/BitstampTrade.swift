import JSON

/// The `data` of a Bitstamp `trade`:
/// `{"id":…,"timestamp":"1791455017","amount":0.0016429999999999999,"amount_str":"0.00164300","price":79412,"price_str":"79412","type":0,"microtimestamp":"1791455017512000","buy_order_id":…,"sell_order_id":…}`.
/// The price and size are read from their exact strings, `price_str` and `amount_str`: the JSON
/// numbers `price` and `amount` beside them are floats printed with binary artefacts
/// (`3651.3000000000002`), read only when a string is missing. The time is `microtimestamp`
/// (microseconds, a string), or else `timestamp`. `type` (0 a taker buy, 1 a taker sell) and
/// the ids are not read.
struct BitstampTrade: Sendable, Equatable {
  /// The market, from the channel name (`btcusd`).
  var market: String
  var price: Price
  /// nil when the trade has no size at all.
  var amount: Price?
  /// Epoch milliseconds.
  var time: Int64

  init(market: String, price: Price, amount: Price? = nil, time: Int64) {
    self.market = market
    self.price = price
    self.amount = amount
    self.time = time
  }

  init(object: JSONObject, market: String) throws(ShapeError) {
    guard let price = try Self.decimal(object, exact: "price_str", float: "price") else {
      throw ShapeError(#"trade has no "price_str" (or "price")"#)
    }
    let amount = try Self.decimal(object, exact: "amount_str", float: "amount")
    self.init(market: market, price: price, amount: amount, time: try Self.milliseconds(object))
  }

  /// The decimal in `exact` (a string), or else the number `float` as written; nil when neither
  /// is there (or both are null).
  static func decimal(_ object: JSONObject, exact: String, float: String) throws(ShapeError) -> Price? {
    switch object[exact] {
    case nil, .null?: break
    case .string(let text)?:
      guard let value = Price(text) else { throw ShapeError(#""\#(exact)" is not a decimal number"#) }
      return value
    default: throw ShapeError(#""\#(exact)" must be a decimal string"#)
    }
    switch object[float] {
    case nil, .null?: return nil
    case .number(let text)?, .string(let text)?:
      guard let value = Price(text) else { throw ShapeError(#""\#(float)" is not a decimal number"#) }
      return value
    default: throw ShapeError(#""\#(float)" must be a number"#)
    }
  }

  /// Epoch milliseconds from `microtimestamp`, or else from `timestamp` (of a trade, or `what`): seconds on spot
  /// markets, but milliseconds on perpetuals (observed in 2026), told apart by size (a time in
  /// seconds stays below 10^11 until the year 5138).
  static func milliseconds(_ object: JSONObject, of what: String = "trade") throws(ShapeError) -> Int64 {
    if let micros = try integer(object, "microtimestamp") { return micros / 1000 }
    guard let stamp = try integer(object, "timestamp") else {
      throw ShapeError(#"\#(what) has no "microtimestamp" or "timestamp""#)
    }
    return stamp >= 100_000_000_000 ? stamp : stamp * 1000
  }

  /// A non-negative integer member, written as a string of digits (as Bitstamp does) or as a
  /// number; nil when absent or null.
  private static func integer(_ object: JSONObject, _ key: String) throws(ShapeError) -> Int64? {
    switch object[key] {
    case nil, .null?: return nil
    case .string(let text)?, .number(let text)?:
      guard let value = Int64(text), value >= 0, value < 1_000_000_000_000_000_000 else {
        throw ShapeError(
          #""\#(key)" must be a whole number of \#(key == "timestamp" ? "seconds" : "microseconds")"#)
      }
      return value
    default:
      throw ShapeError(#""\#(key)" must be a string of digits"#)
    }
  }

  var quote: Quote { Quote(symbol: market, price: price, volume: amount, time: time) }
}
