import TickerSupport

/// Failures of the byte transport (TCP and TLS) under every protocol.
public enum TransportError: Error, Sendable, Equatable {
  /// Name resolution failed: host and the `getaddrinfo` error text.
  case resolve(host: String, message: String)
  /// Every resolved address refused or failed; the errno of the last attempt.
  case connect(host: String, port: Int, errno: Int32)
  /// The operation did not complete in time.
  case timeout(String)
  /// A system call failed.
  case syscall(call: String, errno: Int32)
  /// The peer closed the TCP connection (EOF) where more bytes were needed.
  case connectionClosed
  /// The connection was shut down locally (e.g. by `close()` while a read waited).
  case cancelled
  /// The TLS handshake or I/O failed (OpenSSL's error text).
  case tls(String)
  /// Certificate verification failed: OpenSSL's verify result code and its text.
  case certificateVerification(code: Int, message: String)
  /// TLS is not available on this platform build.
  case tlsUnavailable
  /// OpenSSL (loaded for the first `wss://` connection) could not be loaded: the loader's reason.
  case tlsLibraryMissing(String)
  /// The server of a transport other than WebSocket (a NATS server under `--source`) failed or
  /// refused, in its words; `retry`: whether a new connection may fare better.
  case peer(String, retry: Bool)

  /// The words for each failure, with what the user can do about it where there is something.
  public var text: String {
    switch self {
    case .resolve(let host, let message): "cannot resolve \(host): \(message)"
    case .connect(let host, let port, let errno):
      "cannot connect to \(host) port \(port): \(Errno.text(errno))"
    case .timeout(let what): "timed out: \(what)"
    case .syscall(let call, let errno): "\(call) failed: \(Errno.text(errno))"
    case .connectionClosed: "the server closed the TCP connection"
    case .cancelled: "the connection was shut down"
    case .tls(let message): "TLS failed: \(message)"
    case .certificateVerification(let code, let message):
      "the server's TLS certificate failed verification: \(message) (verify code \(code)); "
        + "use --cacert FILE to trust a private CA"
    case .tlsUnavailable: "TLS is not available in this build; use --engine urlsession"
    case .tlsLibraryMissing(let why):
      "wss:// needs OpenSSL (libssl.so.3), which could not be loaded (\(why)); install libssl3"
    case .peer(let why, _): why
    }
  }
}
