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
