import FeedRuntime
import Venues

/// One line of a recording (NDJSON, the fixture format of `Tests/Fixtures` extended):
///
/// - the header, first line of every run section:
///   `{"kind":"recording","format":1,"provider":"finnhub","symbols":["AAPL"],"started":"…Z","started_ms":N}`
/// - every frame received: `{"dir":"S>","kind":"text"|"binary","after_ms":N,"at_ns":N,"rt":N,"batch":N,"body":"…"}`,
///   a binary frame that is not UTF-8 with `"encoding":"base64"`;
/// - what else the feed saw, `dir` `"--"`: `connected` (`attempt`), `disconnected` (`attempt`,
///   `retry_ns`, `reason`), `opened` (a connection asked for its subscription), `command` (`op`
///   add/remove/replace, `symbols`), `control` (`line`), `tick` (a venue's timer fired; in a run
///   of several venues only), and `end` (`outcome`), the last line;
/// - in a run of several venues (a format 2 header listing `venues`), every step's `venue`.
///
/// `at_ns` is the instant the feed's machine was given (nanoseconds since the run's start), `rt`
/// the wall-clock receive time stamped on quotes (ms since the epoch), `batch` numbers the runs
/// of events the machine took in one go, `after_ms` the milliseconds since the previous line (as
/// in the fixtures; informative).
public enum RecordingLine: Sendable, Equatable {
  case header(RecordingHeader)
  case step(RecordedStep)
}

extension RecordingLine {
  /// The line and its newline, alone (tests; the recorder uses one `RecordingEncoder` per file).
  public func encoded() -> [UInt8] {
    var encoder = RecordingEncoder()
    var out: [UInt8] = []
    encoder.append(self, to: &out)
    return out
  }
}
