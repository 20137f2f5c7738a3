/// A column of decimal numbers aligned on the decimal point, whose width only ever grows: the
/// integer parts (sign included) are right-aligned and the fractions left-aligned, so that
/// `95372.09`, `229.5` and `0.0042` line up on their points. Widths never shrink back, so a
/// column does not jump when a wide value scrolls away.
public struct DecimalColumn: Sendable, Equatable {
  /// Columns before the point (sign included).
  public private(set) var integerWidth = 0
  /// The point and the digits after it (0 when no value had a point).
  public private(set) var fractionWidth = 0
  /// Whether a sign slot is kept for unsigned values (`0.00` beside `+0.01`), so that the first,
  /// unsigned change does not make the column grow a moment later.
  public let signed: Bool

  public init(signed: Bool = false) {
    self.signed = signed
  }

  public var width: Int { integerWidth + fractionWidth }

  /// Widens the column for `text` if needed.
  public mutating func fit(_ text: String) {
    let (integer, fraction) = Self.split(text)
    let sign = signed && !(text.hasPrefix("+") || text.hasPrefix("-")) ? 1 : 0
    integerWidth = max(integerWidth, integer + sign)
    fractionWidth = max(fractionWidth, fraction)
  }

  /// Makes the column at least `width` columns wide (for a title wider than the values).
  public mutating func widen(to width: Int) {
    if width > self.width { integerWidth += width - self.width }
  }

  /// `text` padded to the column's width, its point in the column's place.
  public func pad(_ text: String) -> String {
    let (integer, fraction) = Self.split(text)
    return String(repeating: " ", count: max(0, integerWidth - integer)) + text
      + String(repeating: " ", count: max(0, fractionWidth - fraction))
  }

  /// (columns before the point, columns from the point on). Numbers here are ASCII.
  static func split(_ text: String) -> (Int, Int) {
    let count = text.utf8.count
    guard let point = text.utf8.firstIndex(of: UInt8(ascii: ".")) else { return (count, 0) }
    let before = text.utf8.distance(from: text.utf8.startIndex, to: point)
    return (before, count - before)
  }
}
