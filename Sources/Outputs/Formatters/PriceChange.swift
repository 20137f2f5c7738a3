import Venues

/// The change of a price since a reference (the symbol's first price since the ticker started),
/// as text for a terminal: the absolute change, exact (`ExactDecimal` on the prices' digits:
/// `95384.43 − 95372.09` is `+12.34`, never `+12.340000000004`), and the percentage with two
/// decimals (`+0.01%`). The sign is the exact change's: a fall too small to show in percent
/// still reads `-0.00%`; no change at all is `0.00` and `0.00%`.
public struct PriceChange: Sendable, Equatable {
  /// `+12.34`, `-0.25`, `0.00` (as many decimals as the more precise of the two prices).
  public let absolute: String
  /// `+0.01%`, `-0.11%`, `0.00%`; `n/a` when the reference is zero.
  public let percent: String
  /// 1 up, -1 down, 0 unchanged since the reference.
  public let sign: Int

  public init(from reference: Price, to current: Price) {
    sign = current > reference ? 1 : current < reference ? -1 : 0
    let signText = sign > 0 ? "+" : sign < 0 ? "-" : ""
    let percentValue: Double?
    if let start = ExactDecimal(reference), let now = ExactDecimal(current), let difference = now - start,
      let magnitude = difference.magnitude
    {
      absolute = signText + magnitude.description
      percentValue = difference.percent(of: start)
    } else {
      // Beyond 37 significant digits: as close as a Double gets, with the prices' decimals.
      let decimals = min(12, max(Self.decimals(reference.text), Self.decimals(current.text)))
      absolute = signText + Self.fixed(abs(current.value - reference.value), decimals: decimals)
      percentValue = reference.value == 0 ? nil : (current.value - reference.value) / reference.value * 100
    }
    if let percentValue {
      percent = signText + Self.fixed(abs(percentValue), decimals: 2) + "%"
    } else {
      percent = "n/a"
    }
  }

  /// The columns `text` (a change or a percentage) takes with room for a sign.
  static func signedWidth(_ text: String) -> Int {
    text.utf8.count + (text.hasPrefix("+") || text.hasPrefix("-") ? 0 : 1)
  }

  /// The digits after the point in a plain decimal.
  static func decimals(_ text: String) -> Int {
    guard let point = text.utf8.firstIndex(of: UInt8(ascii: ".")) else { return 0 }
    return text.utf8.distance(from: point, to: text.utf8.endIndex) - 1
  }

  /// A non-negative `value` with exactly `decimals` decimals, rounded half away from zero.
  static func fixed(_ value: Double, decimals: Int) -> String {
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = (value * scale).rounded(.toNearestOrAwayFromZero)
    guard scaled.isFinite, scaled < 9e18 else { return value.isFinite ? "\(value)" : "inf" }
    let digits = String(UInt64(scaled))
    guard decimals > 0 else { return digits }
    let padded = String(repeating: "0", count: max(0, decimals + 1 - digits.count)) + digits
    let split = padded.index(padded.endIndex, offsetBy: -decimals)
    return padded[..<split] + "." + padded[split...]
  }
}
