/// Ranks of the locks whose order debug builds check (`RankedMutex`, `LockOrderChecker`): a
/// thread holding a ranked lock takes only locks of a later rank. Most are the fast path's, in
/// the order a relayed batch takes them from a connection's reader thread to stdout (`FastPath`,
/// in FeedRuntime, says what each guards and why the order is this one); the others are each
/// taken with none of those held.
public enum LockRank: Int, Sendable, Comparable, CustomStringConvertible {
  /// The TLS context cache (taken while connecting, before any of the fast path's).
  case tlsContexts = 0
  /// A connection's `messages` (its reader thread hands batches to the session's relay).
  case connectionMessages
  /// The session's `events` (its relay is the feed's fast path).
  case sessionEvents
  /// The feed shell's state (`FeedShellStorage`).
  case feedShell
  /// The feed's outbox (what its sender task sends).
  case feedOutbox
  /// The quote bus's list of outputs.
  case quoteBus
  /// An output's queue (its direct delivery runs under it).
  case outputQueue
  /// The stdout writer's state (`QuoteWriter`).
  case quoteWriter
  /// The board's dispatch sources (taken alone).
  case dispatchSources

  public static func < (a: LockRank, b: LockRank) -> Bool { a.rawValue < b.rawValue }

  public var description: String {
    switch self {
    case .tlsContexts: "TLS contexts"
    case .connectionMessages: "connection messages"
    case .sessionEvents: "session events"
    case .feedShell: "feed shell storage"
    case .feedOutbox: "feed outbox"
    case .quoteBus: "quote bus"
    case .outputQueue: "output queue"
    case .quoteWriter: "quote writer"
    case .dispatchSources: "dispatch sources"
    }
  }
}
