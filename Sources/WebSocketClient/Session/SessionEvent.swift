/// One event of a session, in order. `.ended` is always the last one.
import WebSocketWire

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
  /// A value the session's user posted (`SourceSession.post`), in order with the events
  /// around it: a way for the layer above to funnel its own inputs through the same stream.
  case post(SessionPost)
}

/// A value posted into a session's event stream. Equal when it is the same post.
public struct SessionPost: Sendable, Equatable {
  public let value: any Sendable
  private let id: Int

  init(_ value: any Sendable, id: Int) {
    self.value = value
    self.id = id
  }

  public static func == (a: SessionPost, b: SessionPost) -> Bool { a.id == b.id }
}
