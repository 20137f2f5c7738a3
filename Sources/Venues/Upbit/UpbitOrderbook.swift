import JSON

/// The top of one Upbit `orderbook` message, read from either key set: SIMPLE (`cd`, `tms`,
/// `obu` of `ap`/`bp`/`as`/`bs`) or DEFAULT (`code`, `timestamp`, `orderbook_units` of
/// `ask_price`/`bid_price`/`ask_size`/`bid_size`):
/// `{"type":"orderbook","code":"KRW-BTC","timestamp":1733450000000,"total_ask_size":…,
/// "orderbook_units":[{"ask_price":1.4325E8,"bid_price":1.4324E8,"ask_size":0.05,"bid_size":0.1},…],
/// "stream_type":"REALTIME"}`.
///
/// Every message is the whole book (15 or 30 units, best first), so the first unit is the top:
/// no local book. Bithumb's `orderbook` is the same message (DEFAULT keys) and is read here too.
/// Numbers are JSON numbers (exponent forms such as `1.4325E8` rewritten exactly by `Price`) or
/// decimal strings. Every other key is ignored.
struct UpbitOrderbook: Sendable, Equatable {
  var code: String
  var bid: Price
  var bidSize: Price?
  var ask: Price
  var askSize: Price?
  /// `tms`/`timestamp`, epoch milliseconds; 0 when absent (the runtime stamps it).
  var time: Int64

  /// The message's top, or nil when a side of the book is empty (no units, or a zero price):
  /// nothing to show until both sides have a level.
  static func top(of object: JSONObject) throws(ShapeError) -> UpbitOrderbook? {
    guard case .string(let code)? = object["cd"] ?? object["code"], !code.isEmpty else {
      throw ShapeError(#""cd"/"code" must be a non-empty string"#)
    }
    let time = try Self.time(object["tms"] ?? object["timestamp"])
    guard case .array(let units)? = object["obu"] ?? object["orderbook_units"] else {
      throw ShapeError(#""obu"/"orderbook_units" must be an array"#)
    }
    guard let first = units.first else { return nil }
    guard case .object(let unit) = first else {
      throw ShapeError(#""obu"/"orderbook_units"[0] must be an object"#)
    }
    let bid = try Self.decimal(unit["bp"] ?? unit["bid_price"], "bp/bid_price")
    let ask = try Self.decimal(unit["ap"] ?? unit["ask_price"], "ap/ask_price")
    guard let bid, let ask, bid.value > 0, ask.value > 0 else { return nil }
    return UpbitOrderbook(
      code: code, bid: bid, bidSize: try Self.decimal(unit["bs"] ?? unit["bid_size"], "bs/bid_size"),
      ask: ask, askSize: try Self.decimal(unit["as"] ?? unit["ask_size"], "as/ask_size"), time: time)
  }

  /// A JSON number or decimal string, exactly; nil when absent or null.
  private static func decimal(_ value: JSONValue?, _ key: String) throws(ShapeError) -> Price? {
    switch value {
    case nil, .null?: return nil
    case .number(let text)?, .string(let text)?:
      guard let price = Price(text) else { throw ShapeError("\"\(key)\" is not a decimal number") }
      return price
    case let other?: throw ShapeError("\"\(key)\" must be a number, not \(other.kindDescription)")
    }
  }

  private static func time(_ value: JSONValue?) throws(ShapeError) -> Int64 {
    switch value {
    case nil, .null?: return 0
    case .number(let text)?:
      guard let time = VenueJSON.milliseconds(text), time >= 0 else {
        throw ShapeError(#""tms"/"timestamp" must be epoch milliseconds"#)
      }
      return time
    case let other?:
      throw ShapeError(#""tms"/"timestamp" must be a number, not "# + other.kindDescription)
    }
  }

  var quote: Quote { Quote(symbol: code, bid: bid, bidSize: bidSize, ask: ask, askSize: askSize, time: time) }
}
