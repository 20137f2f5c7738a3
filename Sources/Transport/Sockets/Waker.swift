import TickerSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A pipe a thread waiting in `poll` also waits on, so that another thread can wake it: the
/// event loop's, and every `PollingSocket`'s (woken by `shutdown()`).
struct Waker: Sendable {
  private let readEnd: Int32
  private let writeEnd: Int32

  init() throws(TransportError) {
    (readEnd, writeEnd) = try POSIX.makePipe()
  }

  var descriptor: Int32 { readEnd }

  /// One byte in the pipe; a full pipe already wakes the waiter.
  func wake() {
    var byte: UInt8 = 1
    _ = POSIX.writeDescriptor(writeEnd, &byte, 1)
  }

  /// Empties the pipe (it is non-blocking).
  func drain() {
    var buffer = [UInt8](repeating: 0, count: 64)
    while POSIX.readDescriptor(readEnd, &buffer, buffer.count) > 0 {}
  }

  func close() {
    _ = POSIX.closeDescriptor(readEnd)
    _ = POSIX.closeDescriptor(writeEnd)
  }
}
