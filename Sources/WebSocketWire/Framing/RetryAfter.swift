import TickerSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The `Retry-After` header (RFC 9110 §10.2.3), parsed without trusting it: a delay in seconds,
/// or an HTTP-date turned into the seconds left until then.
///
/// Never traps, whatever the value: delays too large for an `Int` saturate at `Int.max` (the
/// session caps the wait at `Backoff.retryAfterCeiling`), a date in the past means 0, and a
/// negative, fractional or otherwise malformed value is ignored (nil: as if the header were absent).
public enum RetryAfter {
  /// Seconds to wait, or nil when `value` is not a valid `Retry-After`.
  /// - Parameter now: the current time in seconds since the Unix epoch (for the HTTP-date form).
  public static func seconds(from value: String, now: Int64) -> Int? {
    let text = value.trimmingSpaces
    guard !text.isEmpty else { return nil }
    if text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
      var result = 0
      for digit in text.utf8 {
        let (times10, overflow1) = result.multipliedReportingOverflow(by: 10)
        let (sum, overflow2) = times10.addingReportingOverflow(Int(digit - UInt8(ascii: "0")))
        if overflow1 || overflow2 { return Int.max }
        result = sum
      }
      return result
    }
    guard let date = HTTPDate.epochSeconds(text, currentYear: 1970 + now / 31_556_952) else { return nil }
    return date <= now ? 0 : Int(clamping: date - now)
  }
}

/// The three date formats RFC 9110 §5.6.7 requires a recipient to accept:
///
///     Sun, 06 Nov 1994 08:49:37 GMT    (IMF-fixdate)
///     Sunday, 06-Nov-94 08:49:37 GMT   (obsolete RFC 850; two-digit years per RFC 9110: a year
///                                       more than 50 years ahead means the century before)
///     Sun Nov  6 08:49:37 1994         (ANSI C asctime)
enum HTTPDate {
  static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

  /// Seconds since the Unix epoch, or nil when `text` is none of the three forms.
  static func epochSeconds(_ text: String, currentYear: Int64) -> Int64? {
    let words = text.split(whereSeparator: { $0 == " " }).map(String.init)
    if words.count == 6, words[0].hasSuffix(","), words[5] == "GMT" {
      // IMF-fixdate: day month year time GMT.
      guard let day = number(words[1], digits: 2), let month = month(words[2]),
        let year = number(words[3], digits: 4)
      else { return nil }
      return combine(year: year, month: month, day: day, time: words[4])
    }
    if words.count == 4, words[0].hasSuffix(","), words[3] == "GMT" {
      // RFC 850: dd-Mon-yy time GMT.
      let parts = words[1].split(separator: "-", omittingEmptySubsequences: false).map(String.init)
      guard parts.count == 3, let day = number(parts[0], digits: 2), let month = month(parts[1]),
        let yy = number(parts[2], digits: 2)
      else { return nil }
      var year = (currentYear / 100) * 100 + yy
      if year > currentYear + 50 { year -= 100 }
      return combine(year: year, month: month, day: day, time: words[2])
    }
    if words.count == 5 {
      // asctime: weekday month day time year (the day may be padded with a space).
      guard let month = month(words[1]), let day = number(words[2], digits: nil),
        let year = number(words[4], digits: 4)
      else { return nil }
      return combine(year: year, month: month, day: day, time: words[3])
    }
    return nil
  }

  private static func month(_ text: String) -> Int64? {
    guard text.count == 3, let index = months.firstIndex(of: text.lowercased()) else { return nil }
    return Int64(index + 1)
  }

  /// Decimal digits only (exactly `digits` of them when given).
  private static func number(_ text: String, digits: Int?) -> Int64? {
    guard !text.isEmpty, text.count <= 4, digits.map({ text.count == $0 }) ?? true,
      text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
    else { return nil }
    return Int64(text)
  }

  private static func combine(year: Int64, month: Int64, day: Int64, time: String) -> Int64? {
    let hms = time.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
    guard hms.count == 3, let h = number(hms[0], digits: 2), let m = number(hms[1], digits: 2),
      let s = number(hms[2], digits: 2), h < 24, m < 60, s < 61, (1...31).contains(day)
    else { return nil }
    return CivilDate.days(year: year, month: month, day: day) * 86_400 + h * 3600 + m * 60 + s
  }
}
