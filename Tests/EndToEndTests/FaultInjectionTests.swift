import Emulators
import Foundation
import Testing

@testable import Recording
@testable import TestSupport
@testable import WebSocketWire

/// The built binary against servers that fail in every way the feed can: drops, refusals,
/// rate limits, half-open links, stalls and hostile bytes. stdout must hold every price the
/// server sent, once, in order, across reconnects; stderr says what happened; exit codes are
/// the documented ones. Time bounds are hang guards only.
@Suite("ticker fault injection")
struct FaultInjectionTests {
  static let token = "sk-fault-SECRET-9"
  static let environment = TickerProcess.cleanEnvironment(["FINNHUB_TOKEN": token])
  /// The BTC prices of the whole Finnhub session, every trade as sent.
  static let allTrades = ["95372.09", "95372.1", "95372.1", "95371.85", "95371.9", "95372.3", "95380"]

  static func fixture() throws -> SessionScript {
    try SessionScript(ndjson: Fixture.text("finnhub-session.ndjson"))
  }

  /// The session's server messages from `range` (indices among the non-http server steps).
  static func part(_ range: Range<Int>) throws -> SessionScript {
    let steps = try fixture().steps.filter { $0.direction == .server && $0.kind != .http }
    return SessionScript(steps: Array(steps[range]))
  }

  /// The first three trade messages, then the rest.
  static func firstHalf() throws -> SessionScript { try part(0..<3) }
  static func secondHalf() throws -> SessionScript { try part(3..<8) }

  static func step(_ kind: SessionScript.Kind, _ body: String) -> SessionScript.Step {
    .init(direction: .server, kind: kind, afterMilliseconds: 0, body: body)
  }

  func serve(_ plans: [ConnectionPlan]) throws -> FeedServer {
    let server = try FeedServer(script: Self.fixture(), options: .init(timeScale: 0, plans: plans))
    server.start()
    return server
  }

  func run(_ feed: FeedServer, _ extra: [String]) async throws -> TickerProcess.Result {
    try await TickerProcess.run(
      ["--url", "ws://127.0.0.1:\(feed.port)/", "--every-trade"] + extra, environment: Self.environment)
  }

  static func prices(_ result: TickerProcess.Result) -> [String] {
    result.stdoutLines.map { String($0.split(separator: "\t").last ?? "") }
  }

  static let closeNormally = ConnectionPlan.Ending.close(.init(code: .normalClosure, reason: "done"))

  // MARK: Reconnect

  @Test("a drop without a close frame: reconnect, resubscribe, every price once and in order")
  func dropAndReconnect() async throws {
    let feed = try serve([
      .init(script: Self.firstHalf(), ending: .drop),
      .init(script: Self.secondHalf(), ending: Self.closeNormally),
    ])
    defer { feed.stop() }
    let result = try await run(feed, [])
    #expect(Self.prices(result) == Self.allTrades)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(feed.record.connections == 2)
    let subscribes = feed.record.clientMessages.filter {
      $0.contains("subscribe\",\"symbol\":\"BINANCE:BTCUSDT")
    }
    #expect(subscribes.count == 2)
    let lines = result.stderr.split(separator: "\n")
    #expect(lines.filter { $0.contains("reconnect attempt 1 in") }.count == 1)
    #expect(lines.contains { $0.contains("connection was lost") })
    #expect(lines.contains { $0.contains("reconnected (attempt 1)") })
    #expect(!result.stderr.contains(Self.token))
  }

  @Test(
    "transient handshake refusals are retried",
    arguments: [(503, "Service Unavailable"), (500, "Internal Server Error"), (429, "Too Many Requests")])
  func refusedThenAccepted(status: Int, reason: String) async throws {
    let feed = try serve([
      .init(
        handshake: .refuse(status: status, reason: reason, retryAfter: status == 429 ? 1 : nil), ending: .drop
      ),
      .init(ending: Self.closeNormally),
    ])
    defer { feed.stop() }
    let result = try await run(feed, [])
    #expect(Self.prices(result) == Self.allTrades)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(feed.record.connections == 2)
    #expect(result.stderr.contains("HTTP \(status)"))
    if status == 429 {
      // Retry-After: 1 is honoured (not the 60 s default for a bare 429).
      #expect(result.stderr.contains("reconnect attempt 1 in 1 s"))
    }
  }

