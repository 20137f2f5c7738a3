import Venues
import WebSocketClient
import WebSocketWire

/// What `FeedMachine` asks its shell to do, in order.
public enum FeedAction: Sendable, Equatable {
  /// Hand these quotes to the outputs (already filtered, debounced and deduped).
  case publish([Quote])
  /// Send these messages on the current connection, in order.
  case send([WebSocketMessage])
  /// Tell a person.
  case report(FeedReport)
  /// Drop the current connection and reconnect now (the venue said it is closing).
  case reconnect(reason: String)
  /// End the run: unsubscribe (these messages), close with 1000, and finish with `outcome`.
  case stop(FeedOutcome, beforeClose: [WebSocketMessage])
}

/// How a feed ended.
public enum FeedOutcome: Sendable, Equatable {
  /// `stop()` was called (a signal, `--count`, stdout gone): `reason` is the caller's.
  case stopped(StopReason)
  /// The server closed the connection with 1000.
  case serverClosed(CloseStatus?)
  /// A failure the session does not retry.
  case failed(WebSocketError)
  /// The venue refused the subscription itself (reconnecting would repeat it).
  case refused(VenueError)
  /// `maxRetries` reconnects failed in a row; the attempts made and the last reason.
  case retriesExhausted(attempts: Int, last: DisconnectReason)
}

/// Why a feed was asked to stop.
public enum StopReason: Error, Sendable, Equatable {
  /// `--count` lines were written.
  case countReached
  /// stdout's reader went away.
  case readerGone
  /// Writing failed (errno).
  case writeFailed(Int32)
  /// A signal (SIGINT 2, SIGTERM 15).
  case signal(Int32)
  /// An `--until` condition held.
  case untilMet
}
