import CZlibShim

/// A raw DEFLATE decompressor (zlib) for permessage-deflate messages, with a bound on its output.
///
/// The z_stream lives at a fixed address (zlib's state points back to it), so this is a class.
/// Not `Sendable`: it lives in one reader's `MessageAssembler`.
final class Inflater {
  private let stream: UnsafeMutablePointer<z_stream>
  private let windowBits: Int
  /// Output is produced here, a piece at a time, and appended to the message only once it is
  /// known to fit the limit.
  private let piece: UnsafeMutableRawBufferPointer
  static let pieceSize = 16 << 10

  /// The 4 bytes a sender removes from the end of each message (RFC 7692 §7.2.1): an empty
  /// stored block, appended again before the message is inflated to its end.
  static let tail: [UInt8] = [0x00, 0x00, 0xFF, 0xFF]

  /// The peer compresses each message afresh (no context takeover): `reset()` after each.
  let resetsAfterEachMessage: Bool

  /// A window of 2^windowBits bytes (9–15).
  init(windowBits: Int, resetsAfterEachMessage: Bool = false) {
    self.resetsAfterEachMessage = resetsAfterEachMessage
    self.windowBits = min(15, max(9, windowBits))
    stream = .allocate(capacity: 1)
    stream.initialize(to: z_stream())
    piece = .allocate(byteCount: Self.pieceSize, alignment: 1)
    // Only fails for want of memory (the arguments are valid), like any allocation.
    let status = shim_inflate_init_raw(stream, Int32(self.windowBits))
    precondition(status == Z_OK, "inflateInit2 failed: \(status)")
  }

  deinit {
    inflateEnd(stream)
    stream.deinitialize(count: 1)
    stream.deallocate()
    piece.deallocate()
  }

  /// Inflates `input`, appending the output to `output`, which may not grow past `limit` bytes:
  /// at the first byte beyond it the message is refused (`messageTooLarge`), before that output
  /// is kept, so whatever a small input expands to, at most `limit` bytes are held.
  /// Returns how many bytes were appended.
  @discardableResult
  func inflate(_ input: UnsafeRawBufferPointer, into output: inout [UInt8], limit: Int) throws(FrameError)
    -> Int
  {
    guard input.count > 0 else { return 0 }
    let start = output.count
    setInput(input)
    defer { clearInput() }
    try drain(into: &output, limit: limit)
    return output.count - start
  }

  /// A whole message in one final frame: `payload` and the tail inflated in one pass, and the
  /// message made straight from the output piece when it fits there (nearly always), without an
  /// array in between; larger output is collected in one, under the same limit.
  func wholeMessage(_ payload: [UInt8], opcode: Opcode, limit: Int) throws(FrameError) -> WebSocketMessage {
    let result = payload.withUnsafeBytes { raw in
      Result { () throws(FrameError) -> WebSocketMessage in
        try wholeMessage(raw, opcode: opcode, limit: limit)
      }
    }
    return try result.get()
  }

  /// `wholeMessage` for a payload where it lies (the parser's buffer).
  func wholeMessage(_ payload: UnsafeRawBufferPointer, opcode: Opcode, limit: Int) throws(FrameError)
    -> WebSocketMessage
  {
    let result: Result<WebSocketMessage, FrameError> = withUnsafeTemporaryAllocation(
      byteCount: payload.count + Self.tail.count, alignment: 1
    ) { input in
      input.copyMemory(from: payload)
      Self.tail.withUnsafeBytes {
        UnsafeMutableRawBufferPointer(rebasing: input[payload.count...]).copyMemory(from: $0)
      }
      return Result { () throws(FrameError) -> WebSocketMessage in
        try inflateWhole(UnsafeRawBufferPointer(input), opcode: opcode, limit: limit)
      }
    }
    return try result.get()
  }

