/// Compresses the data messages one side of a connection sends, under the agreed permessage-deflate
/// parameters: a message goes out compressed (RSV1 set) only when that makes it smaller, which RFC
/// 7692 §6 allows per message. The deflater is made on the first message (a connection that sends
/// nothing pays nothing). Not `Sendable` (its deflater is zlib's state): one writer owns it, under
/// its lock.
package struct MessageCompressor {
  let agreed: PerMessageDeflate
  /// The window and memory level used: at most the agreed window; small for a client, whose
  /// messages (subscriptions) are a few hundred bytes.
  let windowBits: Int
  let memoryLevel: Int
  private var deflater: Deflater?

  package init(agreed: PerMessageDeflate, windowBits: Int? = nil, memoryLevel: Int = 8) {
    self.agreed = agreed
    self.windowBits = min(agreed.outboundWindowBits, windowBits ?? 15)
    self.memoryLevel = memoryLevel
  }

  /// `frame` as it goes out: a final text or binary frame compressed when that helps; anything
  /// else as it is.
  package mutating func encode(_ frame: Frame) -> Frame {
    guard frame.fin, frame.rsv == 0, frame.opcode == .text || frame.opcode == .binary, !frame.payload.isEmpty
    else { return frame }
    let deflater = self.deflater ?? Deflater(windowBits: windowBits, memoryLevel: memoryLevel)
    self.deflater = deflater
    let compressed = deflater.compress(frame.payload)
    guard compressed.count < frame.payload.count else {
      // Sent as it is: the peer never sees these bytes, so the window must forget them.
      deflater.reset()
      return frame
    }
    if agreed.outboundNoContextTakeover { deflater.reset() }
    return Frame(fin: true, rsv: 0b100, opcode: frame.opcode, payload: compressed)
  }

  /// Forgets the window: the next message refers to nothing before it (the peer's window may
  /// hold bytes this compressor never saw).
  package func reset() {
    deflater?.reset()
  }
}
