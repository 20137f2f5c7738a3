import TickerSupport
import WebSocketClient

/// Pre-framed one-trade messages in each venue's wire format, for load generation
/// (`ConnectionPlan.Ending.venueBlast`, `feedserve --blast N --venue …`): distinct prices and
/// times, as a live feed of one market sends them.
extension BlastFrames {
  static let binanceBatch = frames(count: messagesPerBatch, venue: .binance)
  static let upbitBatch = frames(count: messagesPerBatch, venue: .upbit)
  static let coinbaseBatch = frames(count: messagesPerBatch, venue: .coinbase)

  /// One batch of `messagesPerBatch` frames in `venue`'s format, built once.
  static func batch(for venue: Venue) -> [UInt8] {
    switch venue {
    case .finnhub: batch
    case .binance: binanceBatch
    case .upbit: upbitBatch
    case .coinbase: coinbaseBatch
    }
  }

  /// `count` consecutive frames in `venue`'s format: Binance and Coinbase text frames, Upbit
  /// binary ones.
  static func frames(count: Int, venue: Venue) -> [UInt8] {
    if venue == .finnhub { return frames(count: count) }
    var out: [UInt8] = []
    out.reserveCapacity(count * (venue == .upbit ? 720 : 420))
    let opcode: Opcode = venue == .upbit ? .binary : .text
    for i in 0..<count {
      out += FrameEncoder.encodeServerFrame(
        Frame(opcode: opcode, payload: Array(message(i, venue: venue).utf8)))
    }
    return out
  }

  /// The i-th message of `venue`'s blast.
  static func message(_ i: Int, venue: Venue) -> String {
    switch venue {
    case .finnhub: message(i)
    case .binance: binanceMessage(i)
    case .upbit: upbitMessage(i)
    case .coinbase: coinbaseMessage(i)
    }
  }

  /// A combined-stream BTCUSDT trade: price and quantity as 8-place decimal strings.
  static func binanceMessage(_ i: Int) -> String {
    let cents = Int64(9_500_000 + (i * 7919) % 20_000)
    let time = 1_789_404_776_250 + Int64(i)
    let price = SyntheticTrades.format(cents: cents, places: 8)
    return
      #"{"stream":"btcusdt@trade","data":{"e":"trade","E":\#(time + 1),"s":"BTCUSDT","t":\#(5_206_081_234 + i),"#
      + #""p":"\#(price)","q":"0.00063000","T":\#(time),"m":true,"M":true}}"#
  }

  /// A KRW-BTC SIMPLE ticker as Upbit sends it (every field), its price every other message in
  /// Java's exponent form (`1.03167E8`).
  static func upbitMessage(_ i: Int) -> String {
    let won = Int64(103_160_000 + ((i * 7919) % 20_000) * 1000)
    let price = i % 2 == 0 ? "\(won).0" : UpbitTicker.javaDouble(won)
    let change = won - 102_103_000
    let time = 1_771_247_814_642 + Int64(i)
    return
      #"{"ty":"ticker","cd":"KRW-BTC","op":102158000.0,"hp":103708000.0,"lp":100795000.0,"tp":\#(price),"#
      + #""pcp":102103000.0,"atp":86970405555.45227,"c":"RISE","cp":\#(change).0,"scp":\#(change).0,"#
      + #""cr":0.0103522913,"scr":0.0103522913,"ab":"BID","tv":0.0005,"atv":851.82334868,"tdt":"20260216","#
      + #""ttm":"131654","ttms":\#(time),"aav":412.37969677,"abv":439.44365191,"h52wp":179869000.0,"#
      + #""h52wdt":"2025-10-09","l52wp":89000000.0,"l52wdt":"2026-02-06","ms":"ACTIVE","its":false,"dd":null,"#
      + #""mw":"NONE","tms":\#(time + 40),"atp24h":157810722200.7429,"atv24h":1547.96784012,"st":"REALTIME"}"#
  }

  /// A BTC-USD ticker as Coinbase sends it: decimal strings, an RFC 3339 time in microseconds.
  static func coinbaseMessage(_ i: Int) -> String {
    let cents = Int64(8_069_153 + (i * 7919) % 20_000)
    let price = SyntheticTrades.format(cents: cents, places: 2)
    let bid = SyntheticTrades.format(cents: cents - 1, places: 2)
    let time = RFC3339.format(microseconds: 1_787_628_957_198_335 + Int64(i) * 1000)
    return #"{"type":"ticker","sequence":\#(134_905_860_112 + i),"product_id":"BTC-USD","price":"\#(price)","#
      + #""open_24h":"79850.00","volume_24h":"8123.44120031","low_24h":"79402.11","high_24h":"81030.00","#
      + #""volume_30d":"301122.77310000","best_bid":"\#(bid)","best_bid_size":"0.35000000","best_ask":"\#(price)","#
      + #""best_ask_size":"0.01200000","side":"buy","time":"\#(time)","trade_id":\#(1_081_862_675 + i),"#
      + #""last_size":"0.00063000"}"#
  }
}
