#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes whole byte buffers to a file descriptor, retrying partial writes and EINTR.
/// Unbuffered: each call reaches the descriptor before it returns, so a line written is a line
/// flushed, also when stdout is a pipe.
public struct FileDescriptorWriter: Sendable {
  public enum Failure: Error, Equatable { case readerGone, failed(Int32) }

  public let fd: Int32
  /// Called when a write finds the descriptor without room for all it has (its reader is
  /// behind), just before the write waits: the event "the pipe is full", which no system call
  /// gives, for tests. Where the descriptor cannot write without waiting (`writeWithoutWaiting`
  /// is `.unsupported`), a poll for room decides instead, which misses a write that fits in part.
  public let onFull: (@Sendable () -> Void)?

  public init(fd: Int32, onFull: (@Sendable () -> Void)? = nil) {
    self.fd = fd
    self.onFull = onFull
  }

  public func write(_ bytes: [UInt8]) throws(Failure) {
    var failure: Failure?
    bytes.withUnsafeBytes { raw in
      var offset = 0
      while offset < raw.count {
        if let onFull {
          switch sendWhatFits(UnsafeRawBufferPointer(rebasing: raw[offset...]), announcingAWait: onFull) {
          case .success(let n):
            offset += n
            if offset == raw.count { return }
          case .failure(let reason):
            failure = reason
            return
          }
        }
        do throws(Errno) {
          let written = try POSIX.retryingInterrupted {
            POSIX.writeDescriptor(fd, raw.baseAddress! + offset, raw.count - offset)
          }
          offset += written
        } catch {
          if error.code == EAGAIN { continue }
          failure = error.code == EPIPE ? .readerGone : .failed(error.code)
          return
        }
      }
    }
    if let failure { throw failure }
  }

  public func write(_ text: String) throws(Failure) { try write(Array(text.utf8)) }

  /// For `onFull`: sends what the descriptor takes at once, and calls `onFull` when something
  /// is left, which the write that follows then waits to send; the bytes sent. (A poll for room
  /// would miss a large write that fits in part and then waits inside the kernel.)
  private func sendWhatFits(
    _ bytes: UnsafeRawBufferPointer, announcingAWait onFull: () -> Void
  ) -> Result<Int, Failure> {
    switch writeWithoutWaiting(bytes) {
    case .wrote(let n):
      if n < bytes.count { onFull() }
      return .success(n)
    case .wouldBlock:
      onFull()
    case .unsupported:
      var probe = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
      if poll(&probe, 1, 0) == 0 { onFull() }
    case .failed(let reason):
      return .failure(reason)
    }
    return .success(0)
  }

  /// What `writeWithoutWaiting` did.
  public enum Attempt: Equatable, Sendable {
    /// This many bytes went out (maybe fewer than given: the rest did not fit now).
    case wrote(Int)
    /// Nothing went out: the descriptor has no room now (its reader is behind).
    case wouldBlock
    /// The descriptor or the kernel cannot write without waiting; nothing went out: use `write`.
    case unsupported
    case failed(Failure)
  }

  /// Writes what the descriptor takes at once, never waiting for room: `pwritev2` with
  /// `RWF_NOWAIT`, which leaves the descriptor's flags (shared with every process that has it)
  /// alone. Linux refuses it (`.unsupported`) where it cannot keep that promise: on terminals,
  /// on regular files of most file systems, on older kernels; pipes, sockets and /dev/null take
  /// it. An interrupted call is retried.
  public func writeWithoutWaiting(_ bytes: UnsafeRawBufferPointer) -> Attempt {
    guard !bytes.isEmpty else { return .wrote(0) }
    #if os(Linux)
      guard let pwritev2 = NoWait.pwritev2 else { return .unsupported }
      var vector = iovec(iov_base: UnsafeMutableRawPointer(mutating: bytes.baseAddress), iov_len: bytes.count)
      do throws(Errno) {
        // Offset -1: at (and advancing) the descriptor's own position, as `write` does.
        return .wrote(try POSIX.retryingInterrupted { pwritev2(fd, &vector, 1, -1, NoWait.flag) })
      } catch {
        switch error.code {
        case EAGAIN: return .wouldBlock
        case EPIPE: return .failed(.readerGone)
        case EOPNOTSUPP, EINVAL, ENOSYS: return .unsupported
        case let e: return .failed(.failed(e))
        }
      }
    #else
      return .unsupported
    #endif
  }
}

#if os(Linux)
  /// `pwritev2` and `RWF_NOWAIT` (Linux 4.14, glibc 2.26), which Swift's Glibc module does not
  /// export: looked up once.
  private enum NoWait {
    typealias PWriteV2 = @convention(c) (Int32, UnsafePointer<iovec>?, Int32, Int, Int32) -> Int
    /// `RWF_NOWAIT` in <linux/fs.h>.
    static let flag: Int32 = 0x0000_0008
    static let pwritev2: PWriteV2? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pwritev2").map {
      unsafeBitCast($0, to: PWriteV2.self)
    }
  }
#endif

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
