import Emulators
import Foundation
import JSON
import TestSupport
import Testing

@testable import Recording
@testable import WebSocketWire

/// `--log-format json` through the built binary: every line on stderr one JSON object, with the
/// events a reconnect, a server's error, the end of the run, a usage error and `ticker serve` give;
/// the token never written. Time bounds are hang guards only.
@Suite("ticker --log-format json")
struct LogFormatEndToEndTests {
  static let token = "sk-LogFormat-SECRET-7"

  /// Each stderr line parsed; the test fails on any line that is not a JSON object with the keys
  /// every line has.
  static func objects(_ stderr: String) throws -> [JSONObject] {
    #expect(stderr.hasSuffix("\n"), "\(stderr)")
    return try stderr.split(separator: "\n").map { line in
      let object = try #require(
        try? JSONParser().parse(String(line)).objectValue, "not a JSON object: \(line)")
      for key in ["time", "level", "event", "message"] {
        #expect(object[key]?.stringValue != nil, "no \(key): \(line)")
      }
      let time = object["time"]?.stringValue ?? ""
      #expect(
        time.count == 24 && time.hasSuffix("Z") && ISO8601DateFormatter.withMilliseconds(time), "\(line)")
      #expect(["info", "warning", "error", "alert"].contains(object["level"]?.stringValue ?? ""), "\(line)")
      return object
    }
  }

  static func step(_ body: String) -> SessionScript.Step {
    .init(direction: .server, kind: .text, afterMilliseconds: 0, body: body)
  }

  static func trade(_ price: String, _ time: Int) -> SessionScript.Step {
    step(#"{"data":[{"p":\#(price),"s":"BINANCE:BTCUSDT","t":\#(time),"v":0.1}],"type":"trade"}"#)
  }

  @Test("a server error with the token and an escape, a drop, a reconnect, the end: every line JSON")
  func reconnect() async throws {
    // The server says the token back, with an ESC that would colour a terminal, then drops the
    // connection without a close frame; the second connection ends normally.
    let first = SessionScript(steps: [
      Self.step(
        #"{"type":"error","msg":"token \#(Self.token) refused \u001b[31m(GET /?token=\#(Self.token))"}"#),
      Self.trade("95372.09", 1_768_655_932_976),
    ])
    let second = SessionScript(steps: [Self.trade("95372.1", 1_768_655_933_976)])
    let server = try FeedServer(
      script: first,
      options: .init(
        timeScale: 0, emulation: .verbatim,
        plans: [
          .init(script: first, ending: .drop),
          .init(script: second, ending: .close(.init(code: .normalClosure, reason: "done, \(Self.token)"))),
        ]))
    server.start()
    defer { server.stop() }
    let result = try await TickerProcess.run(
      ["--url", "ws://127.0.0.1:\(server.port)/", "--every-trade", "--verbose", "--log-format", "json"],
      environment: TickerProcess.cleanEnvironment(["FINNHUB_TOKEN": Self.token]))
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdoutLines.count == 2, "\(result.stdout)")
    #expect(server.record.connections == 2)
    #expect(!result.stderr.contains(Self.token), "\(result.stderr)")
    #expect(!result.stderr.contains("LogFormat-SECRET"), "\(result.stderr)")
    #expect(!result.stderr.utf8.contains(0x1B), "a raw ESC reached stderr")

    let objects = try Self.objects(result.stderr)
    let events = objects.compactMap { $0["event"]?.stringValue }
    #expect(
      ["connected", "venue_error", "disconnected", "server_closed", "compression"].allSatisfy(
        events.contains),
      "\(events)")
    // No venue: a run of one.
    #expect(objects.allSatisfy { $0["venue"] == nil })

    let error = try #require(objects.first { $0["event"]?.stringValue == "venue_error" })
    #expect(error["level"]?.stringValue == "warning")
    #expect(
      error["message"]?.stringValue == #"server error: token *** refused \x1b[31m(GET /?token=***)"#,
      "\(error)")

    let dropped = try #require(objects.first { $0["event"]?.stringValue == "disconnected" })
    #expect(dropped["level"]?.stringValue == "warning")
    #expect(dropped["reason"]?.stringValue == "failed")
    #expect(dropped["attempt"]?.numberText == "1")
    #expect(dropped["retry_in_seconds"]?.numberText != nil)
    #expect(dropped["message"]?.stringValue?.hasPrefix("the connection was lost") == true, "\(dropped)")

    let connects = objects.filter { $0["event"]?.stringValue == "connected" }
    // The reconnect (attempt 0 is said only once subscribed, which the drop may come before).
    #expect(connects.last?["attempt"]?.numberText == "1", "\(connects)")
    #expect(connects.allSatisfy { $0["symbols"]?.arrayValue == [.string("BINANCE:BTCUSDT")] })

    let end = try #require(objects.last)
    #expect(end["event"]?.stringValue == "server_closed")
    #expect(end["level"]?.stringValue == "info")
    #expect(
      end["message"]?.stringValue == "the server closed the connection (1000 normal closure: done, ***)")
  }

  @Test("errors before the run: JSON when the command line or TICKER_LOG_FORMAT asks, text otherwise")
  func earlyErrors() async throws {
    let secret = ["FINNHUB_TOKEN": Self.token]
    let usage = try await TickerProcess.run(
      ["--log-format", "json", "--bogus", Self.token],
      environment: TickerProcess.cleanEnvironment(secret))
    #expect(usage.status == 64)
    let line = try #require(try Self.objects(usage.stderr).first)
    #expect(try Self.objects(usage.stderr).count == 1)
    #expect(line["event"]?.stringValue == "usage_error")
    #expect(line["level"]?.stringValue == "error")
    #expect(line["message"]?.stringValue?.hasPrefix("unknown option '--bogus'") == true, "\(line)")

    let environment = try await TickerProcess.run(
      ["--demo"],
      environment: TickerProcess.cleanEnvironment(
        secret.merging(
          ["TICKER_LOG_FORMAT": "json", "TICKER_MAX_RETRIES": "abc"]) { $1 }))
    #expect(environment.status == 78, "\(environment.stderr)")
    #expect(try Self.objects(environment.stderr).map { $0["event"]?.stringValue } == ["config_error"])

    let missing = try await TickerProcess.run(
      ["--demo", "--log-format=json", "--config", "/nonexistent/ticker.json"],
      environment: TickerProcess.cleanEnvironment(secret))
    #expect(missing.status == 66, "\(missing.stderr)")
    #expect(try Self.objects(missing.stderr).map { $0["event"]?.stringValue } == ["config_error"])

    // Before anything else: started with stdout closed.
    let closed = try await TickerProcess.run(
      ["-c", #"exec "$0" --demo --count 1 --log-format json >&-"#, TickerProcess.executable.path],
      environment: TickerProcess.cleanEnvironment(secret), program: URL(fileURLWithPath: "/bin/sh"))
    #expect(closed.status == 74, "\(closed.stderr)")
    #expect(try Self.objects(closed.stderr).map { $0["event"]?.stringValue } == ["stdout_closed"])

    // The default is the text, as it was.
    let text = try await TickerProcess.run(["--bogus"], environment: TickerProcess.cleanEnvironment(secret))
    #expect(text.status == 64)
    #expect(text.stderr.hasPrefix("ticker: error: unknown option '--bogus'"), "\(text.stderr)")
  }

  @Test("several venues: each venue's lines name it")
  func severalVenues() async throws {
    let result = try await TickerProcess.run(
      [
        "--demo", "-s", "binance/BTCUSDT", "-s", "kraken/BTC/USD", "--count", "4", "--verbose",
        "--log-format", "json",
      ],
      environment: TickerProcess.cleanEnvironment(["FINNHUB_TOKEN": Self.token]))
    #expect(result.status == 0, "\(result.stderr)")
    let connects = try Self.objects(result.stderr).filter { $0["event"]?.stringValue == "connected" }
    #expect(
      Set(connects.compactMap { $0["venue"]?.stringValue }) == ["Binance", "Kraken"], "\(result.stderr)")
    #expect(
      connects.allSatisfy { $0["message"]?.stringValue?.hasPrefix("connected; subscribed to ") == true })
  }

  @Test("ticker serve: its clients' comings and goings as events")
  func serve() async throws {
    let serve = try await ServeRun.start(
      ["--demo", "--log-format", "json"],
      environment: TickerProcess.cleanEnvironment(["FINNHUB_TOKEN": Self.token]))
    let client = try await TickerProcess.run(
      ["--url", serve.url, "-s", "BINANCE:BTCUSDT", "--every-trade", "--count", "2"],
      environment: TickerProcess.cleanEnvironment(["FINNHUB_TOKEN": "client-key"]))
    #expect(client.status == 0, "\(client.stderr)")
    let process = serve.process
    _ = await eventually { process.stderrSoFar.contains("client_disconnected") }
    serve.process.signal(SIGTERM)
    let ended = await serve.process.exit()
    let objects = try Self.objects(ended.stderr)
    let came = try #require(
      objects.first { $0["event"]?.stringValue == "client_connected" }, "\(ended.stderr)")
    #expect(came["client"]?.numberText == "1")
    #expect(came["open"]?.numberText == "1")
    #expect(came["message"]?.stringValue == "serve: client 1 connected (1 open)")
    let went = try #require(objects.first { $0["event"]?.stringValue == "client_disconnected" })
    #expect(went["client"]?.numberText == "1")
    #expect(went["open"]?.numberText == "0")
    #expect(!ended.stderr.contains(Self.token))
  }
}

extension ISO8601DateFormatter {
  /// Whether `text` is an RFC 3339 time with fractional seconds.
  static func withMilliseconds(_ text: String) -> Bool {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return formatter.date(from: text) != nil
  }
}
