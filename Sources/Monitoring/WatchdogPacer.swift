/// When to send `WATCHDOG=1`, pure: fed instants, it answers whether to ping now.
///
/// A ping is due every `interval` (half the manager's timeout). On a due tick the run is asked
/// whether it is alive: alive, the ping goes out and the next is due an interval later; not
/// alive, nothing is sent — so a hung feed lets the timeout pass and the manager restarts the
/// service — and the question is asked again every `recheck`, so that a run that recovers pings
/// at once rather than up to an interval later, when the timeout may be all but gone.
public struct WatchdogPacer<Instant: InstantProtocol>: Sendable where Instant.Duration == Duration {
  public let interval: Duration
  /// How soon a run that was not alive is asked again: a quarter of the interval.
  public let recheck: Duration
  /// When `tick(at:isAlive:)` next has something to decide.
  public private(set) var nextTick: Instant
  /// When the last ping was answered for; nil before the first.
  public private(set) var lastPing: Instant?

  /// - Parameter start: the first ping is due an interval after it.
  public init(interval: Duration, start: Instant) {
    self.interval = interval
    recheck = interval / 4
    nextTick = start.advanced(by: interval)
  }

  /// Whether to send `WATCHDOG=1` now. `isAlive` is asked only when a ping is due.
  public mutating func tick(at now: Instant, isAlive: () -> Bool) -> Bool {
    guard now >= nextTick else { return false }
    guard isAlive() else {
      nextTick = now.advanced(by: recheck)
      return false
    }
    lastPing = now
    nextTick = now.advanced(by: interval)
    return true
  }
}
