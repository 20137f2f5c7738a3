/// Binance messages over many symbols for benchmarks (`feedserve --blast N --venue binance
/// --symbols K [--book]`): the i-th a trade or a book ticker of symbol `i % K`, as the
/// combined-stream endpoint wraps them. Every symbol's price moves at every message of it, so
/// that dedupe passes each on.
public enum BinanceBlast {
  /// The symbols: `SYM0USDT`, `SYM1USDT`, …
  public static func symbol(_ index: Int) -> String { "SYM\(index)USDT" }

  public static func message(_ i: Int, symbols: Int, book: Bool) -> String {
    let symbol = symbol(i % max(1, symbols))
    let stream = symbol.lowercased() + (book ? "@bookTicker" : "@trade")
    let cents = Int64(9_500_000 + (i * 7919) % 20_000)
    let price = SyntheticTrades.format(cents: cents, places: 8)
    let data: String
    if book {
      let ask = SyntheticTrades.format(cents: cents + 1 + Int64(i % 7), places: 8)
      let bidSize = SyntheticTrades.format(volume: 1 + i % 4999, places: 8)
      let askSize = SyntheticTrades.format(volume: 1 + (i * 31) % 4999, places: 8)
      data =
        #"{"u":\#(75_966_016_591 + i),"s":"\#(symbol)","b":"\#(price)","B":"\#(bidSize)","a":"\#(ask)","#
        + #""A":"\#(askSize)"}"#
    } else {
      let time = 1_789_404_776_250 + Int64(i)
      data =
        #"{"e":"trade","E":\#(time + 1),"s":"\#(symbol)","t":\#(5_206_081_234 + i),"p":"\#(price)","#
        + #""q":"0.00063000","T":\#(time),"m":true,"M":true}"#
    }
    return #"{"stream":"\#(stream)","data":\#(data)}"#
  }
}