  private func inflateWhole(_ input: UnsafeRawBufferPointer, opcode: Opcode, limit: Int) throws(FrameError)
    -> WebSocketMessage
  {
    setInput(input)
    defer { clearInput() }
    let (status, produced) = step()
    guard produced <= limit else { throw .messageTooLarge(UInt64(produced)) }
    if status == Z_OK || status == Z_BUF_ERROR, stream.pointee.avail_in == 0, stream.pointee.avail_out > 0 {
      return try MessageAssembler.message(opcode, UnsafeRawBufferPointer(rebasing: piece[0..<produced]))
    }
    // More than one piece, or the end of a DEFLATE stream: the general way.
    var output = Array(UnsafeRawBufferPointer(rebasing: piece[0..<produced]))
    switch status {
    case Z_OK, Z_BUF_ERROR: break
    case Z_STREAM_END: try restartKeepingWindow()
    default: throw .invalidCompressedData
    }
    try drain(into: &output, limit: limit)
    return try MessageAssembler.message(opcode, output)
  }

  private func setInput(_ input: UnsafeRawBufferPointer) {
    stream.pointee.next_in = input.baseAddress.map {
      UnsafeMutablePointer(mutating: $0.assumingMemoryBound(to: Bytef.self))
    }
    stream.pointee.avail_in = uInt(input.count)
  }

  private func clearInput() {
    stream.pointee.next_in = nil
    stream.pointee.avail_in = 0
  }

  /// One call to zlib into the output piece: its status and how many bytes it produced.
  private func step() -> (status: Int32, produced: Int) {
    stream.pointee.next_out = piece.baseAddress!.assumingMemoryBound(to: Bytef.self)
    stream.pointee.avail_out = uInt(Self.pieceSize)
    let status = zInflate(stream, Z_SYNC_FLUSH)
    return (status, Self.pieceSize - Int(stream.pointee.avail_out))
  }

  /// Inflates the stream's pending input (and output) onto `output`, under `limit`.
  private func drain(into output: inout [UInt8], limit: Int) throws(FrameError) {
    while true {
      let (status, produced) = step()
      if produced > 0 {
        guard output.count + produced <= limit else {
          throw .messageTooLarge(UInt64(output.count + produced))
        }
        output.append(contentsOf: UnsafeRawBufferPointer(rebasing: piece[0..<produced]))
      }
      switch status {
      case Z_OK:
        // More output may be pending when the piece filled up.
        if stream.pointee.avail_in == 0 && stream.pointee.avail_out > 0 { return }
      case Z_BUF_ERROR:
        // No progress possible: all input is used and nothing more comes out.
        return
      case Z_STREAM_END:
        // A block with BFINAL set ended the DEFLATE stream (RFC 7692 §7.2.3.4): what follows
        // is a new stream that may still refer to the window, so the window is carried over.
        try restartKeepingWindow()
        if stream.pointee.avail_in == 0 { return }
      default:
        throw .invalidCompressedData
      }
    }
  }

  /// `inflate` over an array.
  @discardableResult
  func inflate(_ input: [UInt8], into output: inout [UInt8], limit: Int) throws(FrameError) -> Int {
    let result = input.withUnsafeBytes { raw in
      Result { () throws(FrameError) -> Int in try inflate(raw, into: &output, limit: limit) }
    }
    return try result.get()
  }

  /// Ends a message: inflates the removed tail (which flushes what the last frame left pending).
  @discardableResult
  func finishMessage(into output: inout [UInt8], limit: Int) throws(FrameError) -> Int {
    try inflate(Self.tail, into: &output, limit: limit)
  }

  /// Forgets the window: the next message starts with no context (no context takeover).
  func reset() {
    inflateReset(stream)
  }

  /// After the end of a DEFLATE stream: a fresh stream whose window is the old one's.
  private func restartKeepingWindow() throws(FrameError) {
    let size = 1 << windowBits
    let window = UnsafeMutablePointer<Bytef>.allocate(capacity: size)
    defer { window.deallocate() }
    var length: uInt = 0
    // Saved and restored around the reset, which clears them.
    let (nextIn, availIn) = (stream.pointee.next_in, stream.pointee.avail_in)
    guard inflateGetDictionary(stream, window, &length) == Z_OK, inflateReset(stream) == Z_OK else {
      throw .invalidCompressedData
    }
    if length > 0 && inflateSetDictionary(stream, window, length) != Z_OK { throw .invalidCompressedData }
    stream.pointee.next_in = nextIn
    stream.pointee.avail_in = availIn
  }
}

/// zlib's `inflate`, named apart from `Inflater.inflate`.
@inline(__always)
private func zInflate(_ stream: UnsafeMutablePointer<z_stream>, _ flush: Int32) -> Int32 {
  inflate(stream, flush)
}
