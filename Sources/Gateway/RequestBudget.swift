/// How many requests a `serve` client may make: a token bucket of `burst` requests, refilled at
/// `perSecond`. Bounds the subscription churn one client can push at the upstream (whose venue
/// may allow only a few messages a second). Pure: instants come from the caller.
public struct RequestBudget<Instant: InstantProtocol>: Sendable where Instant.Duration == Duration {
  public let burst: Double
  public let perSecond: Double
  private var tokens: Double
  private var last: Instant?

  public init(burst: Int, perSecond: Double) {
    self.burst = Double(burst)
    self.perSecond = perSecond
    tokens = Double(burst)
  }

  /// Spends one request at `now`; false when none is left.
  public mutating func spend(at now: Instant) -> Bool {
    if let last {
      let (seconds, attoseconds) = last.duration(to: now).components
      let elapsed = max(0, Double(seconds) + Double(attoseconds) / 1e18)
      tokens = min(burst, tokens + elapsed * perSecond)
    }
    last = now
    guard tokens >= 1 else { return false }
    tokens -= 1
    return true
  }
}
