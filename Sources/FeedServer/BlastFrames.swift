import WebSocketClient

/// Pre-framed one-trade Finnhub messages for load generation (~100 bytes each, as a live BTC
/// trade): distinct prices and times, so dedupe has real work in the default mode.
enum BlastFrames {
  static let messagesPerBatch = 1000
  static let symbol = "BINANCE:BTCUSDT"

  /// One batch of `messagesPerBatch` server frames, built once.
  static let batch: [UInt8] = frames(count: messagesPerBatch)

  /// `count` consecutive frames.
  static func frames(count: Int) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(count * 110)
    for i in 0..<count {
      out += FrameEncoder.encodeServerFrame(Frame(opcode: .text, payload: Array(message(i).utf8)))
    }
    return out
  }

  /// The i-th message: a price walking in cents around 95,000, a trade time 1 ms apart.
  static func message(_ i: Int) -> String {
    let cents = Int64(9_500_000 + (i * 7919) % 20_000)
    let price = SyntheticTrades.format(cents: cents)
    let time = 1_768_655_932_976 + Int64(i)
    return
      #"{"data":[{"c":null,"p":\#(price),"s":"\#(symbol)","t":\#(time),"v":0.00063}],"type":"trade"}"#
  }
}
