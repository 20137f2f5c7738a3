import Emulators
import Foundation
import Testing

@testable import Recording
@testable import TestSupport
@testable import WebSocketWire

/// The built binary against servers that attack it: a ping flood that never reads our pongs,
/// absurd `Retry-After` values, control characters in symbols, close reasons, HTTP reason phrases
/// and error texts, trades for symbols nobody subscribed, frames packed into the handshake's
/// segment, an HTTP/1.0 upgrade. Memory stays bounded, nothing traps, nothing a server sends
/// reaches the terminal raw, and every price is one well-formed record.
@Suite("ticker against hostile servers")
struct HostileServerTests {
  static let token = "sk-hostile-SECRET-7"
  static let environment = TickerProcess.cleanEnvironment(["FINNHUB_TOKEN": token])

  static func step(_ kind: SessionScript.Kind, _ body: String) -> SessionScript.Step {
    .init(direction: .server, kind: kind, afterMilliseconds: 0, body: body)
  }

  static func trade(_ symbol: String, _ price: String, _ time: Int64) -> String {
    #"{"data":[{"c":null,"p":\#(price),"s":\#(JSONQuote.quoted(symbol)),"t":\#(time),"v":1}],"type":"trade"}"#
  }

  func serve(
    _ script: SessionScript = SessionScript(steps: []), emulation: FeedServer.Options.Emulation = .verbatim,
    plans: [ConnectionPlan]
  ) throws -> FeedServer {
    let server = try FeedServer(
      script: script, options: .init(timeScale: 0, emulation: emulation, plans: plans))
    server.start()
    return server
  }

  func run(_ feed: FeedServer, _ extra: [String], environment: [String: String] = environment) async throws
    -> TickerProcess.Result
  {
    try await TickerProcess.run(["--url", "ws://127.0.0.1:\(feed.port)/"] + extra, environment: environment)
  }

  static let closeNormally = ConnectionPlan.Ending.close(.init(code: .normalClosure, reason: "done"))

  // MARK: Memory

  @Test("a ping flood from a server that never reads: memory stays bounded, the link is declared dead")
  func pingFlood() async throws {
    let fixture = try SessionScript(ndjson: Fixture.text("finnhub-session.ndjson"))
    let feed = try serve(fixture, emulation: .venue(.finnhub), plans: [.init(ending: .pingFlood)])
    defer { feed.stop() }
    let ticker = try RunningTicker(
      [
        "--url", "ws://127.0.0.1:\(feed.port)/", "--every-trade", "--max-retries", "0",
        "--ping-interval", "0.5", "--pong-timeout", "1", "--silence-timeout", "0",
      ], environment: Self.environment)
    // Sample the resident size until the ticker exits (before the fix it grew by ~200 MB/s).
    let peak = await offPool {
      var peak = 0
      let tick = DispatchSemaphore(value: 0)
      let limit = Date().addingTimeInterval(60)
      while Date() < limit, let kilobytes = ticker.residentKilobytes() {
        peak = max(peak, kilobytes)
        _ = tick.wait(timeout: .now() + 0.02)
      }
      return peak
    }
    let (status, stderr) = await ticker.exit()
    #expect(status == 75, "\(stderr)")
    #expect(stderr.contains("no pong within 1 s: the connection is dead"), "\(stderr)")
    #expect(peak > 0 && peak < 100_000, "peak RSS \(peak) KiB")
    // The prices that came before the flood were printed.
    #expect(ticker.waitForLines(7).count == 7)
  }

