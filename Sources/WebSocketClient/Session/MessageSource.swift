/// What a session reads from: a server it can open a connection to, and open again after each
/// connection ends. A WebSocket engine at a URL is one (`WebSocketSource`); a NATS server under
/// `--source` is another. The session above it reconnects, pings and watches for silence the
/// same way for every source.
public protocol MessageSource: Sendable {
  /// Opens one connection: everything up to the point where messages can flow (TCP, TLS, a
  /// protocol's handshake), within `options.connectTimeout`.
  func open(options: ConnectOptions) async throws(WebSocketError) -> any MessageConnection
}
