import JSON

/// One Upbit `ticker` message, read from either key set: SIMPLE (`cd`, `tp`, `tv`, `ttms`, `tms`)
/// or DEFAULT (`code`, `trade_price`, `trade_volume`, `trade_timestamp`, `timestamp`). Where a
/// message has both spellings of a field, the SIMPLE one is used. Every other key is ignored.
struct UpbitTicker: Sendable, Equatable {
  /// The market code (`KRW-BTC`).
  var code: String
  /// The last trade's price, exact; exponent forms (`1.03156E8`) rewritten plainly.
  var tradePrice: Price
  /// The last trade's volume; nil when absent or null.
  var tradeVolume: Price?
  /// The last trade's time (`ttms`), or the message's (`tms`) when the trade time is missing;
  /// epoch milliseconds.
  var time: Int64

  init(code: String, tradePrice: Price, tradeVolume: Price? = nil, time: Int64) {
    self.code = code
    self.tradePrice = tradePrice
    self.tradeVolume = tradeVolume
    self.time = time
  }

  init(object: JSONObject) throws(ShapeError) {
    guard case .string(let code)? = Self.field(object, "cd", "code"), !code.isEmpty else {
      throw ShapeError(#""cd"/"code" must be a non-empty string"#)
    }
    guard case .number(let priceText)? = Self.field(object, "tp", "trade_price") else {
      throw ShapeError(#""tp"/"trade_price" must be a number"#)
    }
    guard let price = Price(priceText) else { throw ShapeError(#""tp"/"trade_price" is out of range"#) }
    var volume: Price? = nil
    switch Self.field(object, "tv", "trade_volume") {
    case nil, .null?: break
    case .number(let text)?:
      guard let v = Price(text) else { throw ShapeError(#""tv"/"trade_volume" is out of range"#) }
      volume = v
    default: throw ShapeError(#""tv"/"trade_volume" must be a number"#)
    }
    let time: Int64
    if let value = Self.field(object, "ttms", "trade_timestamp"), !value.isNull {
      guard case .number(let text) = value, let t = VenueJSON.milliseconds(text) else {
        throw ShapeError(#""ttms"/"trade_timestamp" must be an integer (epoch milliseconds)"#)
      }
      time = t
    } else if let value = Self.field(object, "tms", "timestamp"), !value.isNull {
      guard case .number(let text) = value, let t = VenueJSON.milliseconds(text) else {
        throw ShapeError(#""tms"/"timestamp" must be an integer (epoch milliseconds)"#)
      }
      time = t
    } else {
      throw ShapeError(#"ticker has no "ttms"/"trade_timestamp" or "tms"/"timestamp""#)
    }
    self.init(code: code, tradePrice: price, tradeVolume: volume, time: time)
  }

  /// The SIMPLE key's value, else the DEFAULT key's.
  private static func field(_ object: JSONObject, _ simple: String, _ full: String) -> JSONValue? {
    object[simple] ?? object[full]
  }

  var quote: Quote { Quote(symbol: code, price: tradePrice, volume: tradeVolume, time: time) }
}
