#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The C library's descriptor calls under names no method shadows, and the one loop that calls
/// again what a signal interrupted (`EINTR`).
///
/// A type with a method of the C call's name (a stream's `read`, a recorder's `close()`) reaches
/// the call as `POSIX.readDescriptor` without spelling out Glibc or Darwin. Every loop that
/// retries a call after `EINTR` is `retryingInterrupted`, which hands back the result or the
/// errno as a typed error, so no caller reads `errno` after something else may have changed it.
public enum POSIX {
  @inlinable @inline(__always)
  public static func readDescriptor(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
  }

  @inlinable @inline(__always)
  public static func writeDescriptor(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    write(fd, bytes, count)
  }

  /// `open(2)`; `mode` counts only with `O_CREAT`.
  @inlinable @inline(__always)
  public static func openFile(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
    open(path, flags, mode)
  }

  @inlinable @inline(__always) @discardableResult
  public static func closeDescriptor(_ fd: Int32) -> Int32 { close(fd) }

  @inlinable @inline(__always)
  public static func pollDescriptors(_ fds: UnsafeMutablePointer<pollfd>, _ count: Int, _ timeout: Int32)
    -> Int32
  {
    poll(fds, nfds_t(count), timeout)
  }

  /// `call`'s result once it is not negative; `call` is made again for as long as it fails with
  /// `EINTR` (a signal arrived first), and any other failure is thrown as its errno.
  @inlinable @inline(__always)
  public static func retryingInterrupted<Result: BinaryInteger>(_ call: () -> Result) throws(Errno) -> Result
  {
    while true {
      let result = call()
      if result >= 0 { return result }
      let code = errno
      if code != EINTR { throw Errno(code) }
    }
  }
}
