import TickerSupport

#if canImport(COpenSSLShim)
  import COpenSSLShim
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Small wrappers over the socket calls whose spelling differs between Glibc and Darwin, beside
/// TickerSupport's descriptor calls and EINTR loop. Descriptors are made close-on-exec
/// atomically where the platform allows (Linux), so a child process spawned by another thread
/// never inherits a connection.
extension POSIX {
  package static var streamType: Int32 {
    #if canImport(Glibc)
      Int32(SOCK_STREAM.rawValue)
    #else
      SOCK_STREAM
    #endif
  }

  /// Flags for `send`: no SIGPIPE on Linux (Darwin uses SO_NOSIGPIPE on the socket instead).
  static var sendFlags: Int32 {
    #if canImport(Glibc)
      Int32(MSG_NOSIGNAL)
    #else
      0
    #endif
  }

  /// A new non-blocking, close-on-exec stream socket.
  package static func streamSocket(family: Int32) throws(TransportError) -> Int32 {
    #if canImport(Glibc)
      let fd = socket(family, streamType | Int32(SOCK_CLOEXEC.rawValue), 0)
      guard fd >= 0 else { throw .syscall(call: "socket", errno: errno) }
    #else
      let fd = socket(family, streamType, 0)
      guard fd >= 0 else { throw .syscall(call: "socket", errno: errno) }
      _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    #endif
    do {
      try setNonBlocking(fd)
    } catch {
      closeDescriptor(fd)
      throw error
    }
    return fd
  }

  /// Accepts one connection (close-on-exec); returns -1 and leaves `errno` set on failure.
  package static func acceptSocket(_ fd: Int32) -> Int32 {
    #if canImport(COpenSSLShim)
      return shim_accept_cloexec(fd)
    #else
      let client = accept(fd, nil, nil)
      if client >= 0 { _ = fcntl(client, F_SETFD, FD_CLOEXEC) }
      return client
    #endif
  }

  static func connectSocket(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
    connect(fd, address, length)
  }

  static func shutdownSocket(_ fd: Int32) {
    _ = shutdown(fd, Int32(SHUT_RDWR))
  }

  static func setNonBlocking(_ fd: Int32) throws(TransportError) {
    let flags = fcntl(fd, F_GETFL, 0)
    guard flags >= 0, fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0 else {
      throw .syscall(call: "fcntl", errno: errno)
    }
  }

  package static func setOption(_ fd: Int32, level: Int32, name: Int32, value: Int32) -> Bool {
    var value = value
    return setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size)) == 0
  }

  /// TCP_NODELAY, and SO_NOSIGPIPE where it exists. Best effort (fails only on odd sockets).
  static func configureStream(_ fd: Int32) {
    _ = setOption(fd, level: Int32(IPPROTO_TCP), name: Int32(TCP_NODELAY), value: 1)
    #if canImport(Darwin)
      _ = setOption(fd, level: SOL_SOCKET, name: SO_NOSIGPIPE, value: 1)
    #endif
  }

  /// The pending error of a socket (SO_ERROR), e.g. the result of a non-blocking connect.
  static func pendingError(_ fd: Int32) -> Int32 {
    var value: Int32 = 0
    var length = socklen_t(MemoryLayout<Int32>.size)
    guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &value, &length) == 0 else { return errno }
    return value
  }

  /// A non-blocking, close-on-exec pipe-like pair (a socketpair): (read end, write end).
  static func makePipe() throws(TransportError) -> (read: Int32, write: Int32) {
    var fds: [Int32] = [-1, -1]
    #if canImport(Glibc)
      let type = streamType | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
      guard socketpair(AF_UNIX, type, 0, &fds) == 0 else {
        throw .syscall(call: "socketpair", errno: errno)
      }
    #else
      guard pipe(&fds) == 0 else { throw .syscall(call: "pipe", errno: errno) }
      for fd in fds {
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL, 0) | O_NONBLOCK)
      }
    #endif
    return (fds[0], fds[1])
  }
}
