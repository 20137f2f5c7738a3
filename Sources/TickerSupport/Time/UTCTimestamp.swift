/// Epoch milliseconds → ISO 8601 / RFC 3339 UTC text with milliseconds
/// (`2026-01-17T13:18:52.976Z`), without Foundation (dates from `CivilDate`). Inlinable: the formatters write one per price.
public enum UTCTimestamp {
  /// Appends the timestamp for `milliseconds` since 1970-01-01T00:00:00Z. Negative values (before
  /// 1970) are handled; years outside 0...9999 are written with as many digits as they need.
  public static func append(milliseconds: Int64, to out: inout [UInt8]) {
    var days = DayCache()
    append(milliseconds: milliseconds, to: &out, days: &days)
  }

  /// The calendar date of the last day converted, and the text of the last second written. A
  /// feed's trades fall on one day for hours, and the conversion from a day number to a date was
  /// the largest part of a timestamp's cost; a busy feed's trades come many to a second, and
  /// their timestamps differ only in the milliseconds.
  public struct DayCache: Sendable {
    @usableFromInline var day = Int64.min
    @usableFromInline var date: (year: Int64, month: Int64, day: Int64) = (0, 0, 0)
    /// The second (since the epoch) whose text `YYYY-MM-DDTHH:MM:SS.` is `secondText`, when
    /// `write` wrote one.
    @usableFromInline var second = Int64.min
    @usableFromInline var secondText: (UInt64, UInt64, UInt32) = (0, 0, 0)

    public init() {}

    @inlinable
    mutating func date(ofDay day: Int64) -> (year: Int64, month: Int64, day: Int64) {
      if day != self.day {
        self.day = day
        date = CivilDate.civil(fromDays: day)
      }
      return date
    }
  }

  /// `append(milliseconds:to:)`, remembering the last day's date in `days`.
  @inlinable
  public static func append(milliseconds: Int64, to out: inout [UInt8], days cache: inout DayCache) {
    // The common case, a four-digit year: 24 bytes of stack, appended at once.
    let written = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: width) { b in
      guard write(milliseconds: milliseconds, to: b.baseAddress!, days: &cache) else { return false }
      out.append(contentsOf: UnsafeBufferPointer(start: b.baseAddress!, count: width))
      return true
    }
    if written { return }
    let (days, msOfDay) = floorDivide(milliseconds, 86_400_000)
    let year = cache.date(ofDay: days).year
    // The year with as many digits as needed (and a sign), then the fixed layout.
    if year < 0 { out.append(UInt8(ascii: "-")) }
    appendPadded(abs(year), width: 4, to: &out)
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { b in
      let date = cache.date(ofDay: days)
      writeRest(month: date.month, day: date.day, msOfDay: msOfDay, to: b.baseAddress!)
      out.append(contentsOf: UnsafeBufferPointer(b))
    }
  }

  /// How many bytes `write` writes: `2026-01-17T13:18:52.976Z`.
  public static var width: Int { 24 }

  /// Writes the timestamp for `milliseconds` as `width` bytes at `out` when its year has four
  /// digits (0...9999); false, writing nothing, otherwise.
  @inlinable @inline(__always)
  public static func write(
    milliseconds: Int64, to out: UnsafeMutablePointer<UInt8>, days cache: inout DayCache
  ) -> Bool {
    let (second, ms) = floorDivide(milliseconds, 1000)
    let raw = UnsafeMutableRawPointer(out)
    if second == cache.second {
      // The second's 20 bytes as they were written, then the milliseconds.
      raw.storeBytes(of: cache.secondText.0, as: UInt64.self)
      raw.storeBytes(of: cache.secondText.1, toByteOffset: 8, as: UInt64.self)
      raw.storeBytes(of: cache.secondText.2, toByteOffset: 16, as: UInt32.self)
      put(ms, digits: 3, into: out + 20)
      out[23] = UInt8(ascii: "Z")
      return true
    }
    let (days, msOfDay) = floorDivide(milliseconds, 86_400_000)
    let (year, month, day) = cache.date(ofDay: days)
    guard year >= 0 && year <= 9999 else { return false }
    put(year, digits: 4, into: out)
    writeRest(month: month, day: day, msOfDay: msOfDay, to: out + 4)
    cache.second = second
    cache.secondText = (
      raw.loadUnaligned(as: UInt64.self), raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self),
      raw.loadUnaligned(fromByteOffset: 16, as: UInt32.self)
    )
    return true
  }

  /// "-MM-DDTHH:MM:SS.mmmZ", 20 bytes at `b`.
  @inlinable @inline(__always)
  static func writeRest(month: Int64, day: Int64, msOfDay: Int64, to b: UnsafeMutablePointer<UInt8>) {
    let hour = msOfDay / 3_600_000
    let minute = msOfDay / 60_000 % 60
    let second = msOfDay / 1000 % 60
    let ms = msOfDay % 1000
    b[0] = UInt8(ascii: "-")
    put(month, digits: 2, into: b + 1)
    b[3] = UInt8(ascii: "-")
    put(day, digits: 2, into: b + 4)
    b[6] = UInt8(ascii: "T")
    put(hour, digits: 2, into: b + 7)
    b[9] = UInt8(ascii: ":")
    put(minute, digits: 2, into: b + 10)
    b[12] = UInt8(ascii: ":")
    put(second, digits: 2, into: b + 13)
    b[15] = UInt8(ascii: ".")
    put(ms, digits: 3, into: b + 16)
    b[19] = UInt8(ascii: "Z")
  }

  public static func string(milliseconds: Int64) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(24)
    append(milliseconds: milliseconds, to: &out)
    return String(decoding: out, as: UTF8.self)
  }

  @inlinable
  static func floorDivide(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
    // Int64.min cannot be negated safely; clamp to a representable range first.
    let a = max(a, Int64.min / 2)
    var q = a / b
    var r = a % b
    if r < 0 {
      q -= 1
      r += b
    }
    return (q, r)
  }

  /// Writes `value` (0 ≤ value < 10^digits) as exactly `digits` decimal digits.
  @inlinable @inline(__always)
  static func put(_ value: Int64, digits: Int, into b: UnsafeMutablePointer<UInt8>) {
    var v = value
    var i = digits - 1
    while i >= 0 {
      b[i] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v % 10)
      v /= 10
      i -= 1
    }
  }

  @usableFromInline
  static func appendPadded(_ value: Int64, width: Int, to out: inout [UInt8]) {
    var digits: [UInt8] = []
    var v = value
    repeat {
      digits.append(UInt8(ascii: "0") + UInt8(v % 10))
      v /= 10
    } while v > 0
    if digits.count < width {
      out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: width - digits.count))
    }
    out.append(contentsOf: digits.reversed())
  }
}
