/// Server frames compressed ahead of time under a permessage-deflate agreement, to be written as
/// they are (`ServerFrameWriter.write`) as often as wanted: a load generator's batch.
///
/// The batch is compressed by a deflater of its own that starts empty, so nothing in it refers to
/// anything before it: written after any other compressed messages, and written again right
/// after itself, it inflates the same, since the client's inflater resolves each reference by
/// its distance back into the batch's own bytes, which its window holds (a deflater never refers
/// further back than the data it was given). That fresh start is all a repeated batch needs: a
/// full flush at its end would only matter to a deflater that carried on after it, and this one
/// does not. Within the batch the window is carried from message to message (context takeover)
/// unless the agreement forbids it. The writer's own compressor, whose window the batch's bytes
/// are not in, forgets it after bytes written as they are (`ServerFrameWriter.write`).
public enum PrecompressedFrames {
  /// `payloads` as consecutive final server frames (unmasked) of `opcode`, each compressed (RSV1)
  /// when that makes it smaller, with at most the agreed window; and how many were compressed.
  public static func server(
    _ payloads: [[UInt8]], opcode: Opcode, agreed: PerMessageDeflate
  ) -> (frames: [UInt8], compressed: Int) {
    let deflater = Deflater(windowBits: agreed.outboundWindowBits)
    var out: [UInt8] = []
    var count = 0
    for payload in payloads {
      let compressed = deflater.compress(payload)
      let frame: Frame
      if !payload.isEmpty, compressed.count < payload.count {
        frame = Frame(fin: true, rsv: 0b100, opcode: opcode, payload: compressed)
        count += 1
        if agreed.outboundNoContextTakeover { deflater.reset() }
      } else {
        // Sent as it is: the client never sees these compressed bytes, so the window must
        // forget them.
        frame = Frame(opcode: opcode, payload: payload)
        deflater.reset()
      }
      out += FrameEncoder.encodeServerFrame(frame)
    }
    return (out, count)
  }
}
