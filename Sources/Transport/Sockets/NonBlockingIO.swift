import TickerSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What one system call on a non-blocking socket did: for an `EventLoop`, which never waits in
/// a read or a write.
public enum NonBlockingResult: Sendable, Equatable {
  /// This many bytes were read or written.
  case transferred(Int)
  /// Nothing now: wait until `poll` says the socket is ready.
  case wouldBlock
  /// The peer closed its side (a read of 0 bytes).
  case ended
  /// The call failed with this errno (a reset, a shut-down socket).
  case failed(Int32)
}

extension TCPStream {
  /// The socket's descriptor, for `poll`. Valid until `close()`.
  public var descriptor: Int32 { socket.fd }

  /// One `recv` that does not wait.
  public func readAvailable(into buffer: UnsafeMutableRawBufferPointer) -> NonBlockingResult {
    guard let base = buffer.baseAddress, buffer.count > 0 else { return .transferred(0) }
    do {
      let count = try POSIX.retryingInterrupted { recv(socket.fd, base, buffer.count, 0) }
      return count == 0 ? .ended : .transferred(count)
    } catch {
      return Self.unfinished(error)
    }
  }

  /// One `send` that does not wait: some of `bytes`, all of them, or none.
  public func writeAvailable(_ bytes: UnsafeRawBufferPointer) -> NonBlockingResult {
    guard let base = bytes.baseAddress, bytes.count > 0 else { return .transferred(0) }
    do {
      return .transferred(
        try POSIX.retryingInterrupted { send(socket.fd, base, bytes.count, POSIX.sendFlags) })
    } catch {
      return Self.unfinished(error)
    }
  }

  private static func unfinished(_ error: Errno) -> NonBlockingResult {
    error.code == EAGAIN || error.code == EWOULDBLOCK ? .wouldBlock : .failed(error.code)
  }
}

extension TCPListener {
  /// The listening descriptor, for `poll`. Valid until `close()`.
  public var descriptor: Int32 { socket.fd }

  /// A connection waiting to be accepted, or nil when there is none now (or the listener is
  /// closed). Connections aborted before they were accepted are skipped.
  public func acceptAvailable() throws(TransportError) -> TCPStream? {
    while true {
      let client: Int32
      do {
        client = try POSIX.retryingInterrupted { POSIX.acceptSocket(socket.fd) }
      } catch {
        switch error.code {
        case ECONNABORTED: continue
        case EAGAIN, EWOULDBLOCK: return nil
        default:
          if socket.isShutdown { return nil }
          throw .syscall(call: "accept", errno: error.code)
        }
      }
      return try TCPStream(connectedSocket: client)
    }
  }
}
