/// Failures of the byte transport (TCP and TLS) under the WebSocket engine.
public enum TransportError: Error, Sendable, Equatable {
  /// The URL could not be used (bad scheme, missing host, bad port).
  case invalidURL(String)
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
}
