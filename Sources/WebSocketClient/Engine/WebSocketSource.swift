import WebSocketWire

/// A venue's WebSocket endpoint opened with an engine (native or URLSession): the source of a
/// venue's feed.
public struct WebSocketSource: MessageSource {
  public let engine: any WebSocketEngine
  /// The endpoint, with the token applied if the venue needs one.
  public let url: WebSocketURL

  public init(engine: any WebSocketEngine, url: WebSocketURL) {
    self.engine = engine
    self.url = url
  }

  public func open(options: ConnectOptions) async throws(WebSocketError) -> any MessageConnection {
    try await engine.connect(to: url, options: options)
  }
}
