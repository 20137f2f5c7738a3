import Testing

@testable import FeedRuntime
@testable import JSON
@testable import Outputs
@testable import TickerSupport
@testable import Venues

@Suite struct FormatterTests {
  @Test(arguments: [
    (Int64(1_768_655_932_976), "2026-01-17T13:18:52.976Z"),
    (0, "1970-01-01T00:00:00.000Z"),
    (-1, "1969-12-31T23:59:59.999Z"),
    (951_782_400_000, "2000-02-29T00:00:00.000Z"),
    (4_102_444_800_000, "2100-01-01T00:00:00.000Z"),
    (253_402_300_799_999, "9999-12-31T23:59:59.999Z"),
    (-62_135_596_800_000, "0001-01-01T00:00:00.000Z"),
    (-62_167_219_200_000, "0000-01-01T00:00:00.000Z"),
    (-62_167_219_200_001, "-0001-12-31T23:59:59.999Z"),
    (253_402_300_800_000, "10000-01-01T00:00:00.000Z"),
  ])
  func isoTimestamps(ms: Int64, expected: String) {
    #expect(UTCTimestamp.string(milliseconds: ms) == expected)
  }

  /// Checks civil-from-days against plain day counting over 1960...2200.
  @Test func civilDatesMatchDayCounting() {
    func isLeap(_ y: Int64) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }
    var days: Int64 = -3653  // 1960-01-01
    for year in Int64(1960)...2200 {
      for month in Int64(1)...12 {
        let lengths: [Int64] = [31, isLeap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        for day in 1...lengths[Int(month - 1)] {
          let got = CivilDate.civil(fromDays: days)
          if got != (year, month, day) {
            Issue.record("day \(days): \(got) != \(year)-\(month)-\(day)")
            return
          }
          days += 1
        }
      }
    }
    #expect(days > 80_000)
  }

  /// One cache through a run of times — many in one second, seconds and days apart, before 1970,
  /// beyond four-digit years and back — writes what a fresh conversion of each writes.
  @Test func cachedSecondsAndDaysWriteWhatAFreshConversionWrites() {
    var random = SplitMix64(seed: 11)
    var cache = UTCTimestamp.DayCache()
    var time: Int64 = -2_500
    var times: [Int64] = []
    for step in 0..<20_000 {
      switch Int.random(in: 0..<100, using: &random) {
      case 0: time = Int64.random(in: -62_167_219_200_001...253_402_300_800_000, using: &random)
      case 1: time = [Int64.max, .min, 253_402_300_800_000, -62_167_219_200_001][step % 4]
      case 2..<10: time = time &+ Int64.random(in: -2_000...90_000_000, using: &random)
      default: time = time &+ Int64.random(in: 0...3, using: &random)
      }
      times.append(time)
    }
    for time in times {
      var out: [UInt8] = []
      UTCTimestamp.append(milliseconds: time, to: &out, days: &cache)
      #expect(String(decoding: out, as: UTF8.self) == UTCTimestamp.string(milliseconds: time), "\(time)")
    }
  }

  @Test func extremeTimesDoNotTrap() {
    #expect(!UTCTimestamp.string(milliseconds: .max).isEmpty)
    #expect(!UTCTimestamp.string(milliseconds: .min).isEmpty)
  }

  let btc = Quote(
    symbol: "BINANCE:BTCUSDT", price: Price("95372.09")!, volume: Price("0.00063"), time: 1_768_655_932_976)

  @Test func textLine() {
    var formatter = TextFormatter()
    #expect(formatter.format(btc) == "2026-01-17T13:18:52.976Z\tBINANCE:BTCUSDT\t95372.09\n")
    let spaced = Quote(symbol: "IC MARKETS:1", price: Price("1.16539E8")!, time: 0)
    #expect(formatter.format(spaced) == "1970-01-01T00:00:00.000Z\tIC MARKETS:1\t116539000\n")
  }

