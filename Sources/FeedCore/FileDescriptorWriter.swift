#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes whole byte buffers to a file descriptor, retrying partial writes and EINTR.
/// Unbuffered: each call reaches the descriptor before it returns, so a line written is a line
/// flushed, also when stdout is a pipe.
public struct FileDescriptorWriter: Sendable {
  public enum Failure: Error { case readerGone, failed(Int32) }

  public let fd: Int32

  public init(fd: Int32) { self.fd = fd }

  public func write(_ bytes: [UInt8]) throws(Failure) {
    var failure: Failure?
    bytes.withUnsafeBytes { raw in
      var offset = 0
      while offset < raw.count {
        let n = Glibc_write(fd, raw.baseAddress! + offset, raw.count - offset)
        if n >= 0 {
          offset += n
          continue
        }
        let e = errno
        if e == EINTR || e == EAGAIN { continue }
        failure = e == EPIPE ? .readerGone : .failed(e)
        return
      }
    }
    if let failure { throw failure }
  }

  public func write(_ text: String) throws(Failure) { try write(Array(text.utf8)) }
}

@inline(__always)
private func Glibc_write(_ fd: Int32, _ p: UnsafeRawPointer, _ n: Int) -> Int {
  #if canImport(Glibc)
    return Glibc.write(fd, p, n)
  #else
    return Darwin.write(fd, p, n)
  #endif
}

public enum StandardStreams {
  /// Reopens each of descriptors 0, 1 and 2 that is closed on /dev/null, lowest first (so each
  /// lands on its own number); returns the ones that were closed.
  public static func reopenClosed() -> [Int32] {
    var closed: [Int32] = []
    for fd in Int32(0)...2 where fcntl(fd, F_GETFD) < 0 && errno == EBADF {
      closed.append(fd)
      let opened = open("/dev/null", O_RDWR)
      if opened >= 0 && opened != fd {
        // Only when something above went wrong; keep the number free rather than misplaced.
        _ = dup2(opened, fd)
        close(opened)
      }
    }
    return closed
  }
}

/// Whether a descriptor is a terminal.
public func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }
