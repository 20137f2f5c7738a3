import JSON

/// What `serve` sends its clients, in Finnhub's shapes (docs/protocols.md): trades
/// `{"data":[{"p":…,"s":"X","t":…,"v":…,"c":null}],"type":"trade"}` with each price's decimal
/// text exactly as the venue sent it, `{"type":"ping"}`, and `{"msg":"…","type":"error"}`. Pure.
public enum FinnhubWire {
  /// One trade object (`{"p":…,"s":…,"t":…,"v":…,"c":null}`); a quote without a volume gets
  /// Finnhub's `0` (a price update).
  public static func appendTrade(_ quote: Quote, to out: inout [UInt8]) {
    out += Self.priceKey
    out += quote.price.text.utf8
    out += Self.symbolKey
    JSONEscaping.appendQuoted(quote.symbol, to: &out)
    out += Self.timeKey
    out += String(quote.time).utf8
    out += Self.volumeKey
    if let volume = quote.volume { out += volume.text.utf8 } else { out.append(UInt8(ascii: "0")) }
    out += Self.tradeEnd
  }

  /// A trade message from trade objects made by `appendTrade` (at least one).
  public static func tradeMessage(_ trades: [ArraySlice<UInt8>]) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(trades.reduce(32) { $0 + $1.count + 1 })
    out += Self.messageStart
    for (index, trade) in trades.enumerated() {
      if index > 0 { out.append(UInt8(ascii: ",")) }
      out += trade
    }
    out += Self.messageEnd
    return out
  }

  /// A trade message for `quotes`.
  public static func tradeMessage(_ quotes: [Quote]) -> String {
    var trades: [ArraySlice<UInt8>] = []
    for quote in quotes {
      var one: [UInt8] = []
      appendTrade(quote, to: &one)
      trades.append(one[...])
    }
    return String(decoding: tradeMessage(trades), as: UTF8.self)
  }

  /// Finnhub's keepalive.
  public static let ping = #"{"type":"ping"}"#

  /// Finnhub's error shape.
  public static func error(_ message: String) -> String {
    var out: [UInt8] = Array(#"{"msg":"#.utf8)
    JSONEscaping.appendQuoted(message, to: &out)
    out += Array(#","type":"error"}"#.utf8)
    return String(decoding: out, as: UTF8.self)
  }

  private static let priceKey = Array(#"{"p":"#.utf8)
  private static let symbolKey = Array(#","s":"#.utf8)
  private static let timeKey = Array(#","t":"#.utf8)
  private static let volumeKey = Array(#","v":"#.utf8)
  private static let tradeEnd = Array(#","c":null}"#.utf8)
  private static let messageStart = Array(#"{"data":["#.utf8)
  private static let messageEnd = Array(#"],"type":"trade"}"#.utf8)
}
