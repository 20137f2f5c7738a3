import FeedRuntime
import Venues
import WebSocketWire

/// Something the live machine was given, and when.
public struct RecordedStep: Sendable, Equatable {
  public enum What: Sendable, Equatable {
    case message(WebSocketMessage)
    case connected(attempt: Int)
    case disconnected(attempt: Int, retryIn: Duration, reason: String)
    /// A new connection was given its subscription (`FeedMachine.opened`).
    case opened
    case command(SubscriptionCommand)
    case control(String)
    /// The venue's timer fired (its debounce or `--max-wait` deadline passed). Recorded in a run
    /// of several venues only, so that a replay releases a venue's held prices where the live run
    /// did among the other venues' lines; of one venue, the replay derives it from the deadlines.
    case tick
    /// The run ended (`RecordedEnd` names the outcome).
    case end(RecordedEnd)
    /// A line of a server script that is not a frame the client received: what the client sent
    /// (`C>`), or what the server does beyond text and binary frames (`S>` `http`, `ping`,
    /// `close`, `raw`). The emulator plays these; a replay re-derives what the client sent.
    case exchanged(SessionScript.Direction, SessionScript.Kind, body: String)
  }

  /// Nanoseconds since the run's start: the `now` the machine was given.
  public var at: Int64
  /// Wall-clock receive time (ms since the epoch).
  public var received: Int64
  public var batch: Int
  public var what: What
  /// The venue, by index into the section header's `venues` (0 in a section of one venue).
  public var venue: Int

  public init(at: Int64, received: Int64, batch: Int, what: What, venue: Int = 0) {
    self.at = at
    self.received = received
    self.batch = batch
    self.what = what
    self.venue = venue
  }
}
