import Emulators
import Foundation
import Testing

@testable import Recording
@testable import WebSocketWire

/// The token on stderr, through the built binary: redacted where it stands, never inside other
/// words (a one-letter `FINNHUB_TOKEN` must not turn `--max-retries` into `--ma***-retries`).
@Suite("ticker: the token is redacted where it is, and only there")
struct RedactionEndToEndTests {
  @Test("FINNHUB_TOKEN=x and a bad --max-retries: the flag's name is printed intact")
  func oneLetterToken() async throws {
    let result = try await TickerProcess.run(
      ["--max-retries", "abc"], environment: TickerProcess.cleanEnvironment(["FINNHUB_TOKEN": "x"]))
    #expect(result.status == 64, "\(result.stderr)")
    #expect(result.stderr.contains("--max-retries"), "\(result.stderr)")
    #expect(result.stderr.contains("'abc'"), "\(result.stderr)")
    #expect(!result.stderr.contains("***"), "\(result.stderr)")
  }

  @Test("FINNHUB_TOKEN=e with --verbose: not one word of the demo's stderr is touched")
  func commonLetterToken() async throws {
    let result = try await TickerProcess.run(
      ["--demo", "--count", "2", "--verbose"],
      environment: TickerProcess.cleanEnvironment(["FINNHUB_TOKEN": "e"]))
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stderr.contains("ticker: demo: a simulated Finnhub market from ws://127.0.0.1:"),
      "\(result.stderr)")
    #expect(result.stderr.contains("with the native engine"), "\(result.stderr)")
    #expect(!result.stderr.contains("***"), "\(result.stderr)")
  }

  @Test("a real-looking token that a server echoes back never reaches stderr, even with --verbose")
  func echoedToken() async throws {
    let token = "sk-Redact9f8e7d6c5b4a"
    // A server that says the token back: in an error message (plain and in a query string) and
    // in its close reason.
    let script = SessionScript(steps: [
      .init(
        direction: .server, kind: .text, afterMilliseconds: 0,
        body: #"{"type":"error","msg":"token \#(token) is not allowed here (GET /?token=\#(token))"}"#),
      .init(
        direction: .server, kind: .text, afterMilliseconds: 0,
        body: #"{"data":[{"p":95372.09,"s":"BINANCE:BTCUSDT","t":1768655932976,"v":0.1}],"type":"trade"}"#),
    ])
    let server = try FeedServer(
      script: script,
      options: .init(
        timeScale: 0, emulation: .verbatim,
        ending: .close(CloseStatus(code: .normalClosure, reason: "bye, \(token)."))))
    server.start()
    defer { server.stop() }
    let result = try await TickerProcess.run(
      ["--url", "ws://127.0.0.1:\(server.port)/", "--every-trade", "--verbose"],
      environment: TickerProcess.cleanEnvironment(["FINNHUB_TOKEN": token]))
    #expect(result.status == 0, "\(result.stderr)")
    #expect(server.record.targets.first == "/?token=\(token)")  // it was sent, in the query
    #expect(result.stdoutLines.count == 1)
    #expect(!result.stderr.contains(token), "\(result.stderr)")
    #expect(!result.stderr.contains("Redact9f8e7d6c5b4a"), "\(result.stderr)")
    #expect(
      result.stderr.contains("connecting to ws://127.0.0.1:\(server.port)/?token=***"), "\(result.stderr)")
    #expect(result.stderr.contains("token *** is not allowed here (GET /?token=***)"), "\(result.stderr)")
    #expect(result.stderr.contains("bye, ***."), "\(result.stderr)")
  }
}
