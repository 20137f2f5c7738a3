/// RFC 3339 date-times (`2026-08-25T03:35:57.198335Z`) ↔ epoch time, without Foundation. The
/// fast writer of the ticker's own time column is `UTCTimestamp`.
///
/// Reading is strict: `YYYY-MM-DD`, `T` (or `t`), `HH:MM:SS`, an optional fraction of one or more digits,
/// then `Z` (or `z`) or an offset `±HH:MM`; nothing before or after. Days are checked against
/// the month (29 February only in leap years), hours 00–23, minutes 00–59, seconds 00–60 (RFC
/// 3339 allows a leap second; `:60` is read as the last millisecond of that minute, so time never
/// moves past the next minute). The fraction is truncated to milliseconds, never rounded up: the
/// result is never later than the instant written.
public enum RFC3339 {
  /// Epoch milliseconds, or nil when `text` is not an RFC 3339 date-time.
  public static func milliseconds(_ text: String) -> Int64? {
    var text = text
    return text.withUTF8 { milliseconds(UnsafeRawBufferPointer($0)) }
  }

  public static func milliseconds(_ bytes: UnsafeRawBufferPointer) -> Int64? {
    // The fixed part: "YYYY-MM-DDTHH:MM:SS" is 19 bytes.
    guard bytes.count >= 20,
      let year = digits(bytes, 0, 4), bytes[4] == UInt8(ascii: "-"),
      let month = digits(bytes, 5, 2), bytes[7] == UInt8(ascii: "-"),
      let day = digits(bytes, 8, 2), bytes[10] | 0x20 == UInt8(ascii: "t"),
      let hour = digits(bytes, 11, 2), bytes[13] == UInt8(ascii: ":"),
      let minute = digits(bytes, 14, 2), bytes[16] == UInt8(ascii: ":"),
      let second = digits(bytes, 17, 2)
    else { return nil }
    guard (1...12).contains(month), day >= 1, day <= CivilDate.daysIn(month: month, year: year), hour <= 23,
      minute <= 59,
      second <= 60
    else { return nil }
    var i = 19
    var millisecond: Int64 = 0
    if bytes[i] == UInt8(ascii: ".") {
      i += 1
      let start = i
      while i < bytes.count, bytes[i] &- 0x30 < 10 {
        if i - start < 3 { millisecond = millisecond * 10 + Int64(bytes[i] &- 0x30) }
        i += 1
      }
      guard i > start else { return nil }
      for _ in min(i - start, 3)..<3 { millisecond *= 10 }
    }
    guard i < bytes.count else { return nil }
    var offsetMinutes: Int64 = 0
    if bytes[i] | 0x20 == UInt8(ascii: "z") {
      i += 1
    } else {
      guard bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-"), i + 6 == bytes.count,
        let offsetHour = digits(bytes, i + 1, 2), bytes[i + 3] == UInt8(ascii: ":"),
        let offsetMinute = digits(bytes, i + 4, 2), offsetHour <= 23, offsetMinute <= 59
      else { return nil }
      offsetMinutes = offsetHour * 60 + offsetMinute
      if bytes[i] == UInt8(ascii: "-") { offsetMinutes = -offsetMinutes }
      i += 6
    }
    guard i == bytes.count else { return nil }
    if second == 60 { millisecond = 999 }
    let days = CivilDate.days(year: year, month: month, day: day)
    let seconds = days * 86_400 + hour * 3600 + minute * 60 + min(second, 59) - offsetMinutes * 60
    return seconds * 1000 + millisecond
  }

  /// `count` ASCII digits at `start` as a number; nil when any is not a digit.
  private static func digits(_ bytes: UnsafeRawBufferPointer, _ start: Int, _ count: Int) -> Int64? {
    var value: Int64 = 0
    for k in start..<start + count {
      let d = bytes[k] &- 0x30
      guard d < 10 else { return nil }
      value = value * 10 + Int64(d)
    }
    return value
  }

  /// The UTC time `microseconds` after the Unix epoch (non-negative) with six fraction digits,
  /// as Coinbase writes it: `2026-08-25T03:35:57.198335Z`.
  public static func format(microseconds: Int64) -> String {
    let seconds = microseconds / 1_000_000
    let fraction = microseconds % 1_000_000
    let secondOfDay = seconds % 86_400
    let (year, month, day) = CivilDate.civil(fromDays: seconds / 86_400)
    func two(_ n: Int64) -> String { String(n).leftPadded(to: 2) }
    return "\(String(year).leftPadded(to: 4))-\(two(month))-\(two(day))T\(two(secondOfDay / 3600)):"
      + "\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60)).\(String(fraction).leftPadded(to: 6))Z"
  }
}
