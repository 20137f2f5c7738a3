import Testing

@testable import FeedRuntime
@testable import Outputs
@testable import Venues

@Suite struct WarningLimiterTests {
  typealias Instant = ContinuousClock.Instant
  let t0 = ContinuousClock.now

  @Test func burstThenSuppressedThenReported() {
    var limiter = WarningLimiter<Instant>(burst: 3, window: .seconds(10))
    let first = (0..<5).map { limiter.record("malformed", at: t0 + .milliseconds($0)) }
    #expect(first.map(\.emit) == [true, true, true, false, false])
    #expect(limiter.pendingSuppressed == ["malformed": 2])
    // Another kind has its own budget.
    #expect(limiter.record("binary", at: t0).emit)
    // After the window, the next one is printed and owns up to the two held back.
    let later = limiter.record("malformed", at: t0 + .seconds(11))
    #expect(later == .init(emit: true, suppressedBefore: 2))
    #expect(limiter.pendingSuppressed.isEmpty)
    #expect(limiter.totals == ["malformed": 6, "binary": 1])
  }

  @Test func slidingWindow() {
    var limiter = WarningLimiter<Instant>(burst: 2, window: .seconds(10))
    #expect(limiter.record("k", at: t0).emit)
    #expect(limiter.record("k", at: t0 + .seconds(6)).emit)
    #expect(!limiter.record("k", at: t0 + .seconds(9)).emit)
    // The first one left the window at t0 + 10 s.
    #expect(limiter.record("k", at: t0 + .seconds(10)).emit)
  }
}
