import JSON
import Synchronization
import TestSupport
import Testing
import Venues

@testable import FeedRuntime
@testable import Outputs
@testable import WebSocketClient

/// `Diagnostics` and `ReportWriter` with `--log-format json`: each level, the venue's scope, the
/// event of every `FeedReport`, the injected clock, no bell; and the text that stays as it was.
@Suite("diagnostics: text and JSON lines")
struct DiagnosticsFormatTests {
  /// What a `Diagnostics` wrote, line by line.
  final class Lines: Sendable {
    private let lines = Mutex<[[UInt8]]>([])
    func append(_ line: [UInt8]) { lines.withLock { $0.append(line) } }
    var all: [[UInt8]] { lines.withLock { $0 } }
    var texts: [String] { all.map { String(decoding: $0, as: UTF8.self) } }
  }

  static let time: Int64 = 1_768_655_932_976

  static func diagnostics(
    _ format: LogFormat, verbose: Bool = true, secrets: [String] = [], _ lines: Lines
  ) -> Diagnostics {
    Diagnostics(
      secrets: secrets, verbose: verbose, format: format, now: { Self.time }, write: { lines.append($0) })
  }

  static func object(_ line: [UInt8]) throws -> JSONObject {
    #expect(line.last == 0x0A)
    return try #require(try JSONParser().parse(Array(line.dropLast())).objectValue)
  }

