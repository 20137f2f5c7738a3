/// The reconnect delay rules, pure: retry number → delay, with jitter drawn by the caller.
///
/// Retry `n` (1-based, counted since the last healthy connection) waits
/// `base(n) = min(maximumDelay, initialDelay × multiplier^(n−1))`, shortened by jitter to
/// `base(n) × (1 − jitter × u)` for a uniform `u` in `0..<1`. The defaults give 0.25–0.5 s, then
/// 0.5–1 s, 1–2 s, … up to 30–60 s. After HTTP 429 the delay is at least `Retry-After` or
/// `rateLimitDelay`. The retry count starts over once a connection stayed healthy `resetAfter`.
public struct Backoff: Sendable, Equatable {
  public var initialDelay: Duration
  public var multiplier: Double
  public var maximumDelay: Duration
  /// The fraction (0...1) of the delay that jitter may take off.
  public var jitter: Double
  /// A connection healthy this long resets the retry count.
  public var resetAfter: Duration
  /// The least wait after HTTP 429 without `Retry-After`.
  public var rateLimitDelay: Duration
  /// The longest wait a `Retry-After` can ask for; larger values wait this long.
  public var retryAfterCeiling: Duration

  /// The default `retryAfterCeiling`: 10 minutes. A server that asks for more (a day, or
  /// 9223372036854775807 s) is asked again after this.
  public static let defaultRetryAfterCeiling: Duration = .seconds(600)

  public init(
    initialDelay: Duration = .milliseconds(500),
    multiplier: Double = 2,
    maximumDelay: Duration = .seconds(60),
    jitter: Double = 0.5,
    resetAfter: Duration = .seconds(30),
    rateLimitDelay: Duration = .seconds(60),
    retryAfterCeiling: Duration = Backoff.defaultRetryAfterCeiling
  ) {
    self.initialDelay = initialDelay
    self.multiplier = multiplier
    self.maximumDelay = maximumDelay
    self.jitter = jitter
    self.resetAfter = resetAfter
    self.rateLimitDelay = rateLimitDelay
    self.retryAfterCeiling = retryAfterCeiling
  }

  /// The delay before retry `retry` (1-based) without jitter, capped at `maximumDelay`.
  public func baseDelay(forRetry retry: Int) -> Duration {
    let cap = seconds(maximumDelay)
    var delay = seconds(initialDelay)
    var step = 1
    while step < retry && delay < cap {
      delay *= multiplier
      step += 1
    }
    return .seconds(min(max(delay, 0), max(cap, 0)))
  }

  /// The delay before retry `retry`, with jitter `unit` (in `0..<1`) and a lower bound
  /// `notBefore` (from `minimumDelay(for:)`).
  public func delay(forRetry retry: Int, unit: Double, notBefore: Duration = .zero) -> Duration {
    let fraction = min(max(jitter, 0), 1) * min(max(unit, 0), 1)
    let jittered = Duration.seconds(seconds(baseDelay(forRetry: retry)) * (1 - fraction))
    return max(jittered, notBefore)
  }

  /// The delay with jitter drawn from `random`.
  public func delay(
    forRetry retry: Int, notBefore: Duration = .zero, using random: inout some RandomNumberGenerator
  ) -> Duration {
    delay(forRetry: retry, unit: Double.random(in: 0..<1, using: &random), notBefore: notBefore)
  }

  /// The least delay a disposition asks for: `Retry-After` seconds (at most `retryAfterCeiling`),
  /// or `rateLimitDelay` after a 429 without one; zero otherwise.
  public func minimumDelay(for disposition: Disposition) -> Duration {
    guard case .rateLimited(let retryAfter) = disposition else { return .zero }
    guard let retryAfter else { return rateLimitDelay }
    let ceiling = retryAfterCeiling.components.seconds
    return .seconds(min(Int64(clamping: max(retryAfter, 0)), max(ceiling, 0)))
  }

  /// Whether a connection that stayed healthy for `healthy` starts the retry count over.
  public func resets(afterHealthy healthy: Duration) -> Bool {
    healthy >= resetAfter
  }

  private func seconds(_ duration: Duration) -> Double {
    let (s, atto) = duration.components
    return Double(s) + Double(atto) / 1e18
  }
}
