/// A connected, bidirectional byte stream (plain TCP or TLS over TCP).
///
/// Reads and writes may be called concurrently from different threads (one reader, writers
/// serialised by the caller or the stream). `shutdown()` may be called from any thread and wakes a
/// blocked `read`, which then throws `TransportError.cancelled`.
public protocol ByteStream: AnyObject, Sendable {
  /// Reads up to `buffer.count` bytes, blocking until at least one byte is available.
  /// Returns 0 at end of stream (the peer closed cleanly). Throws `.timeout` when `timeout`
  /// (seconds; nil = wait forever) passes with no byte.
  func read(into buffer: UnsafeMutableRawBufferPointer, timeout: Double?) throws(TransportError) -> Int
  /// Writes all bytes, blocking as needed. Throws `.timeout` if no progress for `timeout` seconds.
  func write(_ bytes: UnsafeRawBufferPointer, timeout: Double?) throws(TransportError)
  /// Wakes any blocked read/write and shuts the connection down. Idempotent.
  func shutdown()
  /// Releases the descriptor. Idempotent; implies `shutdown()`.
  func close()
}

extension ByteStream {
  /// Writes an array. (A typed-throws closure passed to `withUnsafeBytes` crashes the 6.3.1
  /// compiler, so the error is carried out of the closure by hand.)
  public func write(_ bytes: [UInt8], timeout: Double?) throws(TransportError) {
    var failure: TransportError?
    bytes.withUnsafeBytes { raw in
      do throws(TransportError) { try write(raw, timeout: timeout) } catch { failure = error }
    }
    if let failure { throw failure }
  }
}
