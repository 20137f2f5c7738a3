/// Machine-readable output, one JSON object per line (JSON Lines), keys always in this order:
///
///     {"symbol":"BINANCE:BTCUSDT","price":95372.09,"time":"2026-01-17T13:18:52.976Z","t":1768655932976,"volume":0.00063}
///
/// `price` and `volume` are JSON numbers written from the exact decimal text the server sent (no
/// binary rounding); `volume` is `null` when the provider sent none. `time` is the trade time as
/// ISO 8601 UTC with milliseconds, `t` the same instant in epoch milliseconds.
public struct JSONLinesFormatter: QuoteFormatter {
  public init() {}

  public mutating func append(_ quote: Quote, to buffer: inout [UInt8]) {
    buffer.append(contentsOf: #"{"symbol":"#.utf8)
    JSONEscaping.appendQuoted(quote.symbol, to: &buffer)
    buffer.append(contentsOf: #","price":"#.utf8)
    buffer.append(contentsOf: quote.price.text.utf8)
    buffer.append(contentsOf: #","time":""#.utf8)
    UTCTimestamp.append(milliseconds: quote.time, to: &buffer)
    buffer.append(contentsOf: #"","t":"#.utf8)
    buffer.append(contentsOf: String(quote.time).utf8)
    buffer.append(contentsOf: #","volume":"#.utf8)
    if let volume = quote.volume {
      buffer.append(contentsOf: volume.text.utf8)
    } else {
      buffer.append(contentsOf: "null".utf8)
    }
    buffer.append(contentsOf: "}\n".utf8)
  }
}
