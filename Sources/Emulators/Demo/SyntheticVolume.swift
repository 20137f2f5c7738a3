extension SyntheticTrades {
  /// A plain decimal volume in hundred-thousandths, the unit of `SyntheticTrade.volume`
  /// (`0.00049` → 49, `1.5` → 150000; further places dropped); nil when not positive or beyond a
  /// million. Emulators that make a book around a recorded trade read its size with it.
  static func parseVolume(_ plain: String) -> Int? {
    let parts = plain.split(separator: ".", maxSplits: 1)
    guard let whole = parts.first.flatMap({ Int($0) }), (0..<1_000_000).contains(whole) else { return nil }
    let fraction = parts.count == 2 ? String(parts[1].prefix(5)) : ""
    guard fraction.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
    let value = whole * 100_000 + (Int(fraction + String(repeating: "0", count: 5 - fraction.count)) ?? 0)
    return value > 0 ? value : nil
  }
}
