import WebSocketWire

/// Blast batches for a connection that agreed on permessage-deflate: the same messages as
/// `BlastFrames.frames(count:)`, `BlastFrames.frames(count:venue:)` and `BlastFrames.Mixed`, compressed ahead of time by a
/// deflater that starts afresh for each batch (`PrecompressedFrames`), so that one batch, built
/// once per connection, is written again and again like the uncompressed one.
extension BlastFrames {
  /// `count` consecutive messages of `venue`'s blast (nil: the one-trade Finnhub blast of
  /// `frames(count:)`), compressed under `agreed` (each batch starting from an empty window), and
  /// how many of them went out compressed.
  static func compressed(
    count: Int, venue: VenueEmulation?, agreed: PerMessageDeflate
  ) -> (frames: [UInt8], compressed: Int) {
    let payloads = (0..<count).map { Array((venue?.blastMessage($0) ?? message($0)).utf8) }
    return PrecompressedFrames.server(payloads, opcode: venue?.blastOpcode ?? .text, agreed: agreed)
  }
}

extension BlastFrames.Mixed {
  /// The next `count` messages compressed under `agreed` (a fresh window for these `count`), the
  /// number of them sent compressed, and the number of trades in them.
  mutating func compressed(count: Int, agreed: PerMessageDeflate) -> (
    bytes: [UInt8], compressed: Int, trades: Int
  ) {
    var payloads: [[UInt8]] = []
    payloads.reserveCapacity(count)
    var trades = 0
    for _ in 0..<count {
      var payload: [UInt8] = []
      trades += message(into: &payload)
      payloads.append(payload)
    }
    let (frames, compressed) = PrecompressedFrames.server(payloads, opcode: .text, agreed: agreed)
    return (frames, compressed, trades)
  }
}
