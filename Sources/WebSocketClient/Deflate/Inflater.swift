import CZlibShim

/// A raw DEFLATE decompressor (zlib) for permessage-deflate messages, with a bound on its output.
///
/// The z_stream lives at a fixed address (zlib's state points back to it), so this is a class.
/// One reader thread uses it at a time; it is `@unchecked Sendable` only to travel inside the
/// connection's `MessageAssembler`.
final class Inflater: @unchecked Sendable {
  private let stream: UnsafeMutablePointer<z_stream>
  private let windowBits: Int
  /// Output is produced here, a piece at a time, and appended to the message only once it is
  /// known to fit the limit.
  private let piece: UnsafeMutableRawBufferPointer
  static let pieceSize = 16 << 10

  /// The 4 bytes a sender removes from the end of each message (RFC 7692 §7.2.1): an empty
  /// stored block, appended again before the message is inflated to its end.
  static let tail: [UInt8] = [0x00, 0x00, 0xFF, 0xFF]

  /// A window of 2^windowBits bytes (9–15).
  init(windowBits: Int) {
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
    guard let base = input.baseAddress, input.count > 0 else { return 0 }
    let start = output.count
    stream.pointee.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
    stream.pointee.avail_in = uInt(input.count)
    defer {
      stream.pointee.next_in = nil
      stream.pointee.avail_in = 0
    }
    while true {
      stream.pointee.next_out = piece.baseAddress!.assumingMemoryBound(to: Bytef.self)
      stream.pointee.avail_out = uInt(Self.pieceSize)
      let status = zInflate(stream, Z_SYNC_FLUSH)
      let produced = Self.pieceSize - Int(stream.pointee.avail_out)
      if produced > 0 {
        guard output.count + produced <= limit else {
          throw .messageTooLarge(UInt64(output.count + produced))
        }
        output.append(contentsOf: UnsafeRawBufferPointer(rebasing: piece[0..<produced]))
      }
      switch status {
      case Z_OK:
        // More output may be pending when the piece filled up.
        if stream.pointee.avail_in == 0 && stream.pointee.avail_out > 0 { return output.count - start }
      case Z_BUF_ERROR:
        // No progress possible: all input is used and nothing more comes out.
        return output.count - start
      case Z_STREAM_END:
        // A block with BFINAL set ended the DEFLATE stream (RFC 7692 §7.2.3.4): what follows
        // is a new stream that may still refer to the window, so the window is carried over.
        try restartKeepingWindow()
        if stream.pointee.avail_in == 0 { return output.count - start }
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
