import JSON

/// One entry of a Bybit `publicTrade` message's `data`:
/// `{"i":"2290000001202469355","T":1788335009482,"p":"77606.8","v":"0.000712","S":"Buy","seq":113508069853,"s":"BTCUSDT","BT":false,"RPI":false}`.
/// Price and size are decimal strings, kept exactly; `T` is the trade's time in epoch
/// milliseconds. The side (`S`), the trade id (`i`), the block-trade and RPI flags and the
/// sequence are not read; other keys are ignored.
struct BybitTrade: Sendable, Equatable {
  /// `s` (`BTCUSDT`), or the topic's symbol when the entry names none.
  var symbol: String
  /// `p`, exact.
  var price: Price
  /// `v`, the trade's size; nil when absent, null or empty.
  var size: Price?
  /// `T`, or the message's `ts` when the entry has none; epoch milliseconds.
  var time: Int64

  init(symbol: String, price: Price, size: Price? = nil, time: Int64) {
    self.symbol = symbol
    self.price = price
    self.size = size
    self.time = time
  }

  /// - Parameters:
  ///   - topicSymbol: the symbol of the message's topic (`publicTrade.BTCUSDT`), for an entry
  ///     without `s`.
  ///   - messageTime: the message's `ts`, for an entry without `T`.
  init(object: JSONObject, topicSymbol: String?, messageTime: Int64?) throws(ShapeError) {
    let symbol: String
    switch object["s"] {
    case .string(let text)? where !text.isEmpty: symbol = text
    case nil, .null?:
      guard let topicSymbol, !topicSymbol.isEmpty else { throw ShapeError(#"trade has no "s""#) }
      symbol = topicSymbol
    default: throw ShapeError(#""s" must be a non-empty string"#)
    }
    guard case .string(let priceText)? = object["p"] else {
      throw ShapeError(#""p" must be a decimal string"#)
    }
    guard let price = Price(priceText) else { throw ShapeError(#""p" is not a decimal number"#) }
    var size: Price? = nil
    switch object["v"] {
    case nil, .null?, .string("")?: break
    case .string(let text)?:
      guard let v = Price(text) else { throw ShapeError(#""v" is not a decimal number"#) }
      size = v
    default: throw ShapeError(#""v" must be a decimal string"#)
    }
    let time: Int64
    switch object["T"] {
    case nil, .null?:
      guard let messageTime else { throw ShapeError(#"trade has no "T" (epoch milliseconds)"#) }
      time = messageTime
    case .number(let text)?, .string(let text)?:
      guard let t = VenueJSON.milliseconds(text), t >= 0 else {
        throw ShapeError(#""T" must be epoch milliseconds"#)
      }
      time = t
    default: throw ShapeError(#""T" must be a number (epoch milliseconds)"#)
    }
    self.init(symbol: symbol, price: price, size: size, time: time)
  }

  var quote: Quote { Quote(symbol: symbol, price: price, volume: size, time: time) }
}