  /// The plain line is written in one piece into stack memory when it can be: whatever the
  /// quote, the line is the fields written one by one (the timestamp, the escaped symbol, the
  /// price text), with a five-digit or negative year, a symbol that needs escapes, long texts.
  @Test func textLineEqualsItsFields() {
    let symbols = [
      "BINANCE:BTCUSDT", "A", "", "IC MARKETS:1", "tab\there", "back\\slash", "é", "\u{7F}",
      String(repeating: "S", count: 64), String(repeating: "L", count: 65),
      String(repeating: "M", count: 300),
    ]
    let prices = [
      "95372.09", "0", "-1.5", "1" + String(repeating: "0", count: 70),
      "1." + String(repeating: "5", count: 62),
    ]
    let times: [Int64] = [
      1_768_655_932_976, 0, -1, 253_402_300_799_999, 253_402_300_800_000, -62_167_219_200_001, .max, .min,
    ]
    for choice in TimestampChoice.allCases {
      var formatter = TextFormatter(timestamps: choice)
      for symbol in symbols {
        for price in prices {
          for time in times {
            let quote = Quote(symbol: symbol, price: Price(price)!, time: time, received: time / 2)
            var expected = ""
            if let ms = choice.milliseconds(of: quote) {
              expected += UTCTimestamp.string(milliseconds: ms) + "\t"
            }
            expected += TerminalText.escaped(symbol) + "\t" + price + "\n"
            #expect(formatter.format(quote) == expected, "\(choice) \(symbol) \(price) \(time)")
          }
        }
      }
    }
  }

  /// A batch is formatted as its quotes one at a time, in every format and setting, whatever
  /// the quotes (escapes, long texts, colour changes within the batch), from any slice.
  @Test func batchEqualsQuotesOneByOne() {
    let quotes = [
      btc, Quote(symbol: "A", price: Price("10")!, time: 0),
      Quote(symbol: "A", price: Price("10.5")!, time: -1),
      Quote(symbol: "tab\there", price: Price("4.9E-4")!, time: 253_402_300_800_000, received: 7),
      Quote(symbol: String(repeating: "L", count: 65), price: Price("9")!, time: .max),
      Quote(symbol: "A", price: Price("1." + String(repeating: "5", count: 62))!, time: .min),
      Quote(symbol: "é", price: Price("9")!, volume: Price("2"), time: 5, received: 6),
    ]
    var formatters: [any QuoteFormatter] = []
    for choice in TimestampChoice.allCases {
      for useColor in [false, true] {
        formatters.append(TextFormatter(useColor: useColor, timestamps: choice))
        for format in OutputFormat.allCases {
          formatters.append(
            format.makeFormatter(
              FormatContext(useColor: useColor, timestamps: choice, isTerminal: useColor, symbols: ["A"])))
        }
      }
    }
    for formatter in formatters {
      var one = formatter
      var batch = formatter
      var expected: [UInt8] = []
      var got: [UInt8] = []
      let doubled = quotes + quotes
      for quote in doubled { one.append(quote, to: &expected) }
      batch.append(contentsOf: quotes[...], to: &got)
      batch.append(contentsOf: doubled[quotes.count...], to: &got)
      #expect(got == expected, "\(type(of: formatter))")
    }
  }

  @Test func textColourFollowsDirectionPerSymbol() {
    var formatter = TextFormatter(useColor: true)
    func line(_ symbol: String, _ price: String) -> String {
      formatter.format(Quote(symbol: symbol, price: Price(price)!, time: 0))
    }
    let prefix = "1970-01-01T00:00:00.000Z\t"
    #expect(line("A", "10") == prefix + "A\t10\n")
    #expect(line("A", "10.5") == prefix + "A\t\u{1B}[32m10.5\u{1B}[0m\n")
    #expect(line("B", "1") == prefix + "B\t1\n")
    #expect(line("A", "10.50") == prefix + "A\t10.50\n")
    #expect(line("A", "9") == prefix + "A\t\u{1B}[31m9\u{1B}[0m\n")
    #expect(line("B", "0.5") == prefix + "B\t\u{1B}[31m0.5\u{1B}[0m\n")

    var plain = TextFormatter(useColor: false)
    let lines = ["10", "11", "9"].map { plain.format(Quote(symbol: "A", price: Price($0)!, time: 0)) }
    #expect(!lines.joined().utf8.contains(0x1B))
  }