  /// One message of 100,000 trades (about 9 MB), each with a key Finnhub does not send, so
  /// that the general decoder must handle it: before it was decoded a chunk at a time, the
  /// ticker peaked at 120 MB on it (the JSON tree of the whole message, then every quote).
  @Test("a 9 MB message of 100,000 trades is printed whole within a small multiple of its size")
  func hugeMessage() async throws {
    var body = Array(#"{"type":"trade","data":["#.utf8)
    for i in 0..<100_000 {
      if i > 0 { body.append(UInt8(ascii: ",")) }
      body += Array(
        #"{"c":["1","8"],"p":\#(95_000 + i % 1000).5,"s":"BINANCE:BTCUSDT","t":\#(1_768_655_932_976 + i),"v":0.001,"x":"unknown key"}"#
          .utf8)
    }
    body += Array("]}".utf8)
    let message = String(decoding: body, as: UTF8.self)
    let feed = try serve(SessionScript(steps: [Self.step(.text, message)]), plans: [.init(ending: .hold)])
    defer { feed.stop() }
    let ticker = try RunningTicker(
      ["--url", "ws://127.0.0.1:\(feed.port)/", "--every-trade"], environment: Self.environment)
    let lines = await ticker.lines(100_000, within: 120)
    let peak = ticker.peakResidentKilobytes() ?? 0
    ticker.signal(SIGINT)
    let (status, stderr) = await ticker.exit()
    #expect(status == 130, "\(stderr)")
    #expect(lines.count == 100_000)
    #expect(lines.first == "2026-01-17T13:18:52.976Z\tBINANCE:BTCUSDT\t95000.5")
    #expect(lines.last == "2026-01-17T13:20:32.975Z\tBINANCE:BTCUSDT\t95999.5")
    let limit = 20_000 + 3 * body.count / 1024
    #expect(
      peak > 0 && peak < limit, "peak RSS \(peak) KiB for a \(body.count / 1024) KiB message (limit \(limit))"
    )
  }

  // MARK: Retry-After

  @Test(
    "Retry-After values that are absurd or invalid never trap: capped, or ignored",
    arguments: [
      ("9223372036854775807", "reconnect attempt 1 in 600 s"),
      ("100000000000000000000000", "reconnect attempt 1 in 600 s"),
      ("86401", "reconnect attempt 1 in 600 s"),
      (HTTPDateText.imfFixdate(Date().addingTimeInterval(86_400)), "reconnect attempt 1 in 600 s"),
      ("-1", "reconnect attempt 1 in 60 s"),
      ("1.5", "reconnect attempt 1 in 60 s"),
      ("soon", "reconnect attempt 1 in 60 s"),
      ("Sun, 32 Nov 2099 08:49:37 GMT", "reconnect attempt 1 in 60 s"),
    ])
  func retryAfter(value: String, expected: String) async throws {
    let feed = try serve(plans: [
      .init(
        handshake: .respond(
          status: 429, reason: "Too Many Requests", fields: [.init(name: "Retry-After", value: value)]),
        ending: .drop)
    ])
    defer { feed.stop() }
    let ticker = try RunningTicker(["--url", "ws://127.0.0.1:\(feed.port)/"], environment: Self.environment)
    let waiting = await eventually { ticker.stderrSoFar.contains(expected) }
    #expect(waiting, "\(ticker.stderrSoFar)")
    ticker.signal(SIGINT)
    let (status, stderr) = await ticker.exit(within: 20)
    #expect(status == 130, "\(stderr)")
    #expect(feed.record.connections == 1)
  }