  @Test("close codes that mean 'come back later' are retried", arguments: [1001, 1011, 1012, 1013])
  func transientCloseCodes(code: UInt16) async throws {
    let feed = try serve([
      .init(script: Self.firstHalf(), ending: .close(.init(code: CloseCode(code), reason: "restart"))),
      .init(script: Self.secondHalf(), ending: Self.closeNormally),
    ])
    defer { feed.stop() }
    let result = try await run(feed, [])
    #expect(Self.prices(result) == Self.allTrades)
    #expect(result.status == 0)
    #expect(result.stderr.contains("the server closed the connection (\(code)"))
  }

  @Test("a handshake response that never ends: connect timeout, then reconnect")
  func stalledHandshake() async throws {
    let feed = try serve([.init(handshake: .stall, ending: .drop), .init(ending: Self.closeNormally)])
    defer { feed.stop() }
    let result = try await run(feed, ["--connect-timeout", "0.5"])
    #expect(Self.prices(result) == Self.allTrades)
    #expect(result.status == 0)
    #expect(result.stderr.contains("timed out"))
  }

  // MARK: Liveness

  @Test("a half-open connection (no pongs) is detected by the pong deadline")
  func halfOpen() async throws {
    let feed = try serve([
      .init(script: Self.firstHalf(), ending: .unresponsive),
      .init(script: Self.secondHalf(), ending: Self.closeNormally),
    ])
    defer { feed.stop() }
    let result = try await run(
      feed, ["--ping-interval", "0.2", "--pong-timeout", "0.4", "--silence-timeout", "0"])
    #expect(Self.prices(result) == Self.allTrades)
    #expect(result.status == 0)
    #expect(result.stderr.contains("no pong within 0.4 s"))
  }

  @Test("silence (no message at all) is detected by the watchdog")
  func silence() async throws {
    let feed = try serve([
      .init(script: Self.firstHalf(), ending: .hold),
      .init(script: Self.secondHalf(), ending: Self.closeNormally),
    ])
    defer { feed.stop() }
    let result = try await run(feed, ["--ping-interval", "0", "--silence-timeout", "0.5"])
    #expect(Self.prices(result) == Self.allTrades)
    #expect(result.status == 0)
    #expect(result.stderr.contains("no message for 0.5 s"))
  }

  @Test("a server that stalls mid-frame is abandoned and the feed resumes")
  func stallMidFrame() async throws {
    let feed = try serve([
      .init(script: Self.firstHalf(), ending: .stallMidFrame),
      .init(script: Self.secondHalf(), ending: Self.closeNormally),
    ])
    defer { feed.stop() }
    let result = try await run(feed, ["--ping-interval", "0.2", "--pong-timeout", "0.4"])
    #expect(Self.prices(result) == Self.allTrades)
    #expect(result.status == 0)
  }

  // MARK: Giving up

  @Test("--max-retries N: N reconnects, then exit 75")
  func retriesExhausted() async throws {
    let feed = try serve([
      .init(handshake: .refuse(status: 503, reason: "Service Unavailable", retryAfter: nil), ending: .drop)
    ])
    defer { feed.stop() }
    let result = try await run(feed, ["--max-retries", "2"])
    #expect(result.status == 75)
    #expect(feed.record.connections == 3)
    #expect(result.stderr.contains("gave up after 2 reconnect attempt(s)"))
    #expect(result.stderr.split(separator: "\n").filter { $0.contains("; reconnect attempt") }.count == 2)
  }

  @Test("--max-retries 0: the first drop ends the run, exit 75, prices kept")
  func neverReconnect() async throws {
    let feed = try serve([.init(script: Self.firstHalf(), ending: .drop)])
    defer { feed.stop() }
    let result = try await run(feed, ["--max-retries", "0"])
    #expect(result.status == 75)
    #expect(feed.record.connections == 1)
    #expect(Self.prices(result) == Array(Self.allTrades.prefix(5)))
  }

  @Test("401 is fatal: exit 77 after one attempt, even with retries allowed")
  func unauthorizedIsFatal() async throws {
    let feed = try serve([
      .init(handshake: .refuse(status: 401, reason: "Unauthorized", retryAfter: nil), ending: .drop)
    ])
    defer { feed.stop() }
    let result = try await run(feed, ["--max-retries", "5"])
    #expect(result.status == 77)
    #expect(feed.record.connections == 1)
  }

