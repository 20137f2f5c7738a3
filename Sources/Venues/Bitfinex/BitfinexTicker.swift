import JSON

/// The payload of one message of Bitfinex's `ticker` channel on a trading pair:
/// `[BID, BID_SIZE, ASK, ASK_SIZE, DAILY_CHANGE, DAILY_CHANGE_RELATIVE, LAST_PRICE, VOLUME, HIGH,
/// LOW]`, JSON numbers whose text is kept exactly. Only the first four are read (the best bid and
/// ask and their sizes); fields Bitfinex may append are ignored, as for trades. No time: the quote
/// is timed when it arrives.
struct BitfinexTicker: Sendable, Equatable {
  var bid: Price
  /// nil when Bitfinex sends null.
  var bidSize: Price?
  var ask: Price
  var askSize: Price?

  /// Whether a channel payload has the ticker's shape: numbers, not the trades snapshot's arrays.
  static func isOne(_ fields: [JSONValue]) -> Bool {
    switch fields.first {
    case .number?, .string?: true
    default: false
    }
  }

  /// Reads `[BID, BID_SIZE, ASK, ASK_SIZE, …]`. Numbers may also come as strings (Bitfinex's
  /// `conf` flag for decimals as strings; the ticker sets none).
  init(_ fields: [JSONValue]) throws(ShapeError) {
    guard fields.count >= 4 else {
      throw ShapeError("a ticker needs BID, BID_SIZE, ASK and ASK_SIZE, not \(fields.count) fields")
    }
    bid = try Self.price(fields[0], "BID")
    bidSize = try Self.size(fields[1], "BID_SIZE")
    ask = try Self.price(fields[2], "ASK")
    askSize = try Self.size(fields[3], "ASK_SIZE")
  }

  private static func price(_ value: JSONValue, _ name: String) throws(ShapeError) -> Price {
    switch value {
    case .number(let text), .string(let text):
      guard let price = Price(text) else { throw ShapeError("the ticker's \(name) is not a decimal number") }
      return price
    default:
      throw ShapeError("the ticker's \(name) must be a number, not \(value.kindDescription)")
    }
  }

  private static func size(_ value: JSONValue, _ name: String) throws(ShapeError) -> Price? {
    if case .null = value { return nil }
    return try price(value, name)
  }

  func quote(symbol: String) -> Quote {
    Quote(symbol: symbol, bid: bid, bidSize: bidSize, ask: ask, askSize: askSize, time: 0)
  }
}
