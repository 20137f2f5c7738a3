import JSON

/// One entry of an OKX `tickers` push:
/// `{"instType":"SPOT","instId":"BTC-USDT","last":"9999.99","lastSz":"0.1",…,"ts":"1597026383085"}`.
/// Prices and sizes are decimal strings, kept exactly; `ts` is epoch milliseconds as a string.
/// Other fields (best bid and ask, the day's open, high, low and volumes) are not read.
struct OKXTicker: Sendable, Equatable {
  /// `instId` (`BTC-USDT`).
  var instrument: String
  /// `last`, the last trade's price, exact.
  var last: Price
  /// `lastSz`, the last trade's size; nil when absent, null or empty.
  var lastSize: Price?
  /// `ts`, epoch milliseconds.
  var time: Int64

  /// Why an entry cannot become a quote.
  enum Problem: Error, Equatable {
    /// Malformed: a field missing, of the wrong type or spelling.
    case shape(ShapeError)
    /// `last` is empty: the instrument has not traded (nothing to print).
    case untraded
  }

  init(instrument: String, last: Price, lastSize: Price? = nil, time: Int64) {
    self.instrument = instrument
    self.last = last
    self.lastSize = lastSize
    self.time = time
  }

  /// - Parameter instrument: the push's `arg.instId`, used when the entry names none.
  init(object: JSONObject, instrument channelInstrument: String? = nil) throws(Problem) {
    let instrument: String
    switch object["instId"] {
    case .string(let text)? where !text.isEmpty: instrument = text
    case nil:
      guard let channelInstrument, !channelInstrument.isEmpty else {
        throw .shape(ShapeError(#"ticker has no "instId""#))
      }
      instrument = channelInstrument
    default: throw .shape(ShapeError(#""instId" must be a non-empty string"#))
    }
    guard case .string(let lastText)? = object["last"] else {
      throw .shape(ShapeError(#""last" must be a decimal string"#))
    }
    guard !lastText.isEmpty else { throw .untraded }
    guard let last = Price(lastText) else { throw .shape(ShapeError(#""last" is not a decimal number"#)) }
    var size: Price? = nil
    switch object["lastSz"] {
    case nil, .null?, .string("")?: break
    case .string(let text)?:
      guard let s = Price(text) else { throw .shape(ShapeError(#""lastSz" is not a decimal number"#)) }
      size = s
    default: throw .shape(ShapeError(#""lastSz" must be a decimal string"#))
    }
    let time: Int64
    switch object["ts"] {
    case .string(let text)?, .number(let text)?:
      guard let t = Int64(text), t >= 0 else {
        throw .shape(ShapeError(#""ts" must be epoch milliseconds"#))
      }
      time = t
    case nil, .null?: time = 0  // the runtime stamps the time it was received
    default: throw .shape(ShapeError(#""ts" must be epoch milliseconds, a string"#))
    }
    self.init(instrument: instrument, last: last, lastSize: size, time: time)
  }

  var quote: Quote { Quote(symbol: instrument, price: last, volume: lastSize, time: time) }
}
