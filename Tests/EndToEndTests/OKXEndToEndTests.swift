import Foundation
import JSON
import Testing

@testable import Emulators
@testable import Recording
@testable import TestSupport
@testable import WebSocketWire

/// The built binary with `--provider okx` against FeedServer's OKX emulation: a refused
/// instrument reported and taken back while the others print, every instrument refused,
/// changes over `--control stdin` one request per instrument, the current set after a
/// reconnect, and the demo.
@Suite("ticker against OKX")
struct OKXEndToEndTests {
  static let environment = TickerProcess.cleanEnvironment()

  /// The recorded session with an ETH-USDT ticker after its BTC-USDT ones.
  static func script() throws -> SessionScript {
    let eth =
      #"{"arg":{"channel":"tickers","instId":"ETH-USDT"},"data":[{"instType":"SPOT","instId":"ETH-USDT","last":"3012.45","lastSz":"0.0213","askPx":"3012.46","askSz":"4.1","bidPx":"3012.45","bidSz":"12.30841","open24h":"2987.1","high24h":"3030","low24h":"2969.81","sodUtc0":"3001.02","sodUtc8":"2990.5","volCcy24h":"301225518.2219","vol24h":"100442.130118","ts":"1791278092004"}]}"#
    let line = #"{"dir":"S>","kind":"text","after_ms":100,"body":\#(JSONEscaping.quoted(eth))}"#
    return try SessionScript(ndjson: Fixture.text("okx-session.ndjson") + line + "\n")
  }

  static func serve(
    _ script: SessionScript, ending: ConnectionPlan.Ending = .hold, awaitSubscriptions: Int = 1
  ) throws -> FeedServer {
    let server = try FeedServer(
      script: script,
      options: .init(
        timeScale: 0, emulation: .venue(.okx), ending: ending, awaitSubscriptions: awaitSubscriptions))
    server.start()
    return server
  }

  static func request(_ op: String, _ instrument: String, _ id: Int) -> String {
    #"{"id":"\#(id)","op":"\#(op)","args":[{"channel":"tickers","instId":"\#(instrument)"}]}"#
  }

  @Test("an instrument OKX does not list is reported and taken back; the others print")
  func refusedInstrument() async throws {
    // The replay starts once the three requests are in: their answers come first.
    let server = try Self.serve(
      try Self.script(), ending: .close(CloseStatus(code: .normalClosure, reason: "done")),
      awaitSubscriptions: 3)
    defer { server.stop() }
    let result = try await TickerProcess.run(
      [
        "--provider", "okx", "--url", server.url.description, "-s", "btc-usdt,NOPE-USDT,eth-usdt",
        "--every-trade",
      ],
      environment: Self.environment)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdoutLines == [
        "2026-10-06T09:14:31.509Z\tBTC-USDT\t79412.6", "2026-10-06T09:14:31.714Z\tBTC-USDT\t79412.5",
        "2026-10-06T09:14:31.874Z\tBTC-USDT\t79413", "2026-10-06T09:14:51.826Z\tBTC-USDT\t79415.2",
        "2026-10-06T09:14:52.004Z\tETH-USDT\t3012.45",
      ])
    #expect(
      result.stderr.contains(
        "OKX refused the change 60018: Wrong URL or channel:tickers,instId:NOPE-USDT doesn't exist."),
      "\(result.stderr)")
    #expect(result.stderr.contains("no longer subscribed to NOPE-USDT"), "\(result.stderr)")
    #expect(
      Array(server.record.clientMessages.prefix(3)) == [
        Self.request("subscribe", "BTC-USDT", 1), Self.request("subscribe", "NOPE-USDT", 2),
        Self.request("subscribe", "ETH-USDT", 3),
      ])
  }

  @Test("every instrument refused: nothing can print, the run ends (exit 65)")
  func everyInstrumentRefused() async throws {
    let server = try Self.serve(try VenueTest.fixture("okx"))
    defer { server.stop() }
    let result = try await TickerProcess.run(
      ["--provider", "okx", "--url", server.url.description, "-s", "NOPE-USDT,BAD-USDT"],
      environment: Self.environment)
    #expect(result.status == 65, "\(result.stderr)")
    #expect(
      result.stderr.contains("OKX refused the subscription: every symbol was refused (BAD-USDT, NOPE-USDT)"),
      "\(result.stderr)")
    #expect(result.stdoutLines.isEmpty)
    #expect(server.record.connections == 1)
  }

  @Test(
    "--control stdin: one request per instrument, numbered; a refused one taken back; the current set after a reconnect"
  )
  func control() async throws {
    let server = try Self.serve(try VenueTest.fixture("okx"))
    defer { server.stop() }
    let ticker = try RunningTicker(
      [
        "--provider", "okx", "--url", server.url.description, "-s", "btc-usdt", "--every-trade", "--control",
        "stdin", "--max-backoff", "0.2",
      ], environment: Self.environment, stdin: true)
    #expect(await ticker.lines(4).count == 4)
    ticker.send("+ETH-USDT\n+nope-usdt\n-btc-usdt\n")
    #expect(await eventually { server.record.subscriptions.last?.subscribed == ["ETH-USDT"] })
    #expect(await eventually { ticker.stderrSoFar.contains("no longer subscribed to NOPE-USDT") })
    ticker.send("?\n")
    #expect(
      await eventually { ticker.stderrSoFar.contains("following 1 symbol(s): ETH-USDT") },
      "\(ticker.stderrSoFar)")
    server.dropConnections()
    #expect(
      await eventually {
        server.record.subscriptions.contains { $0.connection == 1 && $0.subscribed == ["ETH-USDT"] }
      })
    ticker.signal(SIGINT)
    let (status, stderr) = await ticker.exit()
    #expect(status == 130, "\(stderr)")
    let requests = server.record.clientMessages.filter { $0.hasPrefix(#"{"id":"#) }
    #expect(
      requests == [
        Self.request("subscribe", "BTC-USDT", 1), Self.request("subscribe", "ETH-USDT", 2),
        Self.request("subscribe", "NOPE-USDT", 3), Self.request("unsubscribe", "BTC-USDT", 4),
        // The reconnect: the current set, not the first one; then the unsubscribe before closing.
        Self.request("subscribe", "ETH-USDT", 5), Self.request("unsubscribe", "ETH-USDT", 6),
      ])
    #expect(
      server.record.violations
        == [
          .invalidRequest(OKXWire.Refusal.doesNotExist(channel: "tickers", instrument: "NOPE-USDT").message)
        ])
  }

  @Test("--demo --provider okx: any symbol asked for trades, at times of now")
  func demo() async throws {
    let result = try await TickerProcess.run(
      ["--demo", "--provider", "okx", "-s", "BTC-USDT,DOGE-EUR", "--count", "12", "--every-trade"],
      environment: Self.environment)
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdoutLines.compactMap(DemoLine.init)
    #expect(lines.count == 12, "\(result.stdout)")
    #expect(lines.allSatisfy { $0.isRecent() }, "\(result.stdout)")
    #expect(Set(lines.map(\.symbol)) == ["BTC-USDT", "DOGE-EUR"], "\(result.stdout)")
  }
}
