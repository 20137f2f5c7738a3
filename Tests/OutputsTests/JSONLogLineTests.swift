import Foundation
import JSON
import TestSupport
import Testing

@testable import Outputs
@testable import TickerSupport

/// `--log-format json`'s line writer, pure: the exact bytes of a line, escaping, redaction and
/// the line cap (the line stays valid JSON however it is cut).
@Suite("JSON diagnostic lines")
struct JSONLogLineTests {
  /// 2026-01-17T13:18:52.976Z.
  static let time: Int64 = 1_768_655_932_976

  static func text(_ line: [UInt8]) -> String { String(decoding: line, as: UTF8.self) }

  /// The line parsed as JSON (without its newline): an object, or the test fails.
  static func object(_ line: [UInt8]) throws -> JSONObject {
    #expect(line.last == 0x0A)
    #expect(line.dropLast().allSatisfy { $0 != 0x0A }, "one line: \(text(line))")
    let value = try JSONParser().parse(Array(line.dropLast()))
    return try #require(value.objectValue, "\(text(line))")
  }

  @Test("the whole line, byte for byte: keys in order, the fields after the message")
  func exactLine() {
    let entry = JSONLogLine.Entry(
      time: Self.time, level: .warning, venue: "Binance", event: .disconnected,
      message: "the connection was lost; reconnect attempt 2 in 0.6 s",
      fields: [
        .string("reason", "failed"), .int("attempt", 2), .seconds("retry_in_seconds", .milliseconds(600)),
        .strings("symbols", ["BTCUSDT", "ETHUSDT"]),
      ])
    let line = Self.text(JSONLogLine.line(entry, secrets: []))
    #expect(
      line
        == #"{"time":"2026-01-17T13:18:52.976Z","level":"warning","venue":"Binance","event":"disconnected","#
        + #""message":"the connection was lost; reconnect attempt 2 in 0.6 s","reason":"failed","attempt":2,"#
        + #""retry_in_seconds":0.6,"symbols":["BTCUSDT","ETHUSDT"]}"# + "\n")
  }

