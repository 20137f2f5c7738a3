import Emulators
import Foundation
import Testing

@testable import Recording
@testable import TestSupport
@testable import WebSocketWire

/// The built `ticker` binary against FeedServer replaying the recorded Finnhub session.
@Suite("ticker end to end: Finnhub replay")
struct FinnhubEndToEndTests {
  static let token = "sk-e2e-SECRET-token-0042"

  func server(
    _ fixture: String = "finnhub-session.ndjson", awaitSubscriptions: Int = 1,
    ending: FeedServer.Options.Ending = .close(.init(code: .normalClosure, reason: "replay finished")),
    compression: PerMessageDeflate.ServerPolicy? = nil
  ) throws -> FeedServer {
    let script = try SessionScript(ndjson: Fixture.text(fixture))
    let server = try FeedServer(
      script: script,
      options: .init(
        timeScale: 0, ending: ending, awaitSubscriptions: awaitSubscriptions, compression: compression))
    server.start()
    return server
  }

  func url(_ server: FeedServer) -> String { "ws://127.0.0.1:\(server.port)/" }

  /// What `--debounce 0` prints for BINANCE:BTCUSDT, AAPL and BINANCE:NOPEUSDT.
  static let distinctLines = [
    "2026-01-17T13:18:52.976Z\tBINANCE:BTCUSDT\t95372.09",
    "2026-01-17T13:18:53.296Z\tBINANCE:BTCUSDT\t95372.1",
    "2026-01-17T13:18:53.390Z\tBINANCE:BTCUSDT\t95371.9",
    "2026-01-17T13:18:53.402Z\tBINANCE:BTCUSDT\t95371.85",
    "2026-01-17T13:18:53.500Z\tAAPL\t122.1",
    "2026-01-17T13:18:53.501Z\tAAPL\t122.09",
    "2026-01-17T13:18:53.510Z\tBINANCE:BTCUSDT\t95372.3",
    "2026-01-17T13:19:21.000Z\tBINANCE:BTCUSDT\t95380",
  ]

  /// What `--every-trade` prints for BINANCE:BTCUSDT alone: the price column.
  static let everyTradePrices = ["95372.09", "95372.1", "95372.1", "95371.85", "95371.9", "95372.3", "95380"]

