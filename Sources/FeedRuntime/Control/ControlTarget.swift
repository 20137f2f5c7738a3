/// What takes the lines of the control protocol (`ControlLine`): a `Feed`, or a `FeedGroup`
/// that hands each symbol to its venue's feed.
public protocol ControlTarget: Sendable {
  /// A line of the control protocol.
  func control(_ line: String)
  /// Reports a control line that could not even be read (too long).
  func reportControlError(_ error: ControlLineError)
}

extension Feed: ControlTarget {}
