import Emulators
import Foundation
import Testing

@testable import Recording
@testable import TestSupport
@testable import WebSocketWire

/// The built binary against FeedServer's emulation of Kraken v2: the recorded session's prices
/// exactly as sent, a refused pair reported and taken back while the others print, every pair
/// refused (exit 65), and subscription changes over `--control stdin` with the wire messages
/// checked, the current set after a reconnect included.
@Suite("ticker against Kraken")
struct KrakenEndToEndTests {
  static let environment = TickerProcess.cleanEnvironment()

  static func serve(ending: ConnectionPlan.Ending = .hold, awaitSubscriptions: Int = 1) throws -> FeedServer {
    let server = try FeedServer(
      script: SessionScript(ndjson: Fixture.text("kraken-session.ndjson")),
      options: .init(
        timeScale: 0, emulation: .venue(.kraken), ending: ending, awaitSubscriptions: awaitSubscriptions))
    server.start()
    return server
  }

  static let recorded = [
    "2026-09-21T14:02:11.462Z\tBTC/USD\t80912.4",
    "2026-09-21T14:02:12.717Z\tBTC/USD\t80915.0",
    "2026-09-21T14:02:13.384Z\tBTC/USD\t80909.8",
  ]

  @Test("the recorded session prints exactly its prices, as Kraken wrote them")
  func recordedSession() async throws {
    let server = try Self.serve(ending: .close(CloseStatus(code: .normalClosure, reason: "done")))
    defer { server.stop() }
    let result = try await TickerProcess.run(
      ["--provider", "kraken", "--url", server.url.description, "-s", "btc/usd", "--every-trade"],
      environment: Self.environment)
    #expect(result.stdoutLines == Self.recorded, "\(result.stderr)")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(server.record.violations.isEmpty, "\(server.record.violations)")
    #expect(
      server.record.clientMessages.first
        == #"{"method":"subscribe","params":{"channel":"ticker","symbol":["BTC/USD"]},"req_id":1}"#)
  }

  @Test("a refused pair is reported and taken back; the others still print")
  func refusedPair() async throws {
    let server = try Self.serve(ending: .close(CloseStatus(code: .normalClosure, reason: "done")))
    defer { server.stop() }
    let result = try await TickerProcess.run(
      ["--provider", "kraken", "--url", server.url.description, "-s", "BTC/USD,XBT/USD", "--every-trade"],
      environment: Self.environment)
    #expect(result.stdoutLines == Self.recorded, "\(result.stderr)")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stderr.contains(
        "Kraken refused the change: Currency pair not supported XBT/USD; no longer subscribed to XBT/USD"),
      "\(result.stderr)")
    // One request for both pairs, answered pair by pair.
    #expect(
      server.record.clientMessages.first
        == #"{"method":"subscribe","params":{"channel":"ticker","symbol":["BTC/USD","XBT/USD"]},"req_id":1}"#)
  }

  @Test("every pair refused ends the run (exit 65)")
  func everyPairRefused() async throws {
    let server = try Self.serve()
    defer { server.stop() }
    let result = try await TickerProcess.run(
      ["--provider", "kraken", "--url", server.url.description, "-s", "NOPE/USD,XBT/USD"],
      environment: Self.environment)
    #expect(result.status == 65, "\(result.stderr)")
    #expect(
      result.stderr.contains("Kraken refused the subscription: every symbol was refused (NOPE/USD, XBT/USD)"),
      "\(result.stderr)")
    #expect(result.stdoutLines.isEmpty)
    #expect(server.record.connections == 1)
  }

  @Test(
    "--control stdin: one request per change, a refused pair taken back, the current set after a reconnect")
  func control() async throws {
    let server = try Self.serve()
    defer { server.stop() }
    let ticker = try RunningTicker(
      [
        "--provider", "kraken", "--url", server.url.description, "-s", "BTC/USD", "--every-trade",
        "--control",
        "stdin", "--max-backoff", "0.2",
      ], environment: Self.environment, stdin: true)
    func subscribed(_ pairs: [String], connection: Int = 0) async -> Bool {
      await eventually {
        server.record.subscriptions.contains { $0.connection == connection && $0.subscribed == pairs }
      }
    }
    #expect(await ticker.lines(3) == Self.recorded)
    ticker.send("+eth/usd,nope/usd\n")
    #expect(await eventually { ticker.stderrSoFar.contains("no longer subscribed to NOPE/USD") })
    #expect(await subscribed(["BTC/USD", "ETH/USD"]))
    ticker.send("-BTC/USD\n?\n")
    #expect(await eventually { ticker.stderrSoFar.contains("following 1 symbol(s): ETH/USD") })
    #expect(await subscribed(["ETH/USD"]))
    server.dropConnections()
    #expect(await subscribed(["ETH/USD"], connection: 1))
    ticker.signal(SIGINT)
    let (status, stderr) = await ticker.exit()
    #expect(status == 130, "\(stderr)")
    let requests = server.record.clientMessages.filter { $0.contains(#""params""#) }
    #expect(
      Array(requests.prefix(3)) == [
        #"{"method":"subscribe","params":{"channel":"ticker","symbol":["BTC/USD"]},"req_id":1}"#,
        #"{"method":"subscribe","params":{"channel":"ticker","symbol":["ETH/USD","NOPE/USD"]},"req_id":2}"#,
        #"{"method":"unsubscribe","params":{"channel":"ticker","symbol":["BTC/USD"]},"req_id":3}"#,
      ], "\(requests)")
    #expect(
      requests.contains(
        #"{"method":"subscribe","params":{"channel":"ticker","symbol":["ETH/USD"]},"req_id":4}"#))
    // The only rule broken is the refused pair's (the emulation records every refusal).
    #expect(server.record.violations == [.invalidRequest("Currency pair not supported NOPE/USD")])
  }
}