  @Test("--debounce 0: every distinct price, in trade-time order, duplicates gone")
  func distinctPrices() async throws {
    let feed = try server(awaitSubscriptions: 3)
    defer { feed.stop() }
    let result = try await TickerProcess.run(
      ["--url", url(feed), "--symbol", "BINANCE:BTCUSDT,AAPL", "-s", "BINANCE:NOPEUSDT", "--debounce", "0"],
      environment: TickerProcess.cleanEnvironment(["FINNHUB_TOKEN": Self.token]))

    #expect(result.stdoutLines == Self.distinctLines)
    #expect(result.stderr.contains("Invalid symbol BINANCE:NOPEUSDT"))
    #expect(result.status == 0, "stderr: \(result.stderr)")
    // The token went to the server (positive control) and nowhere else.
    #expect(feed.record.targets.first?.contains("token=\(Self.token)") == true)
    #expect(!result.stdout.contains(Self.token))
    #expect(!result.stderr.contains(Self.token))
    // One subscribe per symbol, then the clean goodbye is the server's (it closed first).
    #expect(
      feed.record.clientMessages.prefix(3) == [
        #"{"type":"subscribe","symbol":"BINANCE:BTCUSDT"}"#,
        #"{"type":"subscribe","symbol":"AAPL"}"#,
        #"{"type":"subscribe","symbol":"BINANCE:NOPEUSDT"}"#,
      ])
  }

  @Test("--every-trade: every trade as sent, duplicates included")
  func everyTrade() async throws {
    let feed = try server()
    defer { feed.stop() }
    let result = try await TickerProcess.run(
      ["--url", url(feed), "--every-trade"],
      environment: TickerProcess.cleanEnvironment(["FINNHUB_TOKEN": Self.token]))
    let prices = result.stdoutLines.map { $0.split(separator: "\t").map(String.init) }
    #expect(prices.map { $0.last ?? "" } == Self.everyTradePrices)
    #expect(prices.allSatisfy { $0.count == 3 && $0[1] == "BINANCE:BTCUSDT" })
    #expect(result.status == 0, "stderr: \(result.stderr)")
  }

  @Test("through a compressing server (permessage-deflate): the same lines, every trade and distinct")
  func compressedServer() async throws {
    let everyFeed = try server(compression: .init())
    defer { everyFeed.stop() }
    let every = try await TickerProcess.run(
      ["--url", url(everyFeed), "--every-trade", "--verbose"],
      environment: TickerProcess.cleanEnvironment(["FINNHUB_TOKEN": Self.token]))
    #expect(every.status == 0, "stderr: \(every.stderr)")
    #expect(every.stderr.contains("ticker: compression: permessage-deflate\n"), "\(every.stderr)")
    let prices = every.stdoutLines.map { $0.split(separator: "\t").map(String.init) }
    #expect(prices.map { $0.last ?? "" } == Self.everyTradePrices)
    #expect(prices.allSatisfy { $0.count == 3 && $0[1] == "BINANCE:BTCUSDT" })
    // The ticker offered, the server agreed, and the data messages went out compressed: the
    // five trade messages for BINANCE:BTCUSDT (one with AAPL's trades filtered out) and the two
    // pings.
    #expect(everyFeed.record.extensionOffers == [PerMessageDeflate.clientOffer])
    #expect(everyFeed.record.deflateAgreements == ["permessage-deflate"])
    #expect(everyFeed.record.compressedMessages == 7)

    let distinctFeed = try server(awaitSubscriptions: 3, compression: .init(serverNoContextTakeover: true))
    defer { distinctFeed.stop() }
    let distinct = try await TickerProcess.run(
      [
        "--url", url(distinctFeed), "--symbol", "BINANCE:BTCUSDT,AAPL", "-s", "BINANCE:NOPEUSDT",
        "--debounce", "0",
      ],
      environment: TickerProcess.cleanEnvironment(["FINNHUB_TOKEN": Self.token]))
    #expect(distinct.status == 0, "stderr: \(distinct.stderr)")
    #expect(distinct.stdoutLines == Self.distinctLines)
    #expect(distinct.stderr.contains("Invalid symbol BINANCE:NOPEUSDT"))
    #expect(distinctFeed.record.deflateAgreements == ["permessage-deflate; server_no_context_takeover"])
    #expect(distinctFeed.record.compressedMessages > 0)
    // The subscriptions arrived whole (compressed or not, they were inflated).
    #expect(
      distinctFeed.record.clientMessages.prefix(3) == [
        #"{"type":"subscribe","symbol":"BINANCE:BTCUSDT"}"#,
        #"{"type":"subscribe","symbol":"AAPL"}"#,
        #"{"type":"subscribe","symbol":"BINANCE:NOPEUSDT"}"#,
      ])
  }

  @Test("--compression off: no offer, no agreement, the same prices from a compressing server")
  func compressionOff() async throws {
    let feed = try server(compression: .init())
    defer { feed.stop() }
    let result = try await TickerProcess.run(
      ["--url", url(feed), "--every-trade", "--compression", "off", "--verbose"],
      environment: TickerProcess.cleanEnvironment(["FINNHUB_TOKEN": Self.token]))
    #expect(result.status == 0, "stderr: \(result.stderr)")
    #expect(result.stderr.contains("ticker: compression: none (--compression off)\n"), "\(result.stderr)")
    #expect(
      result.stdoutLines.map { $0.split(separator: "\t").last.map(String.init) ?? "" }
        == Self.everyTradePrices)
    #expect(feed.record.connections == 1)
    #expect(feed.record.extensionOffers == [""])
    #expect(feed.record.deflateAgreements.isEmpty)
    #expect(feed.record.compressedMessages == 0)
  }

  @Test("default debounce: the latest price per symbol, flushed when the feed ends")
  func debouncedLatest() async throws {
    let feed = try server(awaitSubscriptions: 2)
    defer { feed.stop() }
    // A long interval: the whole compressed replay lands inside it on any machine, so exactly
    // the pending latest price per symbol is printed, when the server closes.
    let result = try await TickerProcess.run(
      ["--url", url(feed), "-s", "BINANCE:BTCUSDT,AAPL", "--debounce", "30"],
      environment: TickerProcess.cleanEnvironment(["FINNHUB_TOKEN": Self.token]))
    #expect(
      Set(result.stdoutLines) == [
        "2026-01-17T13:19:21.000Z\tBINANCE:BTCUSDT\t95380",
        "2026-01-17T13:18:53.501Z\tAAPL\t122.09",
      ])
    #expect(result.stdoutLines.count == 2)
    #expect(result.stderr.contains("server closed the connection"))
    #expect(result.status == 0)
  }

  @Test("JSON lines keep the exact price digits")
  func jsonFormat() async throws {
    let feed = try server()
    defer { feed.stop() }
    let result = try await TickerProcess.run(
      ["--url", url(feed), "--every-trade", "--format", "json", "--count", "1"],
      environment: TickerProcess.cleanEnvironment(["FINNHUB_TOKEN": Self.token]))
    #expect(result.stdoutLines.count == 1)
    let line = try #require(result.stdoutLines.first)
    #expect(line.contains(#""price":95372.09"#))
    #expect(line.contains(#""symbol":"BINANCE:BTCUSDT""#))
    let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
    #expect(object?["t"] as? Int == 1_768_655_932_976)
    #expect(result.status == 0)
  }

  @Test("401 at the handshake: token refused, exit 77, one attempt, token never printed")
  func unauthorized() async throws {
    let feed = try server("finnhub-unauthorized.ndjson")
    defer { feed.stop() }
    let result = try await TickerProcess.run(
      ["--url", url(feed), "--verbose"],
      environment: TickerProcess.cleanEnvironment(["FINNHUB_TOKEN": Self.token]))
    #expect(result.status == 77)
    #expect(result.stderr.contains("401"))
    #expect(result.stderr.lowercased().contains("token"))
    #expect(result.stdout.isEmpty)
    #expect(feed.record.connections == 1)
    #expect(feed.record.targets.first?.contains(Self.token) == true)
    #expect(!result.stderr.contains(Self.token))
    // --verbose printed the URL, redacted.
    #expect(result.stderr.contains("token=***"))
  }

  @Test("no token: a usage error before any connection")
  func missingToken() async throws {
    let feed = try server()
    defer { feed.stop() }
    let result = try await TickerProcess.run(["--url", url(feed)])
    #expect(result.status == 64)
    #expect(result.stderr.contains("FINNHUB_TOKEN"))
    #expect(feed.record.connections == 0)
  }
}
