/// An instant of a recorded run: its offset from the run's start. The clock a replay's
/// `FeedMachine` sees, so that every deadline it computes is the live machine's, exactly.
public struct RecordedInstant: InstantProtocol, Sendable {
  public var offset: Duration

  public init(offset: Duration) { self.offset = offset }

  /// An offset in whole nanoseconds (what a recording stores).
  public init(nanoseconds: Int64) { offset = .nanoseconds(nanoseconds) }

  public func advanced(by duration: Duration) -> RecordedInstant {
    RecordedInstant(offset: offset + duration)
  }
  public func duration(to other: RecordedInstant) -> Duration { other.offset - offset }
  public static func < (a: RecordedInstant, b: RecordedInstant) -> Bool { a.offset < b.offset }
}

extension Duration {
  /// Whole nanoseconds (rounded toward zero, saturating); what a recording stores.
  public var wholeNanoseconds: Int64 {
    let (seconds, attoseconds) = components
    let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    if overflow { return seconds < 0 ? .min : .max }
    let (sum, overflowAgain) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000)
    if overflowAgain { return seconds < 0 ? .min : .max }
    return sum
  }
}
