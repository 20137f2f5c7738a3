import CLI
import FeedRuntime
import Outputs
import Recording
import Synchronization
import TickerSupport
import Venues

/// Where a failed `--record` write reports to: the run stops (exit 74).
final class RecordingTarget: Sendable {
  private let state = Mutex<(feed: (any QuoteFeed)?, failure: Int32?)>((nil, nil))

  /// The feed the failure stops, once there is one.
  var feed: (any QuoteFeed)? {
    get { state.withLock { $0.feed } }
    set { state.withLock { $0.feed = newValue } }
  }

  var failure: Int32? { state.withLock { $0.failure } }

  func failed(_ code: Int32) {
    let feed = state.withLock { state -> (any QuoteFeed)? in
      state.failure = code
      return state.feed
    }
    feed?.stop(.writeFailed(code))
  }

  /// `--record PATH`'s recorder, its failures reported to `target`; nil when not recording.
  /// - Parameter venues: the run's venues and their starting symbols (several: one file for all).
  static func open(
    _ path: String?, venues: [RecordingHeader.Venue], _ target: RecordingTarget, _ diagnostics: Diagnostics
  ) -> Result<Recorder?, Stop> {
    guard let path else { return .success(nil) }
    do {
      let recorder = try Recorder.open(
        path: path,
        header: RecordingHeader(venues: venues, startedMilliseconds: WallClock.epochMilliseconds()),
        onFailure: { [diagnostics] code in
          diagnostics.error("cannot write the recording \(path): \(FailureText.systemError(code))")
          target.failed(code)
        })
      diagnostics.info("recording to \(path)")
      return .success(recorder)
    } catch {
      diagnostics.error("\(error)")
      return .failure(Stop(code: .cannotCreate))
    }
  }
}
