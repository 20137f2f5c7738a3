import WebSocketClient

/// A price feed reached over one WebSocket: where to connect, what to send, how to read what
/// comes back. Implementations are pure values: no I/O, no state.
public protocol Provider: Sendable {
  /// Short lower-case name used in configuration (`"finnhub"`).
  var name: String { get }
  /// The endpoint used when no `--url` is given.
  var defaultURL: WebSocketURL { get }
  /// Whether connecting without a token is pointless (the server refuses it).
  var requiresToken: Bool { get }
  /// The URL to connect to: `base` with the token applied the way this provider wants it.
  func endpoint(base: WebSocketURL, token: String?) -> WebSocketURL
  /// Messages to send after connecting (and after every reconnect) to receive `symbols`.
  func subscribeMessages(for symbols: [String]) -> [WebSocketMessage]
  /// Messages to send before closing, to stop receiving `symbols`.
  func unsubscribeMessages(for symbols: [String]) -> [WebSocketMessage]
  /// How this venue's server spells `symbol` (as typed by the user) in the quotes it sends:
  /// only quotes for the subscribed symbols, in this spelling, are printed.
  func serverSymbol(for symbol: String) -> String
  /// Interprets one server message. Never traps, whatever the input.
  func decode(_ message: WebSocketMessage) -> ProviderEvent
  /// The hot path: appends the quotes of a plain price message to `quotes` and returns nil;
  /// returns the event for anything else (partial, keepalive, error, …) and leaves `quotes` as
  /// it was. The default implementation goes through `decode(_:)`.
  func decode(_ message: WebSocketMessage, appendingQuotesTo quotes: inout [Quote]) -> ProviderEvent?
  /// A message of at least `LargeMessage.threshold` bytes, decoded a chunk at a time; nil when
  /// this provider has no such path (then `decode` is used). The default is nil.
  func decodeLarge(_ message: WebSocketMessage) -> LargeMessage?
}

extension Provider {
  public func serverSymbol(for symbol: String) -> String { symbol }

  public func decodeLarge(_ message: WebSocketMessage) -> LargeMessage? { nil }

  public func decode(_ message: WebSocketMessage, appendingQuotesTo quotes: inout [Quote]) -> ProviderEvent? {
    let event = decode(message)
    if case .quotes(let decoded) = event {
      quotes.append(contentsOf: decoded)
      return nil
    }
    return event
  }
}