  @Test("no venue: the key is absent, not null")
  func noVenue() throws {
    let line = JSONLogLine.line(
      .init(time: Self.time, level: .info, event: .message, message: "following 1 symbol(s): A"), secrets: [])
    #expect(
      Self.text(line)
        == #"{"time":"2026-01-17T13:18:52.976Z","level":"info","event":"message","message":"following 1 symbol(s): A"}"#
        + "\n")
    #expect(try Self.object(line).keys == ["time", "level", "event", "message"])
  }

  @Test(
    "seconds are JSON numbers to the millisecond",
    arguments: [
      (Duration.milliseconds(600), "0.6"), (.seconds(60), "60"), (.milliseconds(1250), "1.25"),
      (.milliseconds(1005), "1.005"), (.zero, "0"), (.microseconds(1_500), "0.001"),
      (.milliseconds(-1500), "-1.5"),
    ])
  func seconds(duration: Duration, text: String) throws {
    #expect(JSONLogLine.secondsText(duration) == text)
    #expect(try JSONParser().parse(text).numberText == text)
  }

  @Test(
    "control characters, quotes and terminal-active characters: escaped, the message as the text shows it")
  func escaping() throws {
    let hostile =
      "bad\u{1B}[31mred\u{07}\0\ttab\nnew\r\"q\" back\\slash \u{7F}\u{9B}2J \u{2028}\u{202E}evil κόσμε"
    let line = JSONLogLine.line(
      .init(
        time: Self.time, level: .warning, venue: "V\u{1B}", event: .venueError, message: hostile,
        fields: [.string("code", "\u{1B}]0;x\u{07}"), .strings("symbols", ["A\nB"])]),
      secrets: [])
    // Nothing on the line a terminal acts on: no C0 control but the final newline, no DEL, no
    // C1 control, no line separator or bidirectional override.
    for scalar in Self.text(Array(line.dropLast())).unicodeScalars {
      #expect(!TerminalText.needsEscape(scalar) || scalar == "\\", "raw U+\(String(scalar.value, radix: 16))")
    }
    let object = try Self.object(line)
    // The words exactly as the text format writes them, so `jq -r .message` is as safe.
    #expect(object["message"]?.stringValue == TerminalText.escaped(hostile))
    #expect(
      object["message"]?.stringValue?.hasPrefix(
        #"bad\x1b[31mred\x07\x00\ttab\nnew\r"q" back\\slash \x7f\u009b"#) == true)
    #expect(object["venue"]?.stringValue == #"V\x1b"#)
    #expect(object["code"]?.stringValue == #"\x1b]0;x\x07"#)
    #expect(object["symbols"]?.arrayValue == [.string(#"A\nB"#)])
  }

  @Test("secrets are removed from the message, the venue and every field, in every form")
  func redaction() throws {
    let token = "sk-Secret42"
    let line = JSONLogLine.line(
      .init(
        time: Self.time, level: .error, venue: "Finnhub", event: .connectFailed,
        message: "GET /?token=\(token) refused; nats://user:hunter2@host:4222 too; '\(token)'",
        fields: [.string("reason", "token=\(token)"), .strings("symbols", [token, "sk%2DSecret42"])]),
      secrets: [token, "sk%2DSecret42"])
    let text = Self.text(line)
    #expect(!text.contains("Secret42"), "\(text)")
    #expect(!text.contains("hunter2"), "\(text)")
    let object = try Self.object(line)
    #expect(object["message"]?.stringValue == "GET /?token=*** refused; nats://***@host:4222 too; '***'")
    #expect(object["reason"]?.stringValue == "token=***")
    #expect(object["symbols"]?.arrayValue == [.string("***"), .string("***")])
  }

  /// Characters of every width, and the escapes JSON and the terminal escaping add.
  static let mixed = #"a"é\€😀"# + "\u{1B}"

  @Test("a long message is cut, never the JSON: every cap from the shortest useful to past the whole")
  func cutStaysValid() throws {
    let message = String(repeating: Self.mixed, count: 40)
    let whole = TerminalText.escaped(message)
    for cap in stride(from: 260, through: 900, by: 1) {
      let line = JSONLogLine.line(
        .init(
          time: Self.time, level: .warning, event: .malformed, message: message, fields: [.int("attempt", 3)]),
        secrets: [], maximumBytes: cap)
      #expect(line.count - 1 <= cap, "cap \(cap): \(line.count - 1) bytes")
      let object = try Self.object(line)
      let shown = try #require(object["message"]?.stringValue)
      #expect(object["attempt"]?.numberText == "3")
      guard shown != whole else { continue }
      // The cut words are the start of the whole, and say how much is missing.
      let marker = try #require(shown.range(of: "… ("), "cap \(cap): \(shown)")
      #expect(whole.hasPrefix(shown[..<marker.lowerBound]), "cap \(cap)")
      #expect(shown.hasSuffix(" more bytes not shown)"), "cap \(cap)")
    }
  }

  @Test("the real cap: a huge message in at most maximumLineBytes, the note saying how much is left out")
  func realCap() throws {
    let message = String(repeating: "x", count: 10_000)
    let line = JSONLogLine.line(
      .init(time: Self.time, level: .warning, venue: "Kraken", event: .venueError, message: message),
      secrets: [])
    #expect(line.count - 1 <= Diagnostics.maximumLineBytes)
    #expect(line.count - 1 >= Diagnostics.maximumLineBytes - 8)
    let shown = try #require(try Self.object(line)["message"]?.stringValue)
    let kept = shown.prefix { $0 == "x" }.count
    #expect(shown == String(repeating: "x", count: kept) + "… (\(10_000 - kept) more bytes not shown)")
  }

  @Test("fields that would crowd out the message are left out, the last first")
  func fieldsLeftOut() throws {
    let symbols = (0..<1000).map { "SYMBOL\($0)USDT" }
    let line = JSONLogLine.line(
      .init(
        time: Self.time, level: .info, event: .connected, message: "reconnected (attempt 4)",
        fields: [.int("attempt", 4), .strings("symbols", symbols)]),
      secrets: [])
    #expect(line.count - 1 <= Diagnostics.maximumLineBytes)
    let object = try Self.object(line)
    #expect(object.keys == ["time", "level", "event", "message", "attempt"])
    #expect(object["message"]?.stringValue == "reconnected (attempt 4)")
    // A list that fits stays.
    let short = JSONLogLine.line(
      .init(
        time: Self.time, level: .info, event: .connected, message: "m",
        fields: [.int("attempt", 4), .strings("symbols", Array(symbols.prefix(3)))]), secrets: [])
    #expect(try Self.object(short)["symbols"]?.arrayValue?.count == 3)
  }

  @Test("event names: snake_case, each once")
  func eventNames() {
    let names = LogEvent.all.map(\.name)
    #expect(Set(names).count == names.count)
    for name in names {
      #expect(!name.isEmpty && name.first != "_" && name.last != "_", "\(name)")
      #expect(name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || $0 == "_" }, "\(name)")
    }
  }

  @Test("docs/logging.md lists every event name, and no other")
  func eventsDocumented() throws {
    let path = TestTools.repositoryRoot + "/docs/logging.md"
    let doc = String(decoding: try WholeFile.read(path, limit: 1 << 20), as: UTF8.self)
    let table = try #require(doc.range(of: "<!-- events:begin -->")).upperBound
    let end = try #require(doc.range(of: "<!-- events:end -->")).lowerBound
    let listed = doc[table..<end].split(separator: "\n").compactMap { row -> String? in
      guard row.hasPrefix("| `") else { return nil }
      return String(row.dropFirst(3).prefix { $0 != "`" })
    }
    #expect(listed == LogEvent.all.map(\.name))
  }
}
