/// RFC 3339 UTC times with microseconds, as Coinbase writes them
/// (`2026-08-25T03:35:57.198335Z`), without Foundation.
enum RFC3339 {
  /// The time `microseconds` after the Unix epoch (non-negative).
  static func format(microseconds: Int64) -> String {
    let seconds = microseconds / 1_000_000
    let fraction = microseconds % 1_000_000
    let days = seconds / 86_400
    let secondOfDay = seconds % 86_400
    let (year, month, day) = civil(daysSinceEpoch: days)
    func two(_ n: Int64) -> String { String(n).leftPadded(to: 2) }
    return "\(String(year).leftPadded(to: 4))-\(two(month))-\(two(day))T\(two(secondOfDay / 3600)):"
      + "\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60)).\(String(fraction).leftPadded(to: 6))Z"
  }

  /// The proleptic Gregorian date of a day number (days since 1970-01-01), after Howard
  /// Hinnant's `civil_from_days`.
  static func civil(daysSinceEpoch: Int64) -> (year: Int64, month: Int64, day: Int64) {
    let z = daysSinceEpoch + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let mp = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  /// Milliseconds since the Unix epoch of `2026-08-25T03:35:57.198335Z` (UTC, `Z` only); nil
  /// when `text` is not such a time.
  static func milliseconds(_ text: String) -> Int64? {
    let bytes = Array(text.utf8)
    guard bytes.count >= 20, bytes.last == UInt8(ascii: "Z") else { return nil }
    func number(_ range: Range<Int>) -> Int64? {
      guard range.upperBound <= bytes.count, bytes[range].allSatisfy({ (48...57).contains($0) }) else {
        return nil
      }
      return Int64(String(decoding: bytes[range], as: UTF8.self))
    }
    guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
      let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
      (1...12).contains(month), (1...31).contains(day)
    else { return nil }
    var millis: Int64 = 0
    if bytes[19] == UInt8(ascii: ".") {
      let digits = bytes[20..<(bytes.count - 1)].prefix(3)
      guard let value = number(20..<(20 + digits.count)) else { return nil }
      millis = value * [100, 10, 1][max(0, digits.count - 1)]
    }
    let days = daysSinceEpoch(year: year, month: month, day: day)
    return ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + millis
  }

  /// Howard Hinnant's `days_from_civil`.
  static func daysSinceEpoch(year: Int64, month: Int64, day: Int64) -> Int64 {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }
}
