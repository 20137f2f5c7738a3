import TickerSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A listening TCP socket (IPv4 or IPv6 literal host) for our own servers and tests.
/// `close()` from another thread wakes a blocked `accept`, which throws `.cancelled`.
public final class TCPListener: Sendable {
  let socket: PollingSocket
  /// The bound port (the one the system chose when created with port 0).
  public let port: Int

  public init(host: String = "127.0.0.1", port: Int = 0, backlog: Int32 = 64) throws(TransportError) {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = POSIX.streamType
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
    var list: UnsafeMutablePointer<addrinfo>?
    let status = getaddrinfo(host, String(port), &hints, &list)
    guard status == 0, let list, let address = list.pointee.ai_addr else {
      let message = status == 0 ? "no address" : String(cString: gai_strerror(status))
      throw .resolve(host: host, message: message)
    }
    defer { freeaddrinfo(list) }
    let fd = try POSIX.streamSocket(family: list.pointee.ai_family)
    do throws(TransportError) {
      _ = POSIX.setOption(fd, level: SOL_SOCKET, name: SO_REUSEADDR, value: 1)
      guard bind(fd, address, list.pointee.ai_addrlen) == 0 else {
        throw .syscall(call: "bind", errno: errno)
      }
      guard listen(fd, backlog) == 0 else { throw .syscall(call: "listen", errno: errno) }
      self.port = try Self.boundPort(fd)
    } catch {
      POSIX.closeDescriptor(fd)
      throw error
    }
    socket = try PollingSocket(fd: fd)
  }

  private static func boundPort(_ fd: Int32) throws(TransportError) -> Int {
    var storage = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    let status = withUnsafeMutablePointer(to: &storage) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    guard status == 0 else { throw .syscall(call: "getsockname", errno: errno) }
    let isIPv6 = Int32(storage.ss_family) == AF_INET6
    let networkPort: UInt16 = withUnsafePointer(to: &storage) { pointer in
      if isIPv6 {
        return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_port }
      }
      return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_port }
    }
    return Int(UInt16(bigEndian: networkPort))
  }

  /// Waits up to `timeout` seconds (nil = forever) for a connection.
  public func accept(timeout: Double?) throws(TransportError) -> TCPStream {
    let deadline = Deadline(seconds: timeout)
    return try socket.withDescriptor { fd throws(TransportError) in
      while true {
        let client: Int32
        do throws(Errno) {
          client = try POSIX.retryingInterrupted { POSIX.acceptSocket(fd) }
        } catch {
          switch error.code {
          case ECONNABORTED: continue
          case EAGAIN, EWOULDBLOCK:
            try socket.wait(for: Int16(POLLIN), until: deadline, operation: "accept")
            continue
          default:
            if socket.isShutdown { throw .cancelled }
            throw .syscall(call: "accept", errno: error.code)
          }
        }
        return try TCPStream(connectedSocket: client)
      }
    }
  }

  /// Stops listening; wakes a blocked `accept`. Idempotent.
  public func close() { socket.close() }
}
