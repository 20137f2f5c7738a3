import JSON

/// One fill of a Hyperliquid `trades` message:
/// `{"coin":"BTC","side":"B","px":"97432.0","sz":"0.01026","time":1791301208411,"hash":"0x…","tid":…,"users":[…]}`.
/// Price and size are decimal strings, kept exactly (a JSON number is read the same way); `time`
/// is epoch milliseconds. `side` (the taker's: `B` buys, `A` sells), `hash`, `tid` and `users`
/// (missing from older frames) are not read.
struct HyperliquidTrade: Sendable, Equatable {
  /// `coin` (`BTC`).
  var coin: String
  /// `px`, exact.
  var price: Price
  /// `sz`; nil when absent or null.
  var size: Price?
  /// `time`, epoch milliseconds.
  var time: Int64

  init(coin: String, price: Price, size: Price? = nil, time: Int64) {
    self.coin = coin
    self.price = price
    self.size = size
    self.time = time
  }

  init(object: JSONObject) throws(ShapeError) {
    guard case .string(let coin)? = object["coin"], !coin.isEmpty else {
      throw ShapeError(#""coin" must be a non-empty string"#)
    }
    guard let price = Self.decimal(object["px"]) else { throw ShapeError(#""px" must be a decimal string"#) }
    var size: Price? = nil
    switch object["sz"] {
    case nil, .null?: break
    default:
      guard let s = Self.decimal(object["sz"]) else { throw ShapeError(#""sz" must be a decimal string"#) }
      size = s
    }
    let time: Int64
    switch object["time"] {
    case .number(let text)?, .string(let text)?:
      guard let t = VenueJSON.milliseconds(text), t >= 0 else {
        throw ShapeError(#""time" must be epoch milliseconds"#)
      }
      time = t
    default: throw ShapeError(#"a trade needs "time" (epoch milliseconds)"#)
    }
    self.init(coin: coin, price: price, size: size, time: time)
  }

  /// A decimal string's value, or a JSON number's, its text kept.
  static func decimal(_ value: JSONValue?) -> Price? {
    switch value {
    case .string(let text)?, .number(let text)?: Price(text)
    default: nil
    }
  }

  var quote: Quote { Quote(symbol: coin, price: price, volume: size, time: time) }
}
