import JSON

/// Finnhub's messages as the venue writes them (docs/protocols.md §1), the one encoder of the
/// wire that `FinnhubProvider` decodes: what `serve` sends its clients, what the emulator and
/// the load generators send the ticker. Trades
/// `{"data":[{"c":null,"p":…,"s":"X","t":…,"v":…}],"type":"trade"}` (the venue's key order,
/// which the decoder's fast path reads in one straight line) with each price's decimal text as
/// given, `{"type":"ping"}`, and `{"msg":"…","type":"error"}`. Pure.
public enum FinnhubWire {
  /// One trade object: `price` and `volume` are decimal text written as they are, `symbol` is
  /// escaped.
  public static func appendTrade(
    price: some Sequence<UInt8>, symbol: String, time: Int64, volume: some Sequence<UInt8>,
    to out: inout [UInt8]
  ) {
    out += Self.tradeStart
    out += price
    out += Self.symbolKey
    JSONEscaping.appendQuoted(symbol, to: &out)
    out += Self.timeKey
    out += String(time).utf8
    out += Self.volumeKey
    out += volume
    out.append(UInt8(ascii: "}"))
  }

  /// One trade object for `quote`; a quote without a volume gets Finnhub's `0` (a price update).
  public static func appendTrade(_ quote: Quote, to out: inout [UInt8]) {
    appendTrade(
      price: quote.price.text.utf8, symbol: quote.symbol, time: quote.time,
      volume: (quote.volume?.text ?? "0").utf8, to: &out)
  }

  /// A trade message around the trade objects `appendTrades` appends, separated by
  /// `appendSeparator` (it is handed the buffer between two of them).
  public static func appendTradeMessage(to out: inout [UInt8], _ appendTrades: (inout [UInt8]) -> Void) {
    out += Self.messageStart
    appendTrades(&out)
    out += Self.messageEnd
  }

  /// Between two trade objects.
  public static let separator = UInt8(ascii: ",")

  /// A trade message from trade objects made by `appendTrade` (at least one).
  public static func tradeMessage(_ trades: [ArraySlice<UInt8>]) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(trades.reduce(32) { $0 + $1.count + 1 })
    appendTradeMessage(to: &out) { out in
      for (index, trade) in trades.enumerated() {
        if index > 0 { out.append(separator) }
        out += trade
      }
    }
    return out
  }

  /// A trade message for `quotes`.
  public static func tradeMessage(_ quotes: [Quote]) -> String {
    var out: [UInt8] = []
    appendTradeMessage(to: &out) { out in
      for (index, quote) in quotes.enumerated() {
        if index > 0 { out.append(separator) }
        appendTrade(quote, to: &out)
      }
    }
    return String(decoding: out, as: UTF8.self)
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

  private static let tradeStart = Array(#"{"c":null,"p":"#.utf8)
  private static let symbolKey = Array(#","s":"#.utf8)
  private static let timeKey = Array(#","t":"#.utf8)
  private static let volumeKey = Array(#","v":"#.utf8)
  private static let messageStart = Array(#"{"data":["#.utf8)
  private static let messageEnd = Array(#"],"type":"trade"}"#.utf8)
}
