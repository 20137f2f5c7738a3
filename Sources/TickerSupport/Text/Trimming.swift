extension StringProtocol {
  /// The text without leading and trailing spaces and tabs.
  public var trimmingSpaces: String {
    var scalars = Substring(self).unicodeScalars[...]
    while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
    while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
    return String(String.UnicodeScalarView(scalars))
  }

  /// The text with "0"s in front up to `width` characters.
  public func leftPadded(to width: Int) -> String {
    count >= width ? String(self) : String(repeating: "0", count: width - count) + self
  }
}
