import JSON

/// One entry of an OKX `bbo-tbt` push (the best bid and ask, tick by tick):
/// `{"asks":[["97250.1","0.5","0","2"]],"bids":[["97250","1.2","0","3"]],"ts":"1733450000000","seqId":123}`.
/// A level is `[price, size, "0" (deprecated), orders]`, decimal strings kept exactly; only the
/// first level of each side is read (the channel sends one). `ts` is epoch milliseconds as a
/// string. The instrument is the push's `arg.instId`: the entry does not name it.
struct OKXBookTicker: Sendable, Equatable {
  var instrument: String
  var bid: Price
  var bidSize: Price
  var ask: Price
  var askSize: Price
  var time: Int64

  typealias Problem = BookEntryProblem

  init(object: JSONObject, instrument: String) throws(Problem) {
    guard case .string(let text)? = object["ts"], let time = Int64(text) else {
      throw .shape(ShapeError(#""ts" must be a string of epoch milliseconds"#))
    }
    let bid = try Self.top(object, "bids")
    let ask = try Self.top(object, "asks")
    guard let bid, let ask else { throw .emptySide }
    self.instrument = instrument
    (self.bid, bidSize) = bid
    (self.ask, askSize) = ask
    self.time = time
  }

  /// The first level of side `key`: its price and size; nil when the side is empty.
  private static func top(_ object: JSONObject, _ key: String) throws(Problem) -> (Price, Price)? {
    guard case .array(let levels)? = object[key] else {
      throw .shape(ShapeError(#""\#(key)" must be an array of levels"#))
    }
    guard let first = levels.first else { return nil }
    guard case .array(let level) = first, level.count >= 2, case .string(let priceText) = level[0],
      case .string(let sizeText) = level[1]
    else { throw .shape(ShapeError(#"a level of "\#(key)" must be [price, size, …] in strings"#)) }
    guard let price = Price(priceText), let size = Price(sizeText) else {
      throw .shape(ShapeError(#"a level of "\#(key)" is not decimal numbers"#))
    }
    return (price, size)
  }

  var quote: Quote {
    Quote(symbol: instrument, bid: bid, bidSize: bidSize, ask: ask, askSize: askSize, time: time)
  }
}
