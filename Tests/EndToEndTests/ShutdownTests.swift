import Emulators
import Foundation
import Testing

@testable import Recording
@testable import TestSupport

/// How the ticker stops: its reader going away, and signals.
@Suite("ticker shutdown")
struct ShutdownTests {
  @Test("stdout's reader goes away (ticker | head): exit 0, nothing on stderr")
  func readerGone() async throws {
    let ticker = try RunningTicker(["--demo", "--every-trade"])
    #expect(await ticker.lines(1).count >= 1)
    ticker.closeStdout()
    let (status, stderr) = await ticker.exit()
    #expect(status == 0)
    #expect(stderr.isEmpty, "\(stderr)")
  }

  @Test(
    "SIGINT and SIGTERM unsubscribe, close with 1000, print pending prices, exit 130/143",
    arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
  func signals(signal: Int32, expectedStatus: Int32) async throws {
    let script = try SessionScript(ndjson: Fixture.text("finnhub-session.ndjson"))
    let feed = try FeedServer(script: script, options: .init(timeScale: 0, ending: .hold))
    feed.start()
    defer { feed.stop() }
    let ticker = try RunningTicker(
      ["--url", "ws://127.0.0.1:\(feed.port)/", "--debounce", "600"],
      environment: TickerProcess.cleanEnvironment(["FINNHUB_TOKEN": "sk-signal-test"]))
    // Wait until the server has sent the whole replay and holds the connection open: all of
    // it reaches the ticker before the server's answer to our close, and sits pending in the
    // debounce stage (600 s) when the signal arrives.
    let replayed = await eventually { feed.record.scriptsCompleted == 1 }
    #expect(replayed)
    ticker.signal(signal)
    let lines = await ticker.lines(1)
    let (status, stderr) = await ticker.exit()
    #expect(status == expectedStatus, "\(stderr)")
    // Nothing valid is lost: the pending price is printed on the way out.
    #expect(lines.count == 1)
    let record = feed.record
    #expect(record.clientMessages.contains(#"{"type":"unsubscribe","symbol":"BINANCE:BTCUSDT"}"#))
    #expect(record.clientCloses == [.init(code: .normalClosure)])
  }
}
