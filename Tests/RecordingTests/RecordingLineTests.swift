import FeedRuntime
import Recording
import Testing
import Venues

@testable import TickerSupport

/// The recording format: what the recorder writes, the reader reads back exactly; what is not a
/// recording is refused with the line it went wrong on.
@Suite struct RecordingLineTests {
  static let header = RecordingHeader(
    provider: "finnhub", symbols: ["BINANCE:BTCUSDT", "AAPL"], startedMilliseconds: 1_764_536_400_123)

  static func step(_ at: Int64, _ what: RecordedStep.What, batch: Int = 3) -> RecordedStep {
    RecordedStep(at: at, received: 1_764_536_400_500 + at / 1_000_000, batch: batch, what: what)
  }

  static let steps: [RecordedStep] = [
    step(1_000, .opened, batch: 1),
    step(2_500, .connected(attempt: 0), batch: 2),
    step(7_000_123, .message(.text(#"{"type":"trade","data":[{"s":"AAPL","p":1.5}]}"#))),
    step(7_000_123, .message(.text("quotes \" \\ \n \t \u{7} \u{202E} é 漢 🙂"))),
    step(9_999_999, .message(.binary(Array(#"{"ty":"trade"}"#.utf8))), batch: 4),
    step(10_000_000, .message(.binary([0xFF, 0x00, 0xC3, 0x28, 0x80])), batch: 4),
    step(10_000_000, .message(.binary([])), batch: 4),
    step(
      12_000_000, .disconnected(attempt: 1, retryIn: .milliseconds(250), reason: "peer closed 1006"), batch: 5
    ),
    step(13_000_000, .command(.add(["msft", "X:Y"])), batch: 6),
    step(13_000_001, .command(.remove(["AAPL"])), batch: 6),
    step(13_000_002, .command(.replace([])), batch: 6),
    step(14_000_000, .control("+TSLA,\"odd\""), batch: 7),
    step(15_000_000, .exchanged(.client, .text, body: #"{"type":"subscribe","symbol":"AAPL"}"#), batch: 8),
    step(15_000_000, .exchanged(.server, .close, body: "1000 done"), batch: 8),
    step(90_000_000_000, .end(.signal), batch: 9),
  ]

  static func encode(_ lines: [RecordingLine]) -> [UInt8] {
    var out: [UInt8] = []
    var encoder = RecordingEncoder()
    for line in lines { encoder.append(line, to: &out) }
    return out
  }

  static func read(_ bytes: [UInt8]) throws(RecordingError) -> [RecordingLine] {
    var reader = RecordingReader()
    var out: [RecordingLine] = []
    for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast() {
      if let parsed = try reader.read(line) { out.append(parsed) }
    }
    return out
  }

  @Test func everyKindOfLineRoundTrips() throws {
    let lines = [RecordingLine.header(Self.header)] + Self.steps.map(RecordingLine.step)
    let bytes = Self.encode(lines)
    #expect(try Self.read(bytes) == lines)
    // One line each, every line a complete JSON object in the fixture format.
    let text = String(decoding: bytes, as: UTF8.self)
    #expect(text.split(separator: "\n").count == lines.count)
    for line in text.split(separator: "\n").dropFirst() {
      #expect(line.hasPrefix(#"{"dir":""#))
      #expect(line.contains(#""after_ms":"#))
    }
  }

  @Test func framesKeepTheFixtureFields() {
    let text = String(
      decoding: Self.encode([.header(Self.header), .step(Self.step(7_000_123, .message(.text("hi"))))]),
      as: UTF8.self)
    #expect(
      text == #"{"kind":"recording","format":1,"provider":"finnhub","symbols":["BINANCE:BTCUSDT","AAPL"],"#
        + #""started":"2025-11-30T21:00:00.123Z","started_ms":1764536400123}"# + "\n"
        + #"{"dir":"S>","kind":"text","after_ms":7,"at_ns":7000123,"rt":1764536400507,"batch":3,"body":"hi"}"#
        + "\n")
  }

  @Test func binaryThatIsNotUTF8IsBase64() {
    let text = String(
      decoding: Self.encode([.step(Self.step(0, .message(.binary([0xFF, 0xFE, 0x41]))))]), as: UTF8.self)
    #expect(text.contains(#""encoding":"base64","body":"//5B""#))
  }

  @Test func timeNeverGoesBackWithinASection() throws {
    let lines: [RecordingLine] = [
      .header(Self.header), .step(Self.step(5_000, .opened)), .header(Self.header),
      .step(Self.step(10, .opened)),
    ]
    #expect(try Self.read(Self.encode(lines)) == lines)
    #expect(throws: RecordingError.invalidLine(3, #""at_ns" goes back in time (10 after 5000)"#)) {
      try Self.read(
        Self.encode([.header(Self.header), .step(Self.step(5_000, .opened)), .step(Self.step(10, .opened))]))
    }
  }

  @Test("a run of the best bid and ask says so in its header; a trade header stays as it was")
  func topOfBookHeader() throws {
    let book = RecordingHeader(
      provider: "binance", symbols: ["BTCUSDT"], stream: .topOfBook, startedMilliseconds: 1_796_526_434_172)
    let text = String(decoding: Self.encode([.header(book)]), as: UTF8.self)
    #expect(
      text
        == #"{"kind":"recording","format":1,"provider":"binance","symbols":["BTCUSDT"],"stream":"top-of-book","#
        + #""started":"2026-12-06T03:07:14.172Z","started_ms":1796526434172}"# + "\n")
    #expect(try Self.read(Self.encode([.header(book)])) == [.header(book)])
    let several = RecordingHeader(
      venues: [
        .init(provider: "binance", symbols: ["BTCUSDT"], stream: .topOfBook),
        .init(provider: "okx", symbols: ["BTC-USDT"], stream: .topOfBook),
      ], startedMilliseconds: 5)
    #expect(try Self.read(Self.encode([.header(several)])) == [.header(several)])
    #expect(!String(decoding: Self.encode([.header(Self.header)]), as: UTF8.self).contains("stream"))
    // Trades and quotes of one venue are two recordings.
    let trades = RecordingHeader(provider: "binance", symbols: ["BTCUSDT"], startedMilliseconds: 6)
    #expect(throws: RecordingError.providerChanged(2, from: "binance (top of book)", to: "binance")) {
      try Self.read(Self.encode([.header(book), .header(trades)]))
    }
    let unknown =
      Array(
        #"{"kind":"recording","format":1,"provider":"binance","symbols":[],"stream":"depth","started_ms":1}"#
          .utf8) + [0x0A]
    #expect(throws: RecordingError.self) { try Self.read(unknown) }
  }

  @Test func aLaterHeaderStartsASectionOfTheSameProvider() throws {
    let second = RecordingHeader(provider: "finnhub", symbols: ["AAPL"], startedMilliseconds: 5)
    let lines: [RecordingLine] = [
      .header(Self.header), .step(Self.steps[0]), .header(second), .step(Self.steps[1]),
    ]
    #expect(try Self.read(Self.encode(lines)) == lines)
    let other = RecordingHeader(provider: "upbit", symbols: ["KRW-BTC"], startedMilliseconds: 5)
    #expect(throws: RecordingError.providerChanged(3, from: "finnhub", to: "upbit")) {
      try Self.read(Self.encode([.header(Self.header), .step(Self.steps[0]), .header(other)]))
    }
  }

  @Test(arguments: [
    ("", "line 1 is blank"),
    ("\u{89}PNG\r\n\u{1A}", "line 1 is not JSON"),
    (#"{"name":"package","version":"1.0"}"#, #"line 1 is not a recording header: {"kind":"recording",…}"#),
    (
      #"{"dir":"S>","kind":"text","after_ms":0,"body":"{}"}"#,
      #"line 1 is not a recording header: {"kind":"recording",…}"#
    ),
    ("[1,2,3]", "line 1 is not a JSON object"),
    (
      #"{"kind":"recording","format":3,"provider":"finnhub","symbols":[],"started_ms":0}"#,
      "recording format 3; this ticker reads formats 1 and 2"
    ),
    // Format 2 is a run of several venues: one venue, or a list of one, is not.
    (
      #"{"kind":"recording","format":2,"provider":"finnhub","symbols":[],"started_ms":0}"#,
      #"a format 2 header lists 2 to 256 "venues""#
    ),
    (#"{"kind":"recording","format":1,"symbols":[],"started_ms":0}"#, #"the header names no "provider""#),
  ])
  func foreignFirstLinesAreNotRecordings(line: String, why: String) {
    var reader = RecordingReader()
    #expect(throws: RecordingError.notARecording(why)) { try reader.read(Array(line.utf8)) }
  }

  @Test(arguments: [
    (#"{"dir":"S>","kind":"text","at_ns":1,"rt":2,"batch":3}"#, #""body" must be a string"#),
    (#"{"dir":"S>","kind":"text","rt":2,"batch":3,"body":""}"#, #""at_ns" must be an integer"#),
    (#"{"dir":"S>","kind":"text","at_ns":-1,"rt":2,"batch":3,"body":""}"#, #""at_ns" is negative"#),
    (
      #"{"dir":"S>","kind":"binary","at_ns":1,"rt":2,"batch":3,"encoding":"base64","body":"%%%"}"#,
      "the body is not valid base64"
    ),
    (#"{"dir":"S>","kind":"video","at_ns":1,"rt":2,"batch":3}"#, #"unknown kind "video""#),
    (#"{"dir":"--","kind":"end","at_ns":1,"rt":2,"batch":3,"outcome":"?"}"#, #"unknown "outcome""#),
    (#"{"dir":"S>","kind":"text","at_ns":1,"rt":2,"batch":3,"body":"cut"#, "not JSON"),
  ])
  func aBadLaterLineNamesItsNumber(line: String, why: String) throws {
    var reader = RecordingReader()
    _ = try reader.read(Array(Self.encode([.header(Self.header)]).dropLast()))
    _ = try reader.read(Array(#"{"dir":"--","kind":"opened","at_ns":1,"rt":2,"batch":1}"#.utf8))
    do {
      _ = try reader.read(Array(line.utf8))
      Issue.record("accepted \(line)")
    } catch {
      guard case .invalidLine(let number, let text) = error else {
        Issue.record("\(error)")
        return
      }
      #expect(number == 3)
      #expect(text.hasPrefix(why), "\(text)")
    }
  }

  /// A server's script is the same format without the header and the stamps: its instants
  /// count from `after_ms`, its receive times from the header's start when there is one.
  @Test func aScriptReadsAsARecordingWithoutStamps() throws {
    let script = [
      #"{"dir":"S>","kind":"http","after_ms":0,"body":"HTTP/1.1 101 Switching Protocols"}"#,
      #"{"dir":"C>","kind":"text","after_ms":5,"body":"{\"type\":\"subscribe\",\"symbol\":\"AAPL\"}"}"#,
      #"{"dir":"S>","kind":"text","after_ms":320,"body":"{\"type\":\"ping\"}"}"#,
      #"{"dir":"S>","kind":"binary","after_ms":0,"encoding":"base64","body":"/wA="}"#,
    ]
    var reader = RecordingReader(requiresHeader: false)
    let read = try script.compactMap { try reader.read(Array($0.utf8)) }
    #expect(
      read == [
        .step(
          RecordedStep(
            at: 0, received: 0, batch: -1,
            what: .exchanged(.server, .http, body: "HTTP/1.1 101 Switching Protocols"))),
        .step(
          RecordedStep(
            at: 5_000_000, received: 5, batch: -2,
            what: .exchanged(.client, .text, body: #"{"type":"subscribe","symbol":"AAPL"}"#))),
        .step(
          RecordedStep(at: 325_000_000, received: 325, batch: -3, what: .message(.text(#"{"type":"ping"}"#)))),
        .step(
          RecordedStep(at: 325_000_000, received: 325, batch: -4, what: .message(.binary([0xFF, 0x00])))),
      ])
    var recording = RecordingReader()
    #expect(throws: RecordingError.self) { try recording.read(Array(script[0].utf8)) }
    #expect(throws: RecordingError.invalidLine(2, #""after_ms" is negative"#)) {
      var again = RecordingReader(requiresHeader: false)
      _ = try again.read(Array(script[0].utf8))
      _ = try again.read(Array(#"{"dir":"S>","kind":"text","after_ms":-1,"body":""}"#.utf8))
    }
  }

  @Test func textsOfEveryByteRoundTrip() throws {
    var random = SystemRandomNumberGenerator()
    var texts = [String(decoding: Array(0..<128 as Range<UInt8>), as: UTF8.self), "", "\"\\", "a\u{7F}b"]
    for _ in 0..<200 {
      let ascii = (0..<Int.random(in: 0..<40, using: &random)).map { _ in
        UInt8.random(in: 0..<128, using: &random)
      }
      texts.append(String(decoding: ascii, as: UTF8.self))
      texts.append(
        String(decoding: ascii, as: UTF8.self) + "é\u{9B}" + String(decoding: ascii, as: UTF8.self))
    }
    for text in texts {
      let lines: [RecordingLine] = [.header(Self.header), .step(Self.step(1, .message(.text(text))))]
      let bytes = Self.encode(lines)
      #expect(try Self.read(bytes) == lines, "\(text.debugDescription)")
      #expect(!bytes.dropLast().contains(0x0A) || bytes.filter { $0 == 0x0A }.count == 2)
      #expect(!bytes.contains(0x1B))
    }
  }

  @Test func base64RoundTripsEveryLengthAndRefusesNonCanonicalText() {
    var random = SystemRandomNumberGenerator()
    for length in 0..<70 {
      let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
      #expect(Base64.decode(Base64.encode(bytes)) == bytes)
    }
    #expect(Base64.encode(Array("foobar".utf8)) == "Zm9vYmFy")
    #expect(Base64.encode(Array("fo".utf8)) == "Zm8=")
    for bad in ["Zm9", "Zm9v=", "Z===", "Zm8 ", "Zm9=", "Zg=A"] {
      #expect(Base64.decode(bad) == nil, "\(bad)")
    }
  }
}

@Suite struct RecordedInstantTests {
  @Test func nanosecondsAreExactAndSaturate() {
    #expect(Duration.nanoseconds(1_234_567_891).wholeNanoseconds == 1_234_567_891)
    #expect(Duration.seconds(-2).wholeNanoseconds == -2_000_000_000)
    #expect(Duration.nanoseconds(Int64.max).wholeNanoseconds == .max)
    #expect(Duration.seconds(Int64.max).wholeNanoseconds == .max)
    #expect(Duration.seconds(Int64.min).wholeNanoseconds == .min)
    let a = RecordedInstant(nanoseconds: 5)
    #expect(a.advanced(by: .nanoseconds(7)) == RecordedInstant(nanoseconds: 12))
    #expect(a.duration(to: RecordedInstant(nanoseconds: 2)) == .nanoseconds(-3))
  }
}
