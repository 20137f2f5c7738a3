import FeedRuntime
import WebSocketClient

/// One venue's share of a `Recorder` in a run of several venues: what its feed hands over is
/// recorded under its index (`RecordedStep.venue`), and the file is finished when every venue's
/// feed has finished.
public struct VenueRecorder: FeedRecorder {
  let recorder: Recorder
  public let venue: Int

  public func record(_ events: [SessionEvent], at: Int64, received: Int64) async {
    await recorder.record(events, at: at, received: received, venue: venue)
  }

  public func end(_ outcome: FeedOutcome, at: Int64, received: Int64) async {
    await recorder.end(outcome, at: at, received: received, venue: venue)
  }

  /// The errno of a failed write once the last venue finished; nil before (a failure is also
  /// told to the recorder's `onFailure`, at once).
  public func finish() async -> Int32? { await recorder.venueFinished() }
}
