/// The keepalive and silence rules of one connection, pure: fed instants, answers verdicts.
///
/// - Ping: one WebSocket ping every `pingInterval` (from the connection's start, then from each
///   ping sent), never more than one outstanding; its pong must arrive within `pongTimeout`.
/// - Silence: a data message of any kind must arrive at least every `silenceTimeout` (counted from
///   the connection's start, then from the last message).
public struct LivenessMonitor<Instant: InstantProtocol>: Sendable where Instant.Duration == Duration {
  public enum Verdict: Sendable, Equatable {
    /// Nothing to do before `nextDeadline`.
    case alive
    /// Time to send a ping (then call `sentPing(at:)`).
    case sendPing
    /// The outstanding ping got no pong within `pongTimeout`: the connection is dead.
    case pongOverdue
    /// No data message for `silenceTimeout`: the connection is dead.
    case silent
  }

  public let pingInterval: Duration?
  public let pongTimeout: Duration
  public let silenceTimeout: Duration?
  /// When the last data message arrived (or the connection opened).
  public private(set) var lastMessage: Instant
  /// The last message, pong, or the opening: the latest proof the connection worked.
  public private(set) var lastSignOfLife: Instant
  /// When the ping still waiting for its pong was sent.
  public private(set) var outstandingPing: Instant?
  private var nextPing: Instant?

  public init(pingInterval: Duration?, pongTimeout: Duration, silenceTimeout: Duration?, openedAt: Instant) {
    self.pingInterval = pingInterval
    self.pongTimeout = pongTimeout
    self.silenceTimeout = silenceTimeout
    self.lastMessage = openedAt
    self.lastSignOfLife = openedAt
    self.nextPing = pingInterval.map { openedAt.advanced(by: $0) }
  }

  public mutating func receivedMessage(at instant: Instant) {
    lastMessage = max(lastMessage, instant)
    lastSignOfLife = max(lastSignOfLife, instant)
  }

  /// The connection went unread until `instant` because our own consumer was behind: the
  /// silence and the wait for a pong start again from there (a pong may be among the unread
  /// bytes). Not a sign of life.
  public mutating func heldBack(at instant: Instant) {
    lastMessage = max(lastMessage, instant)
    if let sent = outstandingPing { outstandingPing = max(sent, instant) }
  }

  public mutating func sentPing(at instant: Instant) {
    outstandingPing = instant
    nextPing = pingInterval.map { instant.advanced(by: $0) }
  }

  public mutating func receivedPong(at instant: Instant) {
    outstandingPing = nil
    lastSignOfLife = max(lastSignOfLife, instant)
  }

  public func check(at now: Instant) -> Verdict {
    if let sent = outstandingPing, now >= sent.advanced(by: pongTimeout) { return .pongOverdue }
    if let silenceTimeout, now >= lastMessage.advanced(by: silenceTimeout) { return .silent }
    if outstandingPing == nil, let nextPing, now >= nextPing { return .sendPing }
    return .alive
  }

  /// The next instant at which `check(at:)` may answer something other than `.alive`.
  public var nextDeadline: Instant? {
    var deadlines: [Instant] = []
    if let sent = outstandingPing {
      deadlines.append(sent.advanced(by: pongTimeout))
    } else if let nextPing {
      deadlines.append(nextPing)
    }
    if let silenceTimeout { deadlines.append(lastMessage.advanced(by: silenceTimeout)) }
    return deadlines.min()
  }
}