  @Test("each level: its name in JSON, its prefix in text; --verbose lines only with --verbose")
  func levels() throws {
    let json = Lines()
    let text = Lines()
    for (format, lines) in [(LogFormat.json, json), (.text, text)] {
      let d = Self.diagnostics(format, lines)
      d.note("a note")
      d.warning("a warning")
      d.error("an error")
      d.alert("an alert", bell: false)
      d.info("a verbose line")
      Self.diagnostics(format, verbose: false, lines).info("not shown")
    }
    #expect(
      text.texts == [
        "ticker: a note\n", "ticker: warning: a warning\n", "ticker: error: an error\n",
        "ticker: alert: an alert\n", "ticker: a verbose line\n",
      ])
    let objects = try json.all.map(Self.object)
    #expect(objects.map { $0["level"]?.stringValue } == ["info", "warning", "error", "alert", "info"])
    #expect(
      objects.map { $0["message"]?.stringValue }
        == ["a note", "a warning", "an error", "an alert", "a verbose line"])
    #expect(
      objects.map { $0["event"]?.stringValue } == ["message", "message", "message", "alert", "message"])
    #expect(objects.allSatisfy { $0["time"]?.stringValue == "2026-01-17T13:18:52.976Z" })
  }

  @Test("the time is the injected wall clock's, read for each line")
  func clock() throws {
    let lines = Lines()
    let tick = Mutex<Int64>(0)
    let d = Diagnostics(
      secrets: [], verbose: false, format: .json,
      now: {
        tick.withLock {
          $0 += 1001; return $0
        }
      }, write: { lines.append($0) })
    d.note("one")
    d.writing(to: { lines.append($0) }).about("OKX").note("two")
    #expect(
      try lines.all.map { try Self.object($0)["time"]?.stringValue }
        == ["1970-01-01T00:00:01.001Z", "1970-01-01T00:00:02.002Z"])
  }

  @Test("a venue's lines: `venue` in JSON (the message without the name), `Binance: ` in text")
  func venueScope() throws {
    let json = Lines()
    let text = Lines()
    Self.diagnostics(.json, json).about("Binance").warning("malformed message: x", event: .malformed)
    Self.diagnostics(.json, json).warning("no venue")
    Self.diagnostics(.text, text).about("Binance").warning("malformed message: x", event: .malformed)
    #expect(text.texts == ["ticker: warning: Binance: malformed message: x\n"])
    let scoped = try Self.object(json.all[0])
    #expect(scoped.keys == ["time", "level", "venue", "event", "message"])
    #expect(scoped["venue"]?.stringValue == "Binance")
    #expect(scoped["event"]?.stringValue == "malformed")
    #expect(scoped["message"]?.stringValue == "malformed message: x")
    #expect(try Self.object(json.all[1]).keys == ["time", "level", "event", "message"])
  }

  @Test("the board's sink, a venue's scope and more secrets keep the format, the clock and the secrets")
  func derivedKeepFormat() throws {
    let lines = Lines()
    let base = Self.diagnostics(.json, secrets: ["tok3n"], Lines())
    base.writing(to: { lines.append($0) }).about("Kraken").adding(secrets: ["pa55"]).error("tok3n pa55")
    let object = try Self.object(try #require(lines.all.first))
    #expect(object["message"]?.stringValue == "*** ***")
    #expect(object["venue"]?.stringValue == "Kraken")
    #expect(object["time"]?.stringValue == "2026-01-17T13:18:52.976Z")
  }

  @Test("an alert rings the bell in text only")
  func bell() throws {
    let json = Lines()
    let text = Lines()
    Self.diagnostics(.json, json).alert("BTCUSDT>1: 2", bell: true)
    Self.diagnostics(.text, text).alert("BTCUSDT>1: 2", bell: true)
    #expect(text.texts == ["ticker: alert: BTCUSDT>1: 2\u{07}\n"])
    #expect(!json.all[0].contains(0x07))
    #expect(try Self.object(json.all[0])["message"]?.stringValue == "BTCUSDT>1: 2")
  }

  static func firing() throws -> AlertBook.Firing {
    let condition = try AlertCondition.parse("BTCUSDT>100000").get()
    let quote = Quote(symbol: "BTCUSDT", price: Price("100000.01")!, time: time)
    return AlertBook.Firing(
      rule: .init(condition: condition, ends: false, written: "binance/BTCUSDT>100000"), quote: quote,
      price: quote.price, start: nil)
  }

  static let refusal = VenueError(name: "-1121", message: "Invalid symbol.", fatal: false)

  /// Every report, with the event and level its JSON line has.
  static func reports() throws -> [(FeedReport, String, String)] {
    [
      (.connected(attempt: 0, symbols: ["BTCUSDT"]), "connected", "info"),
      (.connected(attempt: 2, symbols: ["BTCUSDT", "ETHUSDT"]), "connected", "info"),
      (
        .disconnected(reason: .failed(.abnormalClosure), attempt: 1, retryIn: .milliseconds(600)),
        "disconnected", "warning"
      ),
      (.venueError(Self.refusal), "venue_error", "warning"),
      (.changeRefused(Self.refusal, symbols: ["NOPEUSDT"]), "change_refused", "warning"),
      (.closingSoon("maintenance"), "closing_soon", "info"),
      (.partial(dropped: ["no price"], count: 3), "partial", "warning"),
      (.malformed("not JSON"), "malformed", "warning"),
      (.ignored("heartbeat"), "ignored", "info"),
      (.notSubscribed(count: 2, example: "XRPUSDT"), "not_subscribed", "info"),
      (.subscriptionChanged(added: ["A"], removed: ["B"], now: ["A", "C"]), "subscription_changed", "info"),
      (.currentSet(["A", "C"]), "current_set", "info"),
      (.controlError(.unknownCommand("!x")), "control_error", "warning"),
      (.noQuoteYet(symbol: "KRW-NOPE", after: .seconds(10)), "no_quote_yet", "warning"),
      (.alert(try firing()), "alert", "alert"),
    ]
  }

  static func writer(_ diagnostics: Diagnostics) -> ReportWriter<TestInstant> {
    ReportWriter(diagnostics: diagnostics, provider: BinanceProvider(), now: { .zero }, bell: true)
  }

  @Test("every FeedReport: its event and level; the message is the text line's words, byte for byte")
  func reportEvents() throws {
    for (report, event, level) in try Self.reports() {
      let json = Lines()
      let text = Lines()
      Self.writer(Self.diagnostics(.json, json).about("Binance")).write(report)
      Self.writer(Self.diagnostics(.text, text).about("Binance")).write(report)
      try #require(json.all.count == 1 && text.all.count == 1, "\(report)")
      let object = try Self.object(json.all[0])
      #expect(object["event"]?.stringValue == event, "\(report)")
      #expect(object["level"]?.stringValue == level, "\(report)")
      #expect(object["venue"]?.stringValue == "Binance")
      let prefix = LogLevel(rawValue: level)!.textPrefix + "Binance: "
      let message = try #require(object["message"]?.stringValue)
      var expected = Array((prefix + message).utf8)
      if level == "alert" { expected.append(0x07) }
      #expect(text.all[0] == expected + [0x0A], "\(text.texts[0])")
    }
  }

  @Test("the reports' own fields")
  func reportFields() throws {
    func object(_ report: FeedReport) throws -> JSONObject {
      let lines = Lines()
      Self.writer(Self.diagnostics(.json, lines)).write(report)
      return try Self.object(try #require(lines.all.first))
    }
    let dropped = try object(
      .disconnected(reason: .silence(.seconds(30)), attempt: 3, retryIn: .milliseconds(2500)))
    #expect(dropped["reason"]?.stringValue == "silence")
    #expect(dropped["attempt"]?.numberText == "3")
    #expect(dropped["retry_in_seconds"]?.numberText == "2.5")
    let back = try object(.connected(attempt: 1, symbols: ["A", "B"]))
    #expect(back["attempt"]?.numberText == "1")
    #expect(back["symbols"]?.arrayValue == [.string("A"), .string("B")])
    let refused = try object(.changeRefused(Self.refusal, symbols: ["NOPEUSDT"]))
    #expect(refused["code"]?.stringValue == "-1121")
    #expect(refused["symbols"]?.arrayValue == [.string("NOPEUSDT")])
    let alert = try object(.alert(try Self.firing()))
    #expect(alert["symbol"]?.stringValue == "BTCUSDT")
    #expect(alert["condition"]?.stringValue == "binance/BTCUSDT>100000")
    let quiet = try object(.noQuoteYet(symbol: "KRW-NOPE", after: .seconds(10)))
    #expect(quiet["symbol"]?.stringValue == "KRW-NOPE")
    #expect(quiet["after_seconds"]?.numberText == "10")
  }

  @Test("text stays as it was: the words of a reconnect and of a summary")
  func textUnchanged() {
    let lines = Lines()
    let writer = ReportWriter<TestInstant>(
      diagnostics: Self.diagnostics(.text, lines), provider: BinanceProvider(), now: { .zero }, burst: 1)
    writer.write(.disconnected(reason: .failed(.abnormalClosure), attempt: 1, retryIn: .milliseconds(600)))
    writer.write(.malformed("a"))
    writer.write(.malformed("b"))
    writer.summary()
    #expect(
      lines.texts == [
        "ticker: warning: the connection was lost (no close frame: 1006 abnormal closure); reconnect attempt 1 in 0.6 s\n",
        "ticker: warning: malformed message: a\n",
        "ticker: warning: 2 malformed messages in all (1 not shown)\n",
      ])
  }

  @Test("the summary at exit: event summary, with the counts")
  func summary() throws {
    let lines = Lines()
    let writer = ReportWriter<TestInstant>(
      diagnostics: Self.diagnostics(.json, lines), provider: BinanceProvider(), now: { .zero }, burst: 1)
    writer.write(.malformed("a"))
    writer.write(.malformed("b"))
    writer.write(.ignored("x"))
    writer.summary()
    let objects = try lines.all.map(Self.object)
    #expect(objects.map { $0["event"]?.stringValue } == ["malformed", "ignored", "summary", "summary"])
    #expect(objects[2]["total"]?.numberText == "2")
    #expect(objects[2]["not_shown"]?.numberText == "1")
    #expect(objects[3]["level"]?.stringValue == "info")
  }

  @Test(
    "the format before the settings: the last --log-format, else TICKER_LOG_FORMAT, else text",
    arguments: [
      ([String](), [String: String](), LogFormat.text),
      (["--log-format", "json"], [:], .json),
      (["--log-format=JSON", "--bogus"], [:], .json),
      (["--log-format", "json", "--log-format", "text"], [:], .text),
      ([], ["TICKER_LOG_FORMAT": "json"], .json),
      (["--log-format", "text"], ["TICKER_LOG_FORMAT": "json"], .text),
      (["--log-format", "yaml"], ["TICKER_LOG_FORMAT": "json"], .text),
      (["--log-format"], [:], .text),
      (["--", "--log-format", "json"], [:], .text),
      (["serve", "--log-format", "json"], ["TICKER_LOG_FORMAT": ""], .json),
    ])
  func early(arguments: [String], environment: [String: String], format: LogFormat) {
    #expect(LogFormat.early(arguments: arguments, environment: environment) == format)
  }
}
