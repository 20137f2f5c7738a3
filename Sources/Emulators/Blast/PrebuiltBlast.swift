import WebSocketWire

/// A mixed blast's messages framed ahead of time, a hundred to a chunk (as `.mixedBlast` writes
/// them): built before the server says it is listening, so that a benchmark's consumer, not the
/// server making JSON, sets the pace. (Built on the fly, 500,000 trades took the server about
/// 0.27 s, longer than websocat took to print them.)
public final class PrebuiltBlast: Sendable, Equatable {
  /// The frames of each hundred messages (the last chunk may hold fewer).
  let chunks: [[UInt8]]
  /// How many messages.
  public let count: Int
  /// How many trades they carry.
  public let trades: Int

  public init(mix: BlastMix, count: Int) {
    var generator = BlastFrames.Mixed(mix)
    var chunks: [[UInt8]] = []
    var trades = 0
    var left = count
    while left > 0 {
      let n = min(left, Self.chunkMessages)
      let made = generator.frames(count: n)
      chunks.append(made.bytes)
      trades += made.trades
      left -= n
    }
    self.chunks = chunks
    self.count = count
    self.trades = trades
  }

  /// `count` one-quote text messages, `message(i)` the i-th, framed ahead of time (`feedserve
  /// --blast N --venue binance --symbols K [--book]`).
  public init(count: Int, message: (Int) -> String) {
    var chunks: [[UInt8]] = []
    var start = 0
    while start < count {
      var chunk: [UInt8] = []
      for i in start..<min(count, start + Self.chunkMessages) {
        chunk += FrameEncoder.encodeServerFrame(Frame(opcode: .text, payload: Array(message(i).utf8)))
      }
      chunks.append(chunk)
      start += Self.chunkMessages
    }
    self.chunks = chunks
    self.count = count
    trades = count
  }

  static let chunkMessages = 100

  public static func == (a: PrebuiltBlast, b: PrebuiltBlast) -> Bool { a === b }
}
