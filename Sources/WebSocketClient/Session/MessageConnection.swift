import TickerSupport
import WebSocketWire

/// One open connection of a `MessageSource`: a WebSocket connection, or a NATS subscriber's.
///
/// `messages` is a single ordered sequence of data messages, bounded: a consumer that falls
/// behind holds the reader back instead of letting messages pile up. It finishes normally after a close
/// handshake (either side started it; `peerCloseStatus` then holds what the peer sent) and throws a
/// `WebSocketError` when the connection fails. Pings are answered inside the engine.
public protocol MessageConnection: AnyObject, Sendable {
  var messages: MessageChannel<WebSocketMessage> { get }
  func send(_ message: WebSocketMessage) async throws(WebSocketError)
  /// Sends `messages` in order; an engine that can writes them in one go (a subscription of
  /// 1,000 Finnhub symbols is 1,000 messages: one system call instead of 1,000).
  func send(_ messages: [WebSocketMessage]) async throws(WebSocketError)
  /// Sends a ping; returns when the matching pong arrives.
  func ping(_ payload: [UInt8]) async throws(WebSocketError)
  /// Starts (or answers) the close handshake and waits up to `timeout` seconds for the peer's
  /// close frame, then releases the connection. Never throws; idempotent.
  func close(_ status: CloseStatus, timeout: Double) async
  /// The close code and reason the peer sent, once it sent one.
  var peerCloseStatus: CloseStatus? { get }
  /// The extensions the handshake agreed on, as the server put them
  /// (`permessage-deflate; server_no_context_takeover`), or nil for none.
  var extensions: String? { get }
}

extension MessageConnection {
  public var extensions: String? { nil }

  public func send(_ messages: [WebSocketMessage]) async throws(WebSocketError) {
    for message in messages { try await send(message) }
  }
}
