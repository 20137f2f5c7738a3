/// A decimal number held exactly — an integer mantissa and a count of fraction digits — for the
/// arithmetic the ticker shows or judges: the change of a price since the start (`+12.34`), and
/// alert thresholds (`>100000`, a move of `2.5%`), which must compare the digits the server sent,
/// never their binary approximations. Up to 37 significant digits (`Int128`); operations that
/// would need more return nil, and callers fall back to `Double` for display only.
public struct ExactDecimal: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// value = mantissa / 10^scale
  public let mantissa: Int128
  public let scale: Int

  public init(mantissa: Int128, scale: Int) {
    self.mantissa = mantissa
    self.scale = scale
  }

  /// A plain decimal (`-12.340`, `95372.09`, `7`); nil for anything else (exponents included:
  /// `Price.text` is always plain).
  public init?(_ text: some StringProtocol) {
    var negative = false
    var mantissa: Int128 = 0
    var scale = 0
    var digits = 0
    var seenPoint = false
    var any = false
    for (offset, byte) in text.utf8.enumerated() {
      switch byte {
      case UInt8(ascii: "-") where offset == 0: negative = true
      case UInt8(ascii: "+") where offset == 0: break
      case UInt8(ascii: ".") where !seenPoint: seenPoint = true
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        any = true
        if mantissa != 0 || byte != UInt8(ascii: "0") { digits += 1 }
        guard digits <= 37 else { return nil }
        mantissa = mantissa * 10 + Int128(byte - UInt8(ascii: "0"))
        if seenPoint { scale += 1 }
      default: return nil
      }
    }
    guard any else { return nil }
    self.init(mantissa: negative ? -mantissa : mantissa, scale: scale)
  }

  public init?(_ price: Price) { self.init(price.text) }

  public var isNegative: Bool { mantissa < 0 }
  /// The absolute value (nil only for the one mantissa whose negation does not fit).
  public var magnitude: ExactDecimal? {
    guard mantissa != .min else { return nil }
    return ExactDecimal(mantissa: mantissa < 0 ? -mantissa : mantissa, scale: scale)
  }

  /// Both numbers with the same scale; nil when that would not fit.
  package static func aligned(_ a: ExactDecimal, _ b: ExactDecimal) -> (Int128, Int128, Int)? {
    let scale = max(a.scale, b.scale)
    guard let x = a.mantissa.scaled(by: scale - a.scale), let y = b.mantissa.scaled(by: scale - b.scale)
    else {
      return nil
    }
    return (x, y, scale)
  }

  public static func - (a: ExactDecimal, b: ExactDecimal) -> ExactDecimal? {
    guard let (x, y, scale) = aligned(a, b) else { return nil }
    let (difference, overflow) = x.subtractingReportingOverflow(y)
    return overflow ? nil : ExactDecimal(mantissa: difference, scale: scale)
  }

  public static func * (a: ExactDecimal, b: ExactDecimal) -> ExactDecimal? {
    let (product, overflow) = a.mantissa.multipliedReportingOverflow(by: b.mantissa)
    return overflow ? nil : ExactDecimal(mantissa: product, scale: a.scale + b.scale)
  }

  public static func < (a: ExactDecimal, b: ExactDecimal) -> Bool {
    if let (x, y, _) = aligned(a, b) { return x < y }
    return a.doubleValue < b.doubleValue  // beyond 37 digits: as close as a Double gets
  }

  public static func == (a: ExactDecimal, b: ExactDecimal) -> Bool {
    if let (x, y, _) = aligned(a, b) { return x == y }
    return a.doubleValue == b.doubleValue
  }

  public func hash(into hasher: inout Hasher) {
    // Equal values hash alike: hash the value with trailing zeros removed.
    var m = mantissa
    var s = scale
    while s > 0 && m % 10 == 0 {
      m /= 10
      s -= 1
    }
    hasher.combine(m)
    hasher.combine(s)
  }

  public var doubleValue: Double { Double(mantissa) / pow10(scale) }

  /// The value with exactly `scale` fraction digits: `371.59`, `-0.5`, `12`.
  public var description: String {
    let digits = String(mantissa.magnitude)
    let sign = mantissa < 0 ? "-" : ""
    guard scale > 0 else { return sign + digits }
    let padded = String(repeating: "0", count: max(0, scale + 1 - digits.count)) + digits
    let split = padded.index(padded.endIndex, offsetBy: -scale)
    return sign + padded[..<split] + "." + padded[split...]
  }

  /// `self` as a share of `base`, in percent (for display: a `Double`); nil when `base` is 0.
  public func percent(of base: ExactDecimal) -> Double? {
    let b = base.doubleValue
    return b == 0 ? nil : doubleValue / b * 100
  }

  private func pow10(_ n: Int) -> Double {
    var result = 1.0
    for _ in 0..<n { result *= 10 }
    return result
  }
}

extension Int128 {
  /// `self × 10^n`, or nil when it does not fit.
  func scaled(by n: Int) -> Int128? {
    var value = self
    for _ in 0..<Swift.max(0, n) {
      let (next, overflow) = value.multipliedReportingOverflow(by: 10)
      if overflow { return nil }
      value = next
    }
    return value
  }
}