  @Test func jsonLine() throws {
    var formatter = JSONLinesFormatter()
    let line = formatter.format(btc)
    #expect(
      line
        == #"{"symbol":"BINANCE:BTCUSDT","price":95372.09,"time":"2026-01-17T13:18:52.976Z","t":1768655932976,"volume":0.00063,"received":null,"rt":null,"provider":"finnhub"}"#
        + "\n")
    let parsed = try JSONParser().parse(String(line.dropLast()))
    #expect(parsed["price"] == .number("95372.09"))
    let odd = Quote(symbol: "IC \"M\"", price: Price("4.9E-4")!, time: -1)
    #expect(
      formatter.format(odd)
        == #"{"symbol":"IC \"M\"","price":0.00049,"time":"1969-12-31T23:59:59.999Z","t":-1,"volume":null,"received":null,"rt":null,"provider":"finnhub"}"#
        + "\n")
  }

  @Test func bufferAndStringFormsAgree() {
    var a = TextFormatter()
    var b = TextFormatter()
    var buffer: [UInt8] = Array("x".utf8)
    a.append(btc, to: &buffer)
    #expect(String(decoding: buffer, as: UTF8.self) == "x" + b.format(btc))
  }

  @Test func textEscapesControlCharactersInTheSymbol() {
    var formatter = TextFormatter(useColor: false)
    let quote = Quote(symbol: "X\t1\n\u{1B}[2J\u{85}", price: Price("2.5")!, time: 0)
    #expect(formatter.format(quote) == "1970-01-01T00:00:00.000Z\tX\\t1\\n\\x1b[2J\\u0085\t2.5\n")
  }

  @Test func jsonEscapesC1ControlsAndBidiOverridesToo() {
    var formatter = JSONLinesFormatter()
    let quote = Quote(symbol: "A\u{7F}\u{9B}\u{202E}\u{2028}é\"\\", price: Price("1")!, time: 0)
    #expect(
      formatter.format(quote)
        == #"{"symbol":"A\u007f\u009b\u202e\u2028é\"\\","price":1,"time":"1970-01-01T00:00:00.000Z","t":0,"volume":null,"received":null,"rt":null,"provider":"finnhub"}"#
        + "\n")
  }

  @Test func jsonCarriesTheReceiveTimeAndTheProvider() throws {
    var formatter = JSONLinesFormatter(provider: "binance")
    var quote = btc
    quote.received = 1_768_655_933_012
    let line = formatter.format(quote)
    #expect(
      line.hasSuffix(
        #","received":"2026-01-17T13:18:53.012Z","rt":1768655933012,"provider":"binance"}"# + "\n"))
    let parsed = try JSONParser().parse(String(line.dropLast()))
    #expect(parsed["rt"] == .number("1768655933012"))
    #expect(parsed["provider"] == .string("binance"))
  }

  @Test func textTimestampsChooseTheTimeColumn() {
    var quote = btc
    quote.received = 1_768_655_933_012
    var trade = TextFormatter(timestamps: .trade)
    var received = TextFormatter(timestamps: .received)
    var none = TextFormatter(timestamps: .none)
    #expect(trade.format(quote) == "2026-01-17T13:18:52.976Z\tBINANCE:BTCUSDT\t95372.09\n")
    #expect(received.format(quote) == "2026-01-17T13:18:53.012Z\tBINANCE:BTCUSDT\t95372.09\n")
    #expect(none.format(quote) == "BINANCE:BTCUSDT\t95372.09\n")
  }

  @Test func csvHeaderAndRows() {
    var csv = DelimitedFormatter(separator: .comma)
    #expect(csv.header.map { String(decoding: $0, as: UTF8.self) } == "time,symbol,price,volume\n")
    #expect(csv.format(btc) == "2026-01-17T13:18:52.976Z,BINANCE:BTCUSDT,95372.09,0.00063\n")
    let noVolume = Quote(symbol: "AAPL", price: Price("1.5")!, time: 0)
    #expect(csv.format(noVolume) == "1970-01-01T00:00:00.000Z,AAPL,1.5,\n")
    var received = DelimitedFormatter(separator: .comma, timestamps: .received)
    #expect(received.header.map { String(decoding: $0, as: UTF8.self) } == "received,symbol,price,volume\n")
    var none = DelimitedFormatter(separator: .comma, timestamps: .none)
    #expect(none.header.map { String(decoding: $0, as: UTF8.self) } == "symbol,price,volume\n")
    #expect(none.format(noVolume) == "AAPL,1.5,\n")
    _ = received.format(btc)
  }

  /// RFC 4180 section 2: fields with commas, double quotes or line breaks are enclosed in double
  /// quotes, and a double quote inside is escaped by doubling it.
  @Test(arguments: [
    ("A,B", #""A,B""#),
    (#"say "hi""#, #""say ""hi""""#),
    (" padded ", #"" padded ""#),
    ("inner space", "inner space"),
    ("plain", "plain"),
    ("new\nline", #"new\nline"#),  // the line feed was escaped by TerminalText first
  ])
  func csvQuotesPerRFC4180(symbol: String, field: String) {
    var csv = DelimitedFormatter(separator: .comma, timestamps: .none)
    #expect(csv.format(Quote(symbol: symbol, price: Price("2")!, time: 0)) == field + ",2,\n")
  }

  @Test func csvRowsReadBackWithAnRFC4180Reader() {
    var csv = DelimitedFormatter(separator: .comma)
    let symbols = ["A,B", #"Q"uote"#, " lead", "tail ", "X\u{1B}[2J"]
    var text = String(decoding: csv.header!, as: UTF8.self)
    for symbol in symbols { text += csv.format(Quote(symbol: symbol, price: Price("1.25")!, time: 0)) }
    let rows = RFC4180.parse(text)
    #expect(rows.first == ["time", "symbol", "price", "volume"])
    #expect(rows.dropFirst().map { $0[1] } == symbols.map(TerminalText.escaped))
    #expect(rows.dropFirst().allSatisfy { $0.count == 4 && $0[2] == "1.25" })
  }

  @Test func tsvNeverQuotesAndKeepsOneRowPerLine() {
    var tsv = DelimitedFormatter(separator: .tab)
    #expect(tsv.header.map { String(decoding: $0, as: UTF8.self) } == "time\tsymbol\tprice\tvolume\n")
    let odd = Quote(symbol: "A\tB,\"C\"\n", price: Price("3")!, time: 0)
    #expect(tsv.format(odd) == "1970-01-01T00:00:00.000Z\tA\\tB,\"C\"\\n\t3\t\n")
  }

  @Test func priceIsTheBareNumberAsSent() {
    var price = PriceOnlyFormatter()
    #expect(price.header == nil)
    #expect(price.format(btc) == "95372.09\n")
    #expect(price.format(Quote(symbol: "X", price: Price("4.9E-4")!, time: 0)) == "0.00049\n")
  }

  @Test func everyFormatWritesOneLinePerQuote() {
    let quotes = [btc, Quote(symbol: "A\nB", price: Price("1")!, time: 0)]
    for format in OutputFormat.allCases {
      var formatter = format.makeFormatter(FormatContext())
      for quote in quotes {
        let line = formatter.format(quote)
        #expect(line.last == "\n", "\(format)")
        #expect(line.dropLast().contains("\n") == false, "\(format)")
      }
    }
  }
}

/// A minimal RFC 4180 reader (quoted fields, doubled quotes), to read the csv back as a
/// spreadsheet would.
enum RFC4180 {
  static func parse(_ text: String) -> [[String]] {
    var rows: [[String]] = []
    var row: [String] = []
    var field = ""
    var quoted = false
    var chars = Array(text)[...]
    while let c = chars.popFirst() {
      if quoted {
        if c == "\"" {
          if chars.first == "\"" {
            field.append("\"")
            chars.removeFirst()
          } else {
            quoted = false
          }
        } else {
          field.append(c)
        }
      } else if c == "\"" {
        quoted = true
      } else if c == "," {
        row.append(field)
        field = ""
      } else if c == "\n" {
        row.append(field)
        rows.append(row)
        row = []
        field = ""
      } else {
        field.append(c)
      }
    }
    return rows
  }
}
