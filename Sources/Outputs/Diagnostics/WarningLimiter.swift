/// Rate-limits repeated warnings of one kind (a server sending garbage must not flood stderr)
/// while counting every occurrence. Per kind: at most `burst` warnings in any `window`; later
/// ones are counted and suppressed, and the next warning that gets through says how many were
/// held back. Pure: time is passed in.
public struct WarningLimiter<Instant: InstantProtocol>: Sendable where Instant.Duration == Swift.Duration {
  public struct Decision: Sendable, Equatable {
    /// Whether to print this warning.
    public var emit: Bool
    /// Warnings of this kind suppressed since the last one printed (say so when emitting).
    public var suppressedBefore: Int
  }

  public let burst: Int
  public let window: Duration
  private var recent: [String: [Instant]] = [:]
  private var suppressed: [String: Int] = [:]
  /// Every warning seen, by kind, printed or not.
  public private(set) var totals: [String: Int] = [:]

  public init(burst: Int = 5, window: Duration = .seconds(10)) {
    self.burst = max(1, burst)
    self.window = window
  }

  public mutating func record(_ kind: String, at now: Instant) -> Decision {
    totals[kind, default: 0] += 1
    var times = recent[kind, default: []].filter { $0.duration(to: now) < window }
    guard times.count < burst else {
      recent[kind] = times
      suppressed[kind, default: 0] += 1
      return Decision(emit: false, suppressedBefore: 0)
    }
    times.append(now)
    recent[kind] = times
    let held = suppressed.removeValue(forKey: kind) ?? 0
    return Decision(emit: true, suppressedBefore: held)
  }

  /// Suppressed warnings never reported, by kind (for a summary at exit).
  public var pendingSuppressed: [String: Int] { suppressed }
}
