import TickerSupport

/// Why a recording cannot be (fully) replayed. Line numbers are 1-based.
public enum RecordingError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The file cannot be opened or read (`errno`).
  case unreadable(path: String, errno: Int32)
  /// Not a regular file (a directory, a FIFO, a device).
  case notRegularFile(path: String)
  /// The file is empty.
  case empty
  /// The first line is not a recording's header: not a ticker recording.
  case notARecording(String)
  /// A line that is not what a recording holds.
  case invalidLine(Int, String)
  /// The last line has no newline: the recording was cut off in the middle of it.
  case truncated(Int)
  /// A line longer than `limit` bytes.
  case lineTooLong(Int, limit: Int)
  /// A later run section is of another provider.
  case providerChanged(Int, from: String, to: String)

  public var description: String {
    switch self {
    case .unreadable(let path, let errno): "cannot read \(path): \(Errno.text(errno))"
    case .notRegularFile(let path): "\(path) is not a regular file"
    case .empty: "the file is empty: not a ticker recording"
    case .notARecording(let why): "not a ticker recording (\(why))"
    case .invalidLine(let line, let why): "line \(line): \(why)"
    case .truncated(let line):
      "line \(line) is cut off (no newline at the end): the recording was interrupted"
    case .lineTooLong(let line, let limit): "line \(line) is longer than \(limit) bytes"
    case .providerChanged(let line, let from, let to):
      "line \(line): a run section of \(to) in a recording of \(from)"
    }
  }
}
