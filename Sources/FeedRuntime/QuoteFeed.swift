import Venues

/// What outputs need of a source of quotes: a live `Feed` or a `Replay` of a recording.
public protocol QuoteFeed: AnyObject, Sendable {
  /// The quotes, for any number of outputs.
  var bus: QuoteBus { get }
  /// Adds symbols (as typed; made canonical for the venue).
  func subscribe(_ symbols: [String])
  /// Removes symbols; a removed symbol's pending price is printed first.
  func unsubscribe(_ symbols: [String])
  /// Ends the run; `run()` returns `.stopped(reason)` (the first request wins).
  func stop(_ reason: StopReason)
  /// Runs until stopped or done; the bus's queues end after the last quote. Call once.
  func run() async -> FeedOutcome
}
