import JSON

/// One Hyperliquid `bbo` message's data, the best bid and offer of a coin after a block that
/// changed it: `{"coin":"BTC","time":1733450000000,"bbo":[{"px":"97250.0","sz":"1.2","n":3},
/// {"px":"97251.0","sz":"0.4","n":1}]}`. `bbo[0]` is the bid and `bbo[1]` the ask, either null
/// while its side of the book is empty. Prices and sizes are decimal strings, kept as sent; `n`
/// (the number of orders) is not read.
struct HyperliquidBBO: Sendable, Equatable {
  var coin: String
  var bid: HyperliquidLevel?
  var ask: HyperliquidLevel?
  var time: Int64

  init(object: JSONObject) throws(ShapeError) {
    guard case .string(let coin)? = object["coin"], !coin.isEmpty else {
      throw ShapeError(#""coin" must be a non-empty string"#)
    }
    guard case .number(let text)? = object["time"], let time = VenueJSON.milliseconds(text), time >= 0 else {
      throw ShapeError(#""time" must be epoch milliseconds"#)
    }
    guard case .array(let sides)? = object["bbo"], sides.count == 2 else {
      throw ShapeError(#""bbo" must be an array of two levels (bid, ask)"#)
    }
    self.coin = coin
    self.time = time
    bid = try HyperliquidLevel(sides[0], "bbo[0]")
    ask = try HyperliquidLevel(sides[1], "bbo[1]")
  }

  /// Both sides as a quote; nil while either is empty.
  var quote: Quote? {
    guard let bid, let ask else { return nil }
    return Quote(
      symbol: coin, bid: bid.price, bidSize: bid.size, ask: ask.price, askSize: ask.size, time: time)
  }
}

/// One price level of Hyperliquid's book, `{"px":"97250.0","sz":"1.2","n":3}`.
struct HyperliquidLevel: Sendable, Equatable {
  var price: Price
  var size: Price

  /// The level in `value`; nil when it is null (that side is empty).
  init?(_ value: JSONValue, _ name: String) throws(ShapeError) {
    switch value {
    case .null: return nil
    case .object(let level):
      guard case .string(let px)? = level["px"], let price = Price(px) else {
        throw ShapeError("\(name).px must be a decimal string")
      }
      guard case .string(let sz)? = level["sz"], let size = Price(sz) else {
        throw ShapeError("\(name).sz must be a decimal string")
      }
      self.price = price
      self.size = size
    default:
      throw ShapeError("\(name) must be an object or null, not \(value.kindDescription)")
    }
  }
}
