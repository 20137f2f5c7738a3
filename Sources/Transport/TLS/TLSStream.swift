import Synchronization

#if canImport(COpenSSLShim)
  import COpenSSLShim
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// TLS (1.2 or newer, via the system OpenSSL) over a connected `TCPStream`.
///
/// The server's chain is verified against the system trust store plus an optional CA file, and its
/// certificate must match the host name (or IP literal) given. OpenSSL runs non-blocking on the
/// TCP socket: when it wants to read or write, the stream waits in the `TCPStream`'s `poll`, so
/// `shutdown()` wakes it. Every `SSL_*` call on the connection is serialised by a lock that is
/// never held while waiting, so one reader and one writer may work concurrently.
///
/// On platforms without the OpenSSL shim (macOS) the initializer throws `.tlsUnavailable`.
public final class TLSStream: ByteStream {
  private let tcp: TCPStream
  #if canImport(COpenSSLShim)
    private let session: OpenSSLSession
  #endif

  /// Performs the handshake within `timeout` seconds. Takes ownership of `tcp`: it is closed
  /// when the handshake fails.
  /// - Parameters:
  ///   - serverName: the name (or IPv4/IPv6 literal) the certificate must match; names are also
  ///     sent as SNI.
  ///   - caCertificateFile: a PEM file of CA certificates trusted in addition to the system store.
  ///   - trust: where the system store is (the environment's SSL_CERT_FILE and SSL_CERT_DIR).
  public init(
    over tcp: TCPStream, serverName: String, caCertificateFile: String?, timeout: Double,
    trust: SystemTrust = .fromEnvironment()
  ) throws(TransportError) {
    self.tcp = tcp
    #if canImport(COpenSSLShim)
      do throws(TransportError) {
        session = try OpenSSLSession(
          fd: tcp.socket.fd, serverName: serverName, caCertificateFile: caCertificateFile, trust: trust)
        let deadline = Deadline(seconds: timeout)
        _ = try perform(until: deadline, operation: "TLS handshake", handshake: true) {
          SSL_connect($0)
        }
      } catch {
        tcp.close()
        throw error
      }
    #else
      tcp.close()
      throw .tlsUnavailable
    #endif
  }

  public func read(into buffer: UnsafeMutableRawBufferPointer, timeout: Double?) throws(TransportError)
    -> Int
  {
    #if canImport(COpenSSLShim)
      guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
      let length = Int32(clamping: buffer.count)
      let result = try perform(until: Deadline(seconds: timeout), operation: "read", handshake: false) {
        SSL_read($0, base, length)
      }
      return Int(result)
    #else
      throw .tlsUnavailable
    #endif
  }

  public func write(_ bytes: UnsafeRawBufferPointer, timeout: Double?) throws(TransportError) {
    #if canImport(COpenSSLShim)
      guard let base = bytes.baseAddress else { return }
      var offset = 0
      while offset < bytes.count {
        let start = base + offset
        let length = Int32(clamping: bytes.count - offset)
        let written = try perform(
          until: Deadline(seconds: timeout), operation: "write", handshake: false
        ) { SSL_write($0, start, length) }
        guard written > 0 else { throw .connectionClosed }
        offset += Int(written)
      }
    #else
      throw .tlsUnavailable
    #endif
  }

  public func shutdown() { tcp.shutdown() }

  /// Sends a TLS close_notify when it can without waiting, then closes the socket.
  public func close() {
    #if canImport(COpenSSLShim)
      _ = try? tcp.socket.withDescriptor { _ throws(TransportError) in session.sendCloseNotify() }
    #endif
    tcp.close()
  }

  #if canImport(COpenSSLShim)
    /// Runs one `SSL_*` call until it completes, waiting in `poll` (without the lock) whenever
    /// OpenSSL wants the socket. Returns the call's positive result, or 0 at a clean TLS close.
    private func perform(
      until deadline: Deadline, operation: String, handshake: Bool,
      _ call: (OpaquePointer) -> Int32
    ) throws(TransportError) -> Int32 {
      try tcp.socket.withDescriptor { _ throws(TransportError) in
        while true {
          switch session.attempt(handshake: handshake, call) {
          case .done(let value):
            return value
          case .closed:
            return 0
          case .wantRead:
            try tcp.socket.wait(for: Int16(POLLIN), until: deadline, operation: operation)
          case .wantWrite:
            try tcp.socket.wait(for: Int16(POLLOUT), until: deadline, operation: operation)
          case .failed(let error):
            if tcp.socket.isShutdown { throw .cancelled }
            throw error
          }
        }
      }
    }
  #endif
}
