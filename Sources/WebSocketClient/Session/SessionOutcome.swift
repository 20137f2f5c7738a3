/// How a session ended (the payload of the terminal `.ended` event).
import WebSocketWire

public enum SessionOutcome: Sendable, Equatable {
  /// `stop(...)` ended it.
  case stopped
  /// The peer closed with 1000 (normal closure); the status it sent.
  case peerClosedNormally(CloseStatus?)
  /// A failure that is not retried (token refused, certificate rejected, bad URL, other 4xx …).
  case fatal(WebSocketError)
  /// `maxRetries` reconnects failed in a row; the last reason.
  case retriesExhausted(last: DisconnectReason)
}
