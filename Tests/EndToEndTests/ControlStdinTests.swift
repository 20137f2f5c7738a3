import Emulators
import Foundation
import Testing

@testable import Recording
@testable import TestSupport

/// `--control stdin` on the built binary against FeedServer's Finnhub emulation: lines on stdin
/// change the subscription while the ticker runs, with the wire messages checked, no reconnect,
/// a removed symbol's pending price printed, bad lines refused, the end of stdin harmless, and the
/// current set sent again after a reconnect.
@Suite("ticker --control stdin")
struct ControlStdinTests {
  static let environment = TickerProcess.cleanEnvironment(["FINNHUB_TOKEN": "sk-control-SECRET-1"])

  static func subscribe(_ symbol: String) -> String { #"{"type":"subscribe","symbol":"\#(symbol)"}"# }
  static func unsubscribe(_ symbol: String) -> String { #"{"type":"unsubscribe","symbol":"\#(symbol)"}"# }

  func serve() throws -> FeedServer {
    var script = try SessionScript(ndjson: Fixture.text("finnhub-session.ndjson"))
    // Once this is reported (with --verbose), every trade before it has been taken in.
    script.steps.append(
      .init(direction: .server, kind: .text, afterMilliseconds: 0, body: #"{"type":"news"}"#))
    let server = try FeedServer(script: script, options: .init(timeScale: 0, ending: .hold))
    server.start()
    return server
  }

  @Test("add, remove, replace and list while running; pending prices kept; the set survives a reconnect")
  func controlWhileRunning() async throws {
    let server = try serve()
    defer { server.stop() }
    let ticker = try RunningTicker(
      [
        "--url", "ws://127.0.0.1:\(server.port)/", "--control", "stdin", "--debounce", "60", "--verbose",
        "--max-backoff", "0.2",
      ], environment: Self.environment, stdin: true)
    func seen(_ message: String, times: Int = 1) async -> Bool {
      await eventually { server.record.clientMessages.filter { $0 == message }.count >= times }
    }
    func said(_ text: String) async -> Bool { await eventually { ticker.stderrSoFar.contains(text) } }

    #expect(await said(#"ignored a message of type "news""#))
    // Debounced for a minute, BTC's last price is pending; removing BTC prints it at once.
    ticker.send("+AAPL\n-BINANCE:BTCUSDT\n")
    #expect(await seen(Self.subscribe("AAPL")))
    #expect(await seen(Self.unsubscribe("BINANCE:BTCUSDT")))
    let printed = await ticker.lines(1)
    #expect(printed.first?.hasSuffix("\tBINANCE:BTCUSDT\t95380") == true, "\(printed)")

    ticker.send("=AAPL,MSFT\n?\nhello\n+\n+AAPL\n")
    #expect(await seen(Self.subscribe("MSFT")))
    #expect(await said("ticker: following 2 symbol(s): AAPL, MSFT"))
    #expect(await said(#"ticker: warning: control: unknown control line "hello""#))
    #expect(await said(#"ticker: warning: control: "+" names no symbol"#))
    #expect(await said("ticker: nothing to change; following 2 symbol(s): AAPL, MSFT"))

    // The end of stdin changes nothing; the ticker goes on, and a reconnect sends the current set.
    ticker.closeStdin()
    server.dropConnections()
    #expect(await seen(Self.subscribe("AAPL"), times: 2))
    #expect(await seen(Self.subscribe("MSFT"), times: 2))
    #expect(await said("reconnected (attempt 1); subscribed again to 2 symbol(s)"))
    ticker.signal(SIGINT)
    let (status, stderr) = await ticker.exit()
    #expect(status == 130, "\(stderr)")
    let messages = server.record.clientMessages
    #expect(messages.filter { $0 == Self.subscribe("BINANCE:BTCUSDT") }.count == 1)
    #expect(messages.filter { $0 == Self.subscribe("AAPL") }.count == 2)  // "+AAPL" again: nothing sent
    #expect(server.record.connections == 2)  // no reconnect for any change
  }

  @Test("without --control stdin, stdin is never read")
  func stdinUntouchedWithoutControl() async throws {
    let server = try serve()
    defer { server.stop() }
    let ticker = try RunningTicker(
      ["--url", "ws://127.0.0.1:\(server.port)/", "--verbose"], environment: Self.environment, stdin: true)
    ticker.send("+AAPL\n")
    #expect(await eventually { ticker.stderrSoFar.contains(#"ignored a message of type "news""#) })
    ticker.signal(SIGINT)
    let (status, _) = await ticker.exit()
    #expect(status == 130)
    #expect(!server.record.clientMessages.contains(Self.subscribe("AAPL")))
  }
}
