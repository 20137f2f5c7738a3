import Testing
import Transport

@Suite("Session backoff")
struct SessionBackoffTests {
  let backoff = Backoff()

  @Test func defaults() {
    #expect(backoff.initialDelay == .milliseconds(500))
    #expect(backoff.multiplier == 2)
    #expect(backoff.maximumDelay == .seconds(60))
    #expect(backoff.jitter == 0.5)
    #expect(backoff.resetAfter == .seconds(30))
    #expect(backoff.rateLimitDelay == .seconds(60))
  }

  @Test(arguments: [
    (1, Duration.milliseconds(500)), (2, .seconds(1)), (3, .seconds(2)), (4, .seconds(4)),
    (5, .seconds(8)), (6, .seconds(16)), (7, .seconds(32)), (8, .seconds(60)), (9, .seconds(60)),
    (100, .seconds(60)), (Int.max, .seconds(60)),
  ])
  func baseDelayDoublesUpToTheCap(retry: Int, expected: Duration) {
    #expect(backoff.baseDelay(forRetry: retry) == expected)
    #expect(backoff.delay(forRetry: retry, unit: 0) == expected)
  }

  @Test(arguments: [
    (1, 0.5, Duration.milliseconds(375)), (1, 0.999_999, .milliseconds(250)), (2, 0.5, .milliseconds(750)),
    (3, 0.25, .milliseconds(1750)), (8, 0.5, .seconds(45)), (8, 1.0, .seconds(30)),
  ])
  func jitterShortensTheDelayByUpToHalf(retry: Int, unit: Double, expected: Duration) {
    let delay = backoff.delay(forRetry: retry, unit: unit)
    #expect(abs((delay - expected) / .microseconds(1)) < 1, "\(delay)")
  }

  @Test func firstRetryIsWithinASecondWhateverTheJitter() {
    for unit in stride(from: 0.0, to: 1.0, by: 0.125) {
      let delay = backoff.delay(forRetry: 1, unit: unit)
      #expect(delay > .zero && delay <= .milliseconds(500))
    }
  }

  @Test func aCustomCapAndMultiplier() {
    let custom = Backoff(initialDelay: .seconds(1), multiplier: 3, maximumDelay: .seconds(10), jitter: 0)
    #expect(
      (1...5).map { custom.delay(forRetry: $0, unit: 0.7) } == [
        .seconds(1), .seconds(3), .seconds(9), .seconds(10), .seconds(10),
      ])
  }

  @Test func jitterFromAGenerator() {
    var random = ConstantRandom(1 << 52)  // Double.random(in: 0..<1) == 0.5 (it uses the low 53 bits)
    #expect(backoff.delay(forRetry: 2, using: &random) == .milliseconds(750))
  }

  @Test func retryAfterIsTheLeastDelay() {
    let withRetryAfter = backoff.minimumDelay(for: .rateLimited(retryAfterSeconds: 17))
    #expect(withRetryAfter == .seconds(17))
    #expect(backoff.delay(forRetry: 1, unit: 0, notBefore: withRetryAfter) == .seconds(17))
    // A Retry-After shorter than the backoff does not shorten it.
    #expect(backoff.delay(forRetry: 8, unit: 0, notBefore: .seconds(2)) == .seconds(60))
    // Nor does the cap shorten a longer Retry-After.
    #expect(backoff.delay(forRetry: 1, unit: 0, notBefore: .seconds(120)) == .seconds(120))
  }

  @Test func rateLimitedWithoutRetryAfterWaitsAMinute() {
    let least = backoff.minimumDelay(for: .rateLimited(retryAfterSeconds: nil))
    #expect(least == .seconds(60))
    #expect(backoff.delay(forRetry: 1, unit: 0.5, notBefore: least) == .seconds(60))
  }

  @Test(arguments: [Disposition.reconnect, .fatal, .endNormally])
  func otherDispositionsHaveNoLeastDelay(disposition: Disposition) {
    #expect(backoff.minimumDelay(for: disposition) == .zero)
  }

  @Test func resetsAfterThirtyHealthySeconds() {
    #expect(!backoff.resets(afterHealthy: .zero))
    #expect(!backoff.resets(afterHealthy: .seconds(29.999)))
    #expect(backoff.resets(afterHealthy: .seconds(30)))
    #expect(backoff.resets(afterHealthy: .seconds(3600)))
    #expect(Backoff(resetAfter: .seconds(5)).resets(afterHealthy: .seconds(5)))
  }
}

/// A generator that always answers the same value: jitter becomes a known fraction.
struct ConstantRandom: RandomNumberGenerator, Sendable {
  var value: UInt64
  init(_ value: UInt64) { self.value = value }
  mutating func next() -> UInt64 { value }
}
