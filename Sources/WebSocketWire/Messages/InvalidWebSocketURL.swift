/// Why a text is not a `ws://` or `wss://` URL the engines can use (bad scheme, missing host,
/// bad port), in words for a message.
public struct InvalidWebSocketURL: Error, Sendable, Equatable, CustomStringConvertible {
  public let reason: String

  public init(_ reason: String) { self.reason = reason }

  public var description: String { "invalid URL: \(reason)" }
}
