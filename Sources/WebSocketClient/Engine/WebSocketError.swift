/// Everything that can end a WebSocket connection or stop one from opening.
import Transport
import WebSocketWire

public enum WebSocketError: Error, Sendable, Equatable {
  /// The URL cannot be used (bad scheme, missing host, bad port).
  case invalidURL(InvalidWebSocketURL)
  /// The transport failed (DNS, connect, timeout, TLS, reset).
  case transport(TransportError)
  /// The opening handshake failed; the HTTP status is inside where the server sent one.
  case handshake(HandshakeError)
  /// The peer broke RFC 6455; we closed with the matching code.
  case protocolViolation(FrameError)
  /// The connection ended without a close frame (close code 1006).
  case abnormalClosure
  /// This engine cannot do WebSockets on this platform (URLSession on Linux: NSURLError -1002).
  case unsupported(String)
  /// The connection is already closed; nothing can be sent.
  case notConnected
}
