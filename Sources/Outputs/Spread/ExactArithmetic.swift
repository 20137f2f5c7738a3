import Venues

/// The exact arithmetic the cross-venue board needs beyond `ExactDecimal`'s: sums, the median,
/// and a division rounded once, half away from zero, to a stated number of decimals. Every
/// answer is nil rather than wrong when the digits do not fit in `Int128`.
enum ExactArithmetic {
  static func sum(_ a: ExactDecimal, _ b: ExactDecimal) -> ExactDecimal? {
    guard let (x, y, scale) = ExactDecimal.aligned(a, b) else { return nil }
    let (total, overflow) = x.addingReportingOverflow(y)
    return overflow ? nil : ExactDecimal(mantissa: total, scale: scale)
  }

  /// The middle value; with an even count, the mean of the two middle ones — exact, since half
  /// of a decimal needs one more digit at most. nil for no values.
  static func median(_ values: [ExactDecimal]) -> ExactDecimal? {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return nil }
    let middle = sorted.count / 2
    if sorted.count % 2 == 1 { return sorted[middle] }
    guard let total = sum(sorted[middle - 1], sorted[middle]) else { return nil }
    let (half, overflow) = total.mantissa.multipliedReportingOverflow(by: 5)
    guard !overflow else { return nil }
    // x / 2 = 5x / 10: drop the extra digit again when it is a zero.
    if half % 10 == 0 { return ExactDecimal(mantissa: half / 10, scale: total.scale) }
    return ExactDecimal(mantissa: half, scale: total.scale + 1)
  }

  /// `a / b` rounded half away from zero to `decimals` fraction digits; nil when `b` is zero.
  static func divide(_ a: ExactDecimal, by b: ExactDecimal, decimals: Int) -> ExactDecimal? {
    guard b.mantissa != 0 else { return nil }
    // a / b × 10^d = (am × 10^(bs + d − as)) / bm
    let shift = b.scale + decimals - a.scale
    var numerator = a.mantissa
    var denominator = b.mantissa
    if shift >= 0 {
      guard let scaled = scale(numerator, by: shift) else { return nil }
      numerator = scaled
    } else {
      guard let scaled = scale(denominator, by: -shift) else { return nil }
      denominator = scaled
    }
    let (truncated, remainder) = numerator.quotientAndRemainder(dividingBy: denominator)
    var quotient = truncated
    let (twice, overflow) = remainder.magnitude.multipliedReportingOverflow(by: 2)
    if overflow || twice >= denominator.magnitude {
      quotient += (numerator < 0) == (denominator < 0) ? 1 : -1
    }
    return ExactDecimal(mantissa: quotient, scale: decimals)
  }

  /// `value × 10^n`, or nil when it does not fit.
  static func scale(_ value: Int128, by n: Int) -> Int128? {
    var result = value
    for _ in 0..<max(0, n) {
      let (next, overflow) = result.multipliedReportingOverflow(by: 10)
      if overflow { return nil }
      result = next
    }
    return result
  }

  /// `value` with its trailing fraction zeros removed, keeping at least `minimumScale` digits.
  static func trimmed(_ value: ExactDecimal, minimumScale: Int = 0) -> ExactDecimal {
    var mantissa = value.mantissa
    var scale = value.scale
    while scale > minimumScale && mantissa % 10 == 0 {
      mantissa /= 10
      scale -= 1
    }
    return ExactDecimal(mantissa: mantissa, scale: scale)
  }
}
