import WebSocketClient

/// Where a feed hands every batch of session events it takes, with the instant it took them
/// (`--record`; the recorder and its file format are the Recording module's).
public protocol FeedRecorder: Sendable {
  /// `at`: nanoseconds since the run started; `received`: the wall-clock receive time stamped on
  /// the batch's quotes (milliseconds since the epoch).
  func record(_ events: [SessionEvent], at: Int64, received: Int64) async
  /// The run ended so.
  func end(_ outcome: FeedOutcome, at: Int64, received: Int64) async
  /// Everything is written (or failed); the errno of a failed write, if one did.
  func finish() async -> Int32?
}
