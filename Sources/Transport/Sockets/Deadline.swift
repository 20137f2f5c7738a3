/// A point on the monotonic clock after which a blocking transport call gives up.
package struct Deadline: Sendable {
  let instant: ContinuousClock.Instant?

  /// `seconds` nil, non-finite or beyond ~30 years means "never".
  package init(seconds: Double?) {
    if let seconds, seconds.isFinite, seconds < 1e9 {
      instant = ContinuousClock.now.advanced(by: .milliseconds(Int64(max(0, seconds) * 1000)))
    } else {
      instant = nil
    }
  }

  static let never = Deadline(seconds: nil)

  /// Milliseconds left for `poll`: -1 for "forever", 0 once the deadline has passed.
  var pollMilliseconds: Int32 {
    guard let instant else { return -1 }
    let left = ContinuousClock.now.duration(to: instant)
    if left <= .zero { return 0 }
    let (seconds, attoseconds) = left.components
    let millis = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
    return Int32(clamping: millis)
  }

  var hasPassed: Bool {
    guard let instant else { return false }
    return ContinuousClock.now >= instant
  }
}

extension Deadline {
  /// Seconds left (never negative); nil for a deadline that never passes.
  var secondsLeft: Double? {
    guard let instant else { return nil }
    let (seconds, attoseconds) = ContinuousClock.now.duration(to: instant).components
    return max(0, Double(seconds) + Double(attoseconds) / 1e18)
  }
}
