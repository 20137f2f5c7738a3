import JSON

/// One Finnhub trade entry: `{"c":null,"p":66972.77,"s":"BINANCE:BTCUSDT","t":1721555886208,"v":0.01559}`.
/// Key order is free and unknown keys are ignored.
public struct PriceData: Sendable, Equatable {
  /// Last price, exact.
  public var p: Price
  /// Symbol.
  public var s: String
  /// Trade time, epoch milliseconds.
  public var t: Int64
  /// Volume (`0` = price update, not a trade); nil when absent or null.
  public var v: Price?
  /// Trade conditions; `null`, missing and `[]` all decode as nil.
  public var c: [String]?

  public init(p: Price, s: String, t: Int64, v: Price? = nil, c: [String]? = nil) {
    self.p = p
    self.s = s
    self.t = t
    self.v = v
    self.c = c
  }

  /// Decodes one entry of `data`.
  public init(json: JSONValue) throws(ShapeError) {
    guard case .object(let object) = json else {
      throw ShapeError("must be an object, not \(json.kindDescription)")
    }
    guard case .number(let pText)? = object["p"] else {
      throw ShapeError(#""p" must be a number"#)
    }
    guard let price = Price(pText) else { throw ShapeError(#""p" is out of range"#) }
    guard case .string(let symbol)? = object["s"], !symbol.isEmpty else {
      throw ShapeError(#""s" must be a non-empty string"#)
    }
    guard case .number(let tText)? = object["t"], let time = Int64(tText) else {
      throw ShapeError(#""t" must be an integer (epoch milliseconds)"#)
    }
    var volume: Price? = nil
    switch object["v"] {
    case nil, .null?: break
    case .number(let vText)?:
      guard let v = Price(vText) else { throw ShapeError(#""v" is out of range"#) }
      volume = v
    default: throw ShapeError(#""v" must be a number"#)
    }
    var conditions: [String]? = nil
    switch object["c"] {
    case nil, .null?: break
    case .array(let items)?:
      var list: [String] = []
      list.reserveCapacity(items.count)
      for item in items {
        guard case .string(let text) = item else { throw ShapeError(#""c" must be an array of strings"#) }
        list.append(text)
      }
      conditions = list.isEmpty ? nil : list
    default: throw ShapeError(#""c" must be an array of strings or null"#)
    }
    self.init(p: price, s: symbol, t: time, v: volume, c: conditions)
  }

  public var quote: Quote { Quote(symbol: s, price: p, volume: v, time: t) }
}
