import Testing

@testable import TickerSupport

@Suite struct RFC3339Tests {
  @Test(arguments: [
    ("2026-08-25T03:35:57.198335Z", 1_787_628_957_198 as Int64),
    ("2022-10-19T23:28:22.061769Z", 1_666_222_102_061),
    ("1970-01-01T00:00:00Z", 0),
    ("1970-01-01T00:00:00.0009Z", 0),
    ("1970-01-01t00:00:00.1z", 100),
    ("1970-01-01T00:00:00.12Z", 120),
    ("1970-01-01T00:00:00.123456789123456789Z", 123),
    // Truncation never moves a time later, before 1970 too.
    ("1969-12-31T23:59:59.9995Z", -1),
    ("2000-02-29T23:59:59.999999Z", 951_868_799_999),
    ("2024-03-01T00:30:00+01:00", 1_709_249_400_000),
    ("2024-02-29T23:00:00-00:30", 1_709_249_400_000),
    ("2024-02-29T23:30:00+00:00", 1_709_249_400_000),
    // A leap second reads as the last millisecond of its minute.
    ("2016-12-31T23:59:60Z", 1_483_228_799_999),
    ("2016-12-31T23:59:60.5Z", 1_483_228_799_999),
    ("0000-01-01T00:00:00Z", -62_167_219_200_000),
    ("9999-12-31T23:59:59.999Z", 253_402_300_799_999),
  ])
  func validTimes(text: String, milliseconds: Int64) {
    #expect(RFC3339.milliseconds(text) == milliseconds)
  }

  @Test(arguments: [
    "", "2026-08-25", "2026-08-25T03:35:57", "2026-08-25T03:35:57.Z", "2026-08-25 03:35:57Z",
    "2026-08-25T03:35:57ZZ", " 2026-08-25T03:35:57Z", "2026-08-25T03:35:57Z ", "2026-13-01T00:00:00Z",
    "2026-00-01T00:00:00Z", "2026-01-00T00:00:00Z", "2026-04-31T00:00:00Z", "2023-02-29T00:00:00Z",
    "1900-02-29T00:00:00Z", "2026-01-01T24:00:00Z", "2026-01-01T00:60:00Z", "2026-01-01T00:00:61Z",
    "2026-01-01T00:00:00+24:00", "2026-01-01T00:00:00+01:60", "2026-01-01T00:00:00+0100",
    "2026-01-01T00:00:00+01",
    "2026-01-01T00:00:00+01:00:00", "+2026-01-01T00:00:00Z", "26-01-01T00:00:00Z", "2026-1-01T00:00:00Z",
    "2026-01-01T00:00:00.1", "2026-01-01T00:00:00,1Z", "２０２６-01-01T00:00:00Z", "2026-01-01T00:00:0aZ",
  ])
  func invalidTimes(text: String) {
    #expect(RFC3339.milliseconds(text) == nil)
  }

  /// What `UTCTimestamp` writes (years 0…9999), this reads back to the same instant.
  @Test func roundTripsUTCTimestamp() {
    var generator = SplitMix64(seed: 3339)
    let low: Int64 = -62_167_219_200_000
    let high: Int64 = 253_402_300_799_999
    var checked = 0
    for _ in 0..<20_000 {
      let ms = low + Int64(generator.next() % UInt64(high - low + 1))
      let text = UTCTimestamp.string(milliseconds: ms)
      #expect(RFC3339.milliseconds(text) == ms, "\(text)")
      checked += 1
    }
    #expect(checked == 20_000)
  }

  /// The formatters keep the last day's date (`DayCache`): with it, every timestamp is the one
  /// written without it, whether the next time is on the same day, the next, or far away.
  @Test func theDayCacheChangesNoTimestamp() {
    var generator = SplitMix64(seed: 86_400)
    var days = UTCTimestamp.DayCache()
    var ms: Int64 = 1_768_655_932_976
    for step in 0..<20_000 {
      switch generator.next() % 4 {
      case 0: ms = Int64(bitPattern: generator.next()) / 1_000  // anywhere, negative included
      case 1: ms = -ms
      default: ms += Int64(generator.next() % 7_200_000)  // within hours: mostly the same day
      }
      var cached: [UInt8] = []
      UTCTimestamp.append(milliseconds: ms, to: &cached, days: &days)
      var fresh: [UInt8] = []
      UTCTimestamp.append(milliseconds: ms, to: &fresh)
      #expect(cached == fresh, "step \(step): \(ms)")
    }
  }

  @Test func daysFromCivilInvertsCivilFromDays() {
    for days in stride(from: Int64(-719_528), through: 2_932_896, by: 97) {
      let (y, m, d) = CivilDate.civil(fromDays: days)
      #expect(CivilDate.days(year: y, month: m, day: d) == days)
    }
  }
}
