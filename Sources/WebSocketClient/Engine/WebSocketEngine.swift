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
    -> any MessageConnection
}