  @Test("Ctrl-C during a long backoff exits at once")
  func interruptDuringBackoff() async throws {
    // 429 with Retry-After: 60 puts the ticker in a 60 s wait after the first attempt, so a
    // second attempt cannot come before the signal, however slow the machine.
    let feed = try serve([
      .init(handshake: .refuse(status: 429, reason: "Too Many Requests", retryAfter: 60), ending: .drop)
    ])
    defer { feed.stop() }
    let ticker = try RunningTicker(["--url", "ws://127.0.0.1:\(feed.port)/"], environment: Self.environment)
    let refused = await eventually { feed.record.connections >= 1 }
    #expect(refused)
    ticker.signal(SIGINT)
    // Exiting only after the 60 s wait would trip this 20 s bound.
    let (status, stderr) = await ticker.exit(within: 20)
    #expect(status == 130, "\(stderr)")
    #expect(feed.record.connections == 1)
  }

  // MARK: Hostile input

  @Test("a message over the size limit: close 1009, reconnect, nothing lost")
  func oversizedMessage() async throws {
    let payload = String(repeating: "61", count: 300)  // 300 × "a"
    var first = try Self.firstHalf()
    first.steps.append(Self.step(.raw, "81 7E 01 2C " + payload))
    let feed = try serve([
      .init(script: first, ending: .hold), .init(script: Self.secondHalf(), ending: Self.closeNormally),
    ])
    defer { feed.stop() }
    let result = try await run(feed, ["--max-message-size", "200"])
    #expect(Self.prices(result) == Self.allTrades)
    #expect(result.status == 0)
    #expect(feed.record.clientCloses.contains { $0?.code == .messageTooBig })
    #expect(result.stderr.contains("1009"))
  }

  @Test("invalid UTF-8 in a text frame: close 1007, reconnect")
  func invalidUTF8() async throws {
    var first = try Self.firstHalf()
    first.steps.append(Self.step(.raw, "81 02 C3 28"))
    let feed = try serve([
      .init(script: first, ending: .hold), .init(script: Self.secondHalf(), ending: Self.closeNormally),
    ])
    defer { feed.stop() }
    let result = try await run(feed, [])
    #expect(Self.prices(result) == Self.allTrades)
    #expect(feed.record.clientCloses.contains { $0?.code == .invalidFramePayloadData })
    #expect(result.status == 0)
  }

  @Test("malformed JSON, wrong shapes, unknown types and binary frames never lose a valid price")
  func garbageBetweenTrades() async throws {
    var script = try Self.firstHalf()
    script.steps.insert(
      contentsOf: [
        Self.step(.text, "not json at all"),
        Self.step(.text, #"{"data":5,"type":"trade"}"#),
        Self.step(.text, #"{"type":"news","headline":"x"}"#),
        Self.step(
          .text,
          #"{"data":[{"p":"oops","s":"BINANCE:BTCUSDT","t":1,"v":1},{"c":null,"p":95000.5,"s":"BINANCE:BTCUSDT","t":1768655933000,"v":1}],"type":"trade"}"#
        ),
        Self.step(
          .binary,
          #"{"data":[{"c":null,"p":95001.25,"s":"BINANCE:BTCUSDT","t":1768655933001,"v":1}],"type":"trade"}"#),
        Self.step(.text, "[1,2,3]"),
      ], at: 1)
    let feed = try serve([.init(script: script, ending: Self.closeNormally)])
    defer { feed.stop() }
    let result = try await run(feed, [])
    #expect(
      Self.prices(result) == ["95372.09", "95372.1", "95000.5", "95001.25", "95372.1", "95371.85", "95371.9"])
    #expect(result.status == 0)
    #expect(result.stderr.contains("malformed message"))
    #expect(result.stderr.contains("dropped malformed entries"))
  }

  @Test("a flood of garbage: warnings are rate-limited and counted")
  func warningFlood() async throws {
    var script = try Self.firstHalf()
    script.steps.append(contentsOf: (0..<60).map { Self.step(.text, "garbage \($0)") })
    let feed = try serve([.init(script: script, ending: Self.closeNormally)])
    defer { feed.stop() }
    let result = try await run(feed, [])
    #expect(result.status == 0)
    let warnings = result.stderr.split(separator: "\n").filter { $0.contains("malformed message:") }
    #expect(warnings.count == 5)
    #expect(result.stderr.contains("60 malformed messages in all (55 not shown)"))
    #expect(Self.prices(result) == Array(Self.allTrades.prefix(5)))
  }

  @Test("data after the server's close frame is ignored")
  func dataAfterClose() async throws {
    let feed = try serve([.init(script: Self.firstHalf(), ending: .closeThenData)])
    defer { feed.stop() }
    let result = try await run(feed, [])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(Self.prices(result) == Array(Self.allTrades.prefix(5)))
  }
}