  @Test("a Retry-After date in the past: the normal backoff, then the feed")
  func retryAfterInThePast() async throws {
    let fixture = try SessionScript(ndjson: Fixture.text("finnhub-session.ndjson"))
    let feed = try serve(
      fixture, emulation: .venue(.finnhub),
      plans: [
        .init(
          handshake: .respond(
            status: 429, reason: "Too Many Requests",
            fields: [.init(name: "Retry-After", value: "Sun, 06 Nov 1994 08:49:37 GMT")]),
          ending: .drop),
        .init(ending: Self.closeNormally),
      ])
    defer { feed.stop() }
    let result = try await run(feed, ["--every-trade"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdoutLines.count == 7)
    #expect(result.stderr.contains("(Retry-After: 0 s)"), "\(result.stderr)")
  }

  // MARK: Control characters

  /// ANSI clear-screen, an OSC title, BEL, TAB, LF, CR, DEL, two C1 controls (NEL, CSI) and a
  /// right-to-left override.
  static let evil = "EVIL\u{1B}[2J\u{1B}]0;pwned\u{07}\t1\n\r\u{7F}\u{85}\u{9B}31m\u{202E}X"

  @Test("a symbol full of control characters is one escaped field of one line, in every format")
  func hostileSymbol() async throws {
    let script = SessionScript(steps: [
      Self.step(.text, Self.trade(Self.evil, "95000.5", 1_768_655_932_976)),
      Self.step(.close, "1000 done"),
    ])
    let feed = try serve(script, plans: [.init(ending: .hold), .init(ending: .hold)])
    defer { feed.stop() }
    let text = try await run(feed, ["--every-trade", "-s", Self.evil])
    #expect(text.status == 0, "\(text.stderr)")
    #expect(
      text.stdout
        == "2026-01-17T13:18:52.976Z\tEVIL\\x1b[2J\\x1b]0;pwned\\x07\\t1\\n\\r\\x7f\\u0085\\u009b31m\\u202eX\t95000.5\n"
    )
    let json = try await run(feed, ["--every-trade", "-s", Self.evil, "--format", "json"])
    #expect(json.status == 0, "\(json.stderr)")
    #expect(
      json.stdout.hasPrefix(
        #"{"symbol":"EVIL\u001b[2J\u001b]0;pwned\u0007\t1\n\r\u007f\u0085\u009b31m\u202eX","price":95000.5,"time":"2026-01-17T13:18:52.976Z","t":1768655932976,"volume":1,"received":""#
      ))
    #expect(json.stdout.hasSuffix(#","provider":"finnhub"}"# + "\n"))
    #expect(json.stdout.filter { $0 == "\n" }.count == 1)
    // One record each: the text line's only controls are its two field TABs and the newline.
    #expect(text.stdout.utf8.filter { $0 == 0x09 }.count == 2)
    #expect(!Self.hasTerminalControls(text.stdout.utf8.filter { $0 != 0x09 && $0 != 0x0A }))
    #expect(!Self.hasTerminalControls(json.stdout.utf8.dropLast()))
    for result in [text, json] {
      #expect(!Self.hasTerminalControls(result.stderr.utf8.filter { $0 != 0x0A }))
    }
  }

  @Test("control characters in a close reason, an HTTP reason phrase and an error text are escaped on stderr")
  func hostileTextOnStderr() async throws {
    let script = SessionScript(steps: [
      Self.step(.text, #"{"type":"error","msg":"bad \u001b]0;title\u0007 symbol\u009b2J"}"#),
      Self.step(.close, "1011 bye\u{1B}[31mRED\u{07}"),
    ])
    let feed = try serve(
      script,
      plans: [
        .init(ending: .hold),
        .init(handshake: .respond(status: 503, reason: "Busy\u{1B}[2J\u{07}", fields: []), ending: .drop),
      ])
    defer { feed.stop() }
    let result = try await run(feed, ["--max-retries", "1", "--max-backoff", "0.1"])
    #expect(result.status == 75, "\(result.stderr)")
    #expect(result.stderr.contains(#"server error: bad \x1b]0;title\x07 symbol\u009b2J"#), "\(result.stderr)")
    #expect(result.stderr.contains(#"bye\x1b[31mRED\x07"#), "\(result.stderr)")
    #expect(result.stderr.contains(#"HTTP 503 Busy\x1b[2J\x07"#), "\(result.stderr)")
    #expect(!Self.hasTerminalControls(result.stderr.utf8.filter { $0 != 0x0A }), "\(result.stderr)")
  }

  @Test("trades for symbols that were not subscribed are dropped, and counted with --verbose")
  func unsubscribedSymbols() async throws {
    let script = SessionScript(steps: [
      Self.step(.text, Self.trade("BINANCE:BTCUSDT", "1", 1_768_655_932_976)),
      Self.step(.text, Self.trade("AAPL", "230.5", 1_768_655_932_977)),
      Self.step(
        .text,
        #"{"data":[{"p":2,"s":"AAPL ","t":1768655932978},{"p":231,"s":"AAPL","t":1768655932979},"#
          + #"{"p":3,"s":"aapl","t":1768655932980}],"type":"trade"}"#),
      Self.step(.close, "1000 done"),
    ])
    let feed = try serve(script, plans: [.init(ending: .hold)])
    defer { feed.stop() }
    let result = try await run(feed, ["--every-trade", "-s", "AAPL", "--verbose"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdoutLines.map { $0.split(separator: "\t").dropFirst().joined(separator: " ") } == [
        "AAPL 230.5", "AAPL 231",
      ])
    #expect(
      result.stderr.contains(#"dropped 1 trade(s) for symbols not subscribed (such as "BINANCE:BTCUSDT")"#),
      "\(result.stderr)")
    #expect(result.stderr.contains(#"dropped 2 trade(s) for symbols not subscribed (such as "AAPL ")"#))
    #expect(result.stderr.contains("2 messages with trades for symbols not subscribed in all"))
  }

  // MARK: The handshake

  @Test("a trade and close 1000 in the same segment as the 101: the trade is printed, the feed ends normally")
  func framesInTheHandshakeSegment() async throws {
    let trade = Self.trade("BINANCE:BTCUSDT", "95372.09", 1_768_655_932_976)
    let frames =
      FrameEncoder.encodeServerFrame(Frame(opcode: .text, payload: Array(trade.utf8)))
      + FrameEncoder.encodeServerFrame(.close(CloseStatus(code: .normalClosure, reason: "bye")))
    let feed = try serve(plans: [
      .init(
        handshake: .accept(statusLine: "HTTP/1.1 101 Switching Protocols", trailing: frames), ending: .hold)
    ])
    defer { feed.stop() }
    let result = try await run(feed, ["--every-trade", "--max-retries", "0"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "2026-01-17T13:18:52.976Z\tBINANCE:BTCUSDT\t95372.09\n")
    #expect(
      result.stderr.contains("the server closed the connection (1000 normal closure: bye)"),
      "\(result.stderr)")
    #expect(feed.record.connections == 1)
  }

  @Test("an HTTP/1.0 101 is not an upgrade: a protocol error, not retried")
  func http10Upgrade() async throws {
    let feed = try serve(plans: [
      .init(handshake: .accept(statusLine: "HTTP/1.0 101 Switching Protocols", trailing: []), ending: .hold)
    ])
    defer { feed.stop() }
    let result = try await run(feed, [])
    #expect(result.status == 76, "\(result.stderr)")
    #expect(result.stderr.contains("HTTP/1.0 cannot switch protocols"), "\(result.stderr)")
    #expect(feed.record.connections == 1)
  }

  /// Any byte a terminal acts on: C0 controls, DEL, and the C1 controls encoded in UTF-8.
  static func hasTerminalControls(_ bytes: some Sequence<UInt8>) -> Bool {
    var previous: UInt8 = 0
    for byte in bytes {
      if byte < 0x20 || byte == 0x7F { return true }
      if previous == 0xC2 && (0x80...0x9F).contains(byte) { return true }
      previous = byte
    }
    return false
  }
}

/// JSON string quoting for building test messages (kept apart from the code under test).
enum JSONQuote {
  static func quoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x202E:
        out += String(format: "\\u%04x", scalar.value)
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }
}

/// HTTP dates for `Retry-After` (RFC 9110 §5.6.7 IMF-fixdate).
enum HTTPDateText {
  static func imfFixdate(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    return formatter.string(from: date)
  }
}
