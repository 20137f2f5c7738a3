/// One event of a session, in order. `.ended` is always the last one.
public enum SessionEvent: Sendable, Equatable {
  /// A connection is open and `onConnect` completed. `attempt` is 0 for the session's first
  /// connection, else the retry number that succeeded.
  case connected(attempt: Int)
  /// A data message; all messages of one connection come before those of the next.
  case message(WebSocketMessage)
  /// An attempt or a connection ended; retry number `attempt` starts after `retryIn`.
  case disconnected(reason: DisconnectReason, attempt: Int, retryIn: Duration)
  /// The session is over; the event stream finishes after this.
  case ended(SessionOutcome)
}
