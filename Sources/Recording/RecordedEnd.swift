import FeedRuntime

/// How a recorded run ended.
public enum RecordedEnd: String, Sendable, Equatable, CaseIterable {
  case signal, count, readerGone = "reader-gone", writeFailed = "write-failed", until
  case serverClosed = "server-closed", failed, refused, retriesExhausted = "retries-exhausted"

  public init(_ outcome: FeedOutcome) {
    switch outcome {
    case .stopped(.signal): self = .signal
    case .stopped(.countReached): self = .count
    case .stopped(.readerGone): self = .readerGone
    case .stopped(.writeFailed): self = .writeFailed
    case .stopped(.untilMet): self = .until
    case .serverClosed: self = .serverClosed
    case .failed: self = .failed
    case .refused: self = .refused
    case .retriesExhausted: self = .retriesExhausted
    }
  }

  /// Whether the live run printed what its stage still held when it ended.
  public var printedPending: Bool {
    switch self {
    case .count, .readerGone, .writeFailed: false
    default: true
    }
  }
}
