import TickerSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A connected TCP socket (IPv4 or IPv6), non-blocking underneath, with blocking `read`/`write`
/// that wait in `poll` and can be woken by `shutdown()` from another thread.
///
/// One reader and one writer may work concurrently; concurrent writers must be serialised by the
/// caller.
public final class TCPStream: ByteStream {
  let socket: PollingSocket

  /// Wraps an already connected socket (e.g. from `accept`) and takes ownership of it.
  public init(connectedSocket fd: Int32) throws(TransportError) {
    do {
      try POSIX.setNonBlocking(fd)
    } catch {
      POSIX.closeDescriptor(fd)
      throw error
    }
    POSIX.configureStream(fd)
    socket = try PollingSocket(fd: fd)
  }

  /// Resolves `host` (name or IPv4/IPv6 literal) and connects to the first address that accepts,
  /// all within `timeout` seconds, name resolution included.
  public static func connect(
    host: String, port: Int, timeout: Double, resolver: Resolver = .system
  ) throws(TransportError) -> TCPStream {
    let deadline = Deadline(seconds: timeout)
    let addresses = try resolver.resolve(host, port: port, deadline: deadline)
    var lastErrno = ECONNREFUSED
    for address in addresses {
      if deadline.hasPassed { break }
      let fd = try POSIX.streamSocket(family: address.family)
      var storage = sockaddr_storage()
      let length = min(address.bytes.count, MemoryLayout<sockaddr_storage>.size)
      address.bytes.withUnsafeBytes { source in
        withUnsafeMutableBytes(of: &storage) {
          $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[0..<length]))
        }
      }
      let error = try withUnsafePointer(to: &storage) { pointer throws(TransportError) in
        try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa throws(TransportError) in
          try connectOne(fd, sa, socklen_t(length), deadline: deadline)
        }
      }
      if error == 0 { return try TCPStream(connectedSocket: fd) }
      POSIX.closeDescriptor(fd)
      lastErrno = error
    }
    if deadline.hasPassed { throw .timeout("connecting to \(host) port \(port)") }
    throw .connect(host: host, port: port, errno: lastErrno)
  }

  /// Returns 0 when connected or the errno of the failure. Closes `fd` and throws on timeout.
  private static func connectOne(
    _ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t, deadline: Deadline
  ) throws(TransportError) -> Int32 {
    if POSIX.connectSocket(fd, address, length) == 0 { return 0 }
    guard errno == EINPROGRESS || errno == EINTR else { return errno }
    var fds = [pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)]
    let ready: Int32
    do throws(Errno) {
      ready = try POSIX.retryingInterrupted { POSIX.pollDescriptors(&fds, 1, deadline.pollMilliseconds) }
    } catch {
      return error.code
    }
    if ready == 0 {
      POSIX.closeDescriptor(fd)
      throw .timeout("TCP connect")
    }
    return POSIX.pendingError(fd)
  }

  public func read(into buffer: UnsafeMutableRawBufferPointer, timeout: Double?) throws(TransportError)
    -> Int
  {
    guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
    let deadline = Deadline(seconds: timeout)
    return try socket.withDescriptor { fd throws(TransportError) in
      while true {
        let count: Int
        do throws(Errno) {
          count = try POSIX.retryingInterrupted { recv(fd, base, buffer.count, 0) }
        } catch {
          switch error.code {
          case EAGAIN, EWOULDBLOCK:
            try waitReadable(until: deadline)
            continue
          default:
            if socket.isShutdown { throw .cancelled }
            throw .syscall(call: "recv", errno: error.code)
          }
        }
        if count > 0 { return count }
        if socket.isShutdown { throw .cancelled }
        return 0
      }
    }
  }

  public func write(_ bytes: UnsafeRawBufferPointer, timeout: Double?) throws(TransportError) {
    guard let base = bytes.baseAddress, bytes.count > 0 else { return }
    try socket.withDescriptor { fd throws(TransportError) in
      var offset = 0
      var deadline = Deadline(seconds: timeout)
      while offset < bytes.count {
        do throws(Errno) {
          let sent = try POSIX.retryingInterrupted {
            send(fd, base + offset, bytes.count - offset, POSIX.sendFlags)
          }
          offset += sent
          deadline = Deadline(seconds: timeout)
        } catch {
          switch error.code {
          case EAGAIN, EWOULDBLOCK: try waitWritable(until: deadline)
          default:
            if socket.isShutdown { throw .cancelled }
            throw .syscall(call: "send", errno: error.code)
          }
        }
      }
    }
  }

  /// Waits until the socket is readable (or has an error/hang-up). For use inside
  /// `socket.withDescriptor`, e.g. by `TLSStream` after `SSL_ERROR_WANT_READ`.
  func waitReadable(until deadline: Deadline) throws(TransportError) {
    try socket.wait(for: Int16(POLLIN), until: deadline, operation: "read")
  }

  /// Waits until the socket is writable (or has an error/hang-up).
  func waitWritable(until deadline: Deadline) throws(TransportError) {
    try socket.wait(for: Int16(POLLOUT), until: deadline, operation: "write")
  }

  public func shutdown() { socket.shutdown() }

  public func close() { socket.close() }
}

extension TCPStream {
  /// Caps the kernel's send buffer of this socket at about `bytes` (Linux doubles the value for
  /// its bookkeeping): a server bounds what a client that stops reading can hold in the kernel,
  /// and notices sooner that it stopped. False when the system refused.
  @discardableResult
  public func limitSendBuffer(to bytes: Int32) -> Bool {
    (try? socket.withDescriptor { fd in POSIX.setOption(fd, level: SOL_SOCKET, name: SO_SNDBUF, value: bytes)
    })
      ?? false
  }
}
