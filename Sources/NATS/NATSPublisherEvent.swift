/// What a publisher tells its owner, in order.
public enum NATSPublisherEvent: Sendable, Equatable {
  /// Connected and accepted (`reconnected`: not the first time); messages dropped since the last
  /// connection.
  case connected(NATSServerInfo, reconnected: Bool, droppedSinceLastConnection: Int)
  /// A connection attempt failed; the next one is in `retryIn`. `buffered` messages wait,
  /// `dropped` were dropped so far in all.
  case connectFailed(NATSLinkError, attempt: Int, retryIn: Duration, buffered: Int, dropped: Int)
  /// A working connection ended; the next attempt is in `retryIn`.
  case lost(NATSLinkError, retryIn: Duration)
  /// A `-ERR` after which the connection stays (a permissions violation, an invalid subject).
  case serverError(NATSServerError)
  /// The publisher stopped.
  case finished(NATSPublisherSummary)
  /// What came of making the `--publish-stream` stream on a new connection.
  case stream(String, StreamOutcome)
}

/// What came of making the stream that keeps the last price of each subject.
public enum StreamOutcome: Sendable, Equatable {
  /// Made, or there already with this configuration.
  case kept
  /// The server did not answer: it has no JetStream.
  case noJetStream
  /// JetStream refused (a stream of that name with another configuration, overlapping subjects).
  case refused(JetStreamError)
  /// The connection failed while asking (the publisher goes on; the next connection asks again).
  case failed(NATSLinkError)
}

/// What a publisher did, in messages.
public struct NATSPublisherSummary: Sendable, Equatable {
  /// Written to the server (written: NATS core confirms nothing per message).
  public var published: Int
  /// Dropped to stay within the buffer while the server was unreachable or slow.
  public var dropped: Int
  /// Lost with a connection whose write failed.
  public var lostInFlight: Int
  /// Still buffered when the publisher stopped (the server was unreachable then).
  public var unsent: Int

  public init(published: Int, dropped: Int, lostInFlight: Int, unsent: Int) {
    self.published = published
    self.dropped = dropped
    self.lostInFlight = lostInFlight
    self.unsent = unsent
  }
}
