import JSON

/// One Bithumb `trade` message in the DEFAULT format, the one the ticker asks for
/// (docs/protocols.md §12):
/// `{"type":"trade","code":"KRW-BTC","trade_price":95539000,"trade_volume":0.00022664,…,
/// "trade_timestamp":1783658381138,"sequential_id":"862683813820523888","timestamp":1783658381398,
/// "stream_type":"REALTIME"}`.
///
/// Only `code`, `trade_price`, `trade_volume` and `trade_timestamp` are read. The time is
/// `trade_timestamp` (UTC epoch milliseconds), never `trade_date`/`trade_time`: those are Korean
/// time (KST) without a zone. Numbers are read as JSON numbers or as decimal strings (Bithumb's
/// REST API sends strings): either way the text is kept.
struct BithumbTrade: Sendable, Equatable {
  /// The market code (`KRW-BTC`).
  var code: String
  /// The trade's price, exact; an exponent form written out plainly.
  var price: Price
  /// The trade's volume; nil when absent or null.
  var volume: Price?
  /// `trade_timestamp`, or the message's `timestamp` when the trade time is missing.
  var time: Int64

  init(code: String, price: Price, volume: Price? = nil, time: Int64) {
    self.code = code
    self.price = price
    self.volume = volume
    self.time = time
  }

  init(object: JSONObject) throws(ShapeError) {
    guard case .string(let code)? = object["code"], !code.isEmpty else {
      throw ShapeError(#""code" must be a non-empty string"#)
    }
    let price = try Self.price(object["trade_price"], "trade_price")
    var volume: Price? = nil
    switch object["trade_volume"] {
    case nil, .null?: break
    case let value?: volume = try Self.price(value, "trade_volume")
    }
    let time: Int64
    if let value = object["trade_timestamp"], !value.isNull {
      guard let t = Self.milliseconds(value) else {
        throw ShapeError(#""trade_timestamp" must be epoch milliseconds"#)
      }
      time = t
    } else if let value = object["timestamp"], !value.isNull {
      guard let t = Self.milliseconds(value) else {
        throw ShapeError(#""timestamp" must be epoch milliseconds"#)
      }
      time = t
    } else {
      throw ShapeError(#"trade has no "trade_timestamp" or "timestamp""#)
    }
    self.init(code: code, price: price, volume: volume, time: time)
  }

  /// The exact decimal of a JSON number or of a decimal string.
  private static func price(_ value: JSONValue?, _ key: String) throws(ShapeError) -> Price {
    switch value {
    case .number(let text)?:
      guard let price = Price(text) else { throw ShapeError("\"\(key)\" is out of range") }
      return price
    case .string(let text)?:
      guard let price = Price(text) else { throw ShapeError("\"\(key)\" is not a decimal number") }
      return price
    default:
      throw ShapeError("\"\(key)\" must be a number")
    }
  }

  /// A JSON number's text, or a string's contents.
  private static func decimalText(_ value: JSONValue?) -> String? {
    switch value {
    case .number(let text)?, .string(let text)?: text
    default: nil
    }
  }

  /// Non-negative epoch milliseconds from a number or a string of one.
  private static func milliseconds(_ value: JSONValue) -> Int64? {
    guard let text = decimalText(value), let t = VenueJSON.milliseconds(text), t >= 0 else { return nil }
    return t
  }

  var quote: Quote { Quote(symbol: code, price: price, volume: volume, time: time) }
}
