import Synchronization
import Transport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A test-only `ByteStream` over one end of `socketpair(AF_UNIX, SOCK_STREAM)`.
final class SocketPairStream: ByteStream {
  private let fd: Int32
  private let state = Mutex<(shutdown: Bool, closed: Bool)>((false, false))

  private init(fd: Int32) {
    self.fd = fd
    #if canImport(Darwin)
      var on: Int32 = 1
      _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
    #endif
  }

  static func makePair() -> (SocketPairStream, SocketPairStream) {
    var fds: [Int32] = [-1, -1]
    #if canImport(Glibc)
      let type = Int32(SOCK_STREAM.rawValue)
    #else
      let type = SOCK_STREAM
    #endif
    let result = socketpair(AF_UNIX, type, 0, &fds)
    precondition(result == 0, "socketpair failed: \(errno)")
    return (SocketPairStream(fd: fds[0]), SocketPairStream(fd: fds[1]))
  }

  private var isShutdown: Bool { state.withLock { $0.shutdown } }

  /// Waits for `events`; false on timeout.
  private func wait(for events: Int16, timeout: Double?) throws(TransportError) -> Bool {
    while true {
      if isShutdown { throw .cancelled }
      var pfd = pollfd(fd: fd, events: events, revents: 0)
      let ms = timeout.map { Int32(min(max($0 * 1000, 0), Double(Int32.max))) } ?? -1
      let r = poll(&pfd, 1, ms)
      if r > 0 { return true }
      if r == 0 { return false }
      if errno != EINTR { throw .syscall(call: "poll", errno: errno) }
    }
  }

  func read(into buffer: UnsafeMutableRawBufferPointer, timeout: Double?) throws(TransportError) -> Int {
    guard try wait(for: Int16(POLLIN), timeout: timeout) else { throw .timeout("read") }
    while true {
      let n = recv(fd, buffer.baseAddress, buffer.count, 0)
      if n > 0 { return n }
      if n == 0 {
        if isShutdown { throw .cancelled }
        return 0
      }
      if errno == EINTR { continue }
      if isShutdown { throw .cancelled }
      throw .syscall(call: "recv", errno: errno)
    }
  }

  func write(_ bytes: UnsafeRawBufferPointer, timeout: Double?) throws(TransportError) {
    var offset = 0
    while offset < bytes.count {
      guard try wait(for: Int16(POLLOUT), timeout: timeout) else { throw .timeout("write") }
      #if canImport(Glibc)
        let flags = Int32(MSG_NOSIGNAL)
      #else
        let flags: Int32 = 0
      #endif
      let n = send(fd, bytes.baseAddress! + offset, bytes.count - offset, flags)
      if n >= 0 {
        offset += n
      } else if errno != EINTR && errno != EAGAIN {
        if isShutdown { throw .cancelled }
        throw .syscall(call: "send", errno: errno)
      }
    }
  }

  func shutdown() {
    let first = state.withLock { s in
      defer { s.shutdown = true }
      return !s.shutdown && !s.closed
    }
    guard first else { return }
    #if canImport(Glibc)
      _ = Glibc.shutdown(fd, Int32(SHUT_RDWR))
    #else
      _ = Darwin.shutdown(fd, SHUT_RDWR)
    #endif
  }

  func close() {
    shutdown()
    let first = state.withLock { s in
      defer { s.closed = true }
      return !s.closed
    }
    guard first else { return }
    #if canImport(Glibc)
      _ = Glibc.close(fd)
    #else
      _ = Darwin.close(fd)
    #endif
  }

  deinit { close() }
}
