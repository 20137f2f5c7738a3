#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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
