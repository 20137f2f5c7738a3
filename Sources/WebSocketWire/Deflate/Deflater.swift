import CZlibShim

/// A raw DEFLATE compressor (zlib) for permessage-deflate messages: each message is compressed
/// and flushed to a byte boundary (`Z_SYNC_FLUSH`), and the flush's empty stored block
/// (0x00 0x00 0xff 0xff) is removed, as RFC 7692 §7.2.1 says.
///
/// The z_stream lives at a fixed address (zlib's state points back to it), so this is a class.
/// Not `Sendable`: it lives in one writer's state (a `MessageCompressor` under the connection's
/// writer lock) or in one function's locals.
final class Deflater {
  private let stream: UnsafeMutablePointer<z_stream>

  /// - Parameters:
  ///   - windowBits: 9–15; never more than the peer allows.
  ///   - level: zlib's 0–9 (6 is its default).
  ///   - memoryLevel: zlib's 1–9: the hash table's size (memory is about 2^(windowBits+2) +
  ///     2^(memoryLevel+9) bytes).
  init(windowBits: Int, level: Int = 6, memoryLevel: Int = 8) {
    stream = .allocate(capacity: 1)
    stream.initialize(to: z_stream())
    let status = shim_deflate_init_raw(
      stream, Int32(level), Int32(min(15, max(9, windowBits))), Int32(min(9, max(1, memoryLevel))))
    // Only fails for want of memory (the arguments are valid), like any allocation.
    precondition(status == Z_OK, "deflateInit2 failed: \(status)")
  }

  deinit {
    deflateEnd(stream)
    stream.deinitialize(count: 1)
    stream.deallocate()
  }

  /// `payload` compressed as one message, with the trailing 0x00 0x00 0xff 0xff removed. With
  /// `fullFlush` the message ends with a full flush instead of a sync flush: nothing after it
  /// refers to what came before (the window still holds it, so the peer needs no reset).
  func compress(_ payload: UnsafeRawBufferPointer, fullFlush: Bool = false) -> [UInt8] {
    var output: [UInt8] = []
    // Enough for incompressible data and the flush markers in one call, nearly always.
    var capacity = payload.count + payload.count / 1000 + 64
    let input = payload.baseAddress.map {
      UnsafeMutablePointer(mutating: $0.assumingMemoryBound(to: Bytef.self))
    }
    stream.pointee.next_in = input
    stream.pointee.avail_in = uInt(payload.count)
    while true {
      let start = output.count
      output.append(contentsOf: repeatElement(0, count: capacity))
      let status = output.withUnsafeMutableBufferPointer { buffer in
        stream.pointee.next_out = buffer.baseAddress! + start
        stream.pointee.avail_out = uInt(capacity)
        return deflate(stream, fullFlush ? Z_FULL_FLUSH : Z_SYNC_FLUSH)
      }
      let unused = Int(stream.pointee.avail_out)
      output.removeLast(unused)
      // Z_BUF_ERROR: no progress was possible, i.e. everything is out.
      precondition(status == Z_OK || status == Z_BUF_ERROR, "deflate failed: \(status)")
      // The flush is complete once zlib had room left over.
      if unused > 0 && stream.pointee.avail_in == 0 { break }
      capacity = max(capacity, 1024)
    }
    stream.pointee.next_in = nil
    stream.pointee.next_out = nil
    // A sync or full flush always ends with an empty stored block: 00 00 ff ff.
    precondition(output.count >= 4 && Array(output.suffix(4)) == Inflater.tail, "flush marker missing")
    output.removeLast(4)
    return output
  }

  func compress(_ payload: [UInt8], fullFlush: Bool = false) -> [UInt8] {
    payload.withUnsafeBytes { compress($0, fullFlush: fullFlush) }
  }

  /// Forgets the window: the next message refers to nothing before it.
  func reset() {
    deflateReset(stream)
  }
}
