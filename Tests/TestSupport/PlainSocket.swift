import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Plain blocking loopback sockets for the tests that open thousands of connections (a
/// `TCPStream` holds a wake-up pair of descriptors besides its socket), and the descriptor limit
/// they need.
package enum PlainSocket {
  package struct ConnectFailed: Error {
    package var errno: Int32
  }

  #if canImport(Glibc)
    /// `send`'s flag that turns SIGPIPE into EPIPE (Darwin sets SO_NOSIGPIPE on the socket).
    package static let noSignal = Int32(MSG_NOSIGNAL)
  #else
    package static let noSignal: Int32 = 0
  #endif

  /// A blocking TCP connection to 127.0.0.1:`port`.
  package static func connect(port: Int) throws -> Int32 {
    #if canImport(Glibc)
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard fd >= 0 else { throw ConnectFailed(errno: errno) }
    #if canImport(Darwin)
      var one: Int32 = 1
      _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
    #endif
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    let status = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        #if canImport(Glibc)
          Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        #else
          Darwin.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        #endif
      }
    }
    guard status == 0 else {
      let code = errno
      close(fd)
      throw ConnectFailed(errno: code)
    }
    return fd
  }

  /// Opens `count` connections to 127.0.0.1:`port` in waves of 100 (every other one sending half a
  /// request head and no more), all kept open, calling `afterWave` with how many are open after
  /// each: a request it makes there is taken after the wave's connections, so the next wave never
  /// outruns the listener's backlog (which would wait for the kernel's SYN retries, a second
  /// each). Closes them all at the end, within `exclusively`'s share of the descriptors.
  package static func flood(port: Int, count: Int, afterWave: (Int) throws -> Void) throws {
    try exclusively {
      var open: [Int32] = []
      open.reserveCapacity(count)
      defer { for fd in open { close(fd) } }
      let half = Array("GET /metrics HTTP/1.1\r\nHost: x\r\n".utf8)
      while open.count < count {
        for _ in 0..<min(100, count - open.count) {
          let fd = try connect(port: port)
          open.append(fd)
          // A write to a connection the server already closed may fail: that is the point.
          if open.count % 2 == 0 { _ = half.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, noSignal) } }
        }
        try afterWave(open.count)
      }
    }
  }

  /// One flood at a time in this process: each may take three quarters of the descriptor limit,
  /// and the suites that flood run in parallel with each other.
  private static let floods = DispatchSemaphore(value: 1)

  /// Runs `flood` with the process's descriptors to itself (as far as floods go); call it off the
  /// concurrency pool (it waits for any other flood to end).
  package static func exclusively<T>(_ flood: () throws -> T) rethrows -> T {
    floods.wait()
    defer { floods.signal() }
    return try flood()
  }

  /// Raises this process's soft descriptor limit to its hard one; the soft limit then.
  package static func raisedDescriptorLimit() -> Int {
    var limit = rlimit()
    #if canImport(Glibc)
      let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
      let resource = RLIMIT_NOFILE
    #endif
    guard getrlimit(resource, &limit) == 0 else { return 1024 }
    if limit.rlim_cur < limit.rlim_max {
      var raised = limit
      raised.rlim_cur = limit.rlim_max
      if setrlimit(resource, &raised) == 0 { limit = raised }
    }
    return Int(clamping: min(limit.rlim_cur, 1 << 20))
  }
}
