import TickerSupport
import WebSocketWire

/// Options for opening a connection.
public struct ConnectOptions: Sendable {
  /// Extra request headers (e.g. `User-Agent`). Never put secrets in names.
  public var headers: [(name: String, value: String)]
  /// Seconds allowed for TCP connect + TLS + the HTTP upgrade together.
  public var connectTimeout: Double
  /// Largest reassembled message accepted; bigger ones close with 1009.
  public var maximumMessageSize: Int
  /// PEM file of extra trusted CA certificates (`--cacert`); nil = the system store only.
  public var caCertificateFile: String?
  /// Seconds a frame may wait for the peer to take bytes (no progress at all) before the
  /// connection is failed: a peer that stops reading must not hold us, or our memory, forever.
  public var writeTimeout: Double
  /// Offer permessage-deflate (RFC 7692) in the handshake (`--compression`). Only the native
  /// engine compresses; URLSession's offers nothing on Linux.
  public var compression: Bool

  public init(
    headers: [(name: String, value: String)] = [],
    connectTimeout: Double = 10,
    maximumMessageSize: Int = 16 << 20,
    caCertificateFile: String? = nil,
    writeTimeout: Double = 30,
    compression: Bool = true
  ) {
    self.compression = compression
    self.headers = headers
    self.connectTimeout = connectTimeout
    self.maximumMessageSize = maximumMessageSize
    self.caCertificateFile = caCertificateFile
    self.writeTimeout = writeTimeout
  }
}

/// A way to open WebSocket connections (URLSession or the native RFC 6455 engine).
public protocol WebSocketEngine: Sendable {
  /// A short name for diagnostics: "urlsession" or "native".
  var name: String { get }
  /// Opens a connection: TCP (and TLS for `wss`), then the HTTP upgrade.
  func connect(to url: WebSocketURL, options: ConnectOptions) async throws(WebSocketError)
    -> any WebSocketConnection
}

/// One open WebSocket connection.
///
/// `messages` is a single ordered sequence of data messages, bounded: a consumer that falls
/// behind holds the reader back instead of letting messages pile up. It finishes normally after a close
/// handshake (either side started it; `peerCloseStatus` then holds what the peer sent) and throws a
/// `WebSocketError` when the connection fails. Pings are answered inside the engine.
public protocol WebSocketConnection: AnyObject, Sendable {
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

extension WebSocketConnection {
  public var extensions: String? { nil }

  public func send(_ messages: [WebSocketMessage]) async throws(WebSocketError) {
    for message in messages { try await send(message) }
  }
}
