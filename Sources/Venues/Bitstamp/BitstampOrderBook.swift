import JSON

/// The `data` of a Bitstamp `order_book_<market>` message, a full snapshot of the book's top
/// 100 levels a side, sent on every change:
/// `{"timestamp":"1789457617","microtimestamp":"1789457617906487","bids":[["77188","0.41122"],…],"asks":[["77189","0.41124"],…]}`.
/// Levels are `[PRICE, AMOUNT]` decimal strings, best first; only the first of each side is read
/// (the rest is the depth the ticker does not show). The time is `microtimestamp`, or else
/// `timestamp`, as a trade's.
struct BitstampOrderBook: Sendable, Equatable {
  /// The market, from the channel name (`btcusd`).
  var market: String
  /// The best level a side; nil while that side is empty.
  var bid: Level?
  var ask: Level?
  /// Epoch milliseconds.
  var time: Int64

  struct Level: Sendable, Equatable {
    var price: Price
    var amount: Price
  }

  init(object: JSONObject, market: String) throws(ShapeError) {
    self.market = market
    bid = try Self.top(object, "bids")
    ask = try Self.top(object, "asks")
    time = try BitstampTrade.milliseconds(object, of: "an order book")
  }

  /// The first level of side `key`; nil when the side is empty.
  private static func top(_ object: JSONObject, _ key: String) throws(ShapeError) -> Level? {
    guard case .array(let levels)? = object[key] else { throw ShapeError(#""\#(key)" must be an array"#) }
    guard let first = levels.first else { return nil }
    guard case .array(let fields) = first, fields.count >= 2, case .string(let price) = fields[0],
      case .string(let amount) = fields[1]
    else { throw ShapeError(#""\#(key)[0]" must be [price, amount] as decimal strings"#) }
    guard let price = Price(price), let amount = Price(amount) else {
      throw ShapeError(#""\#(key)[0]" is not a pair of decimal numbers"#)
    }
    return Level(price: price, amount: amount)
  }

  /// The best bid and ask; nil while either side is empty.
  var quote: Quote? {
    guard let bid, let ask else { return nil }
    return Quote(
      symbol: market, bid: bid.price, bidSize: bid.amount, ask: ask.price, askSize: ask.amount, time: time)
  }
}
