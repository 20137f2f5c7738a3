import Emulators
import Foundation
import TestSupport
import Testing
import WebSocketWire

/// `ticker serve` with several venues: clients ask for qualified symbols (`coinbase/BTC-USD`),
/// serve keeps an upstream per venue (FeedServer's emulations, `--url VENUE=URL`), and each client
/// gets only its symbols' trades, named as it asked for them.
@Suite("ticker serve with several venues", .serialized)
struct ServeSeveralVenuesTests {
  /// The trades' `s` fields of a trade message.
  static func symbols(in text: String) -> [String] {
    text.components(separatedBy: #""s":""#).dropFirst().map { String($0.prefix { $0 != "\"" }) }
  }

  /// A venue's emulator trading on: serve opens it at start, before any client subscribes, so it
  /// has no deadline for subscribing (Coinbase's 5 s would drop it on a slow machine).
  static func serve(_ venue: VenueEmulation, ending: ConnectionPlan.Ending) throws -> FeedServer {
    try VenueEndToEndTests.serve(venue.patient(), ending: ending)
  }

  /// Trade messages from `peer` (lines after `prefix`) until `count` trades were seen.
  static func trades(from peer: LinePeer, prefix: String, count: Int) async -> [String] {
    var seen: [String] = []
    while seen.count < count {
      guard let line = await peer.expect({ $0.contains(#""type":"trade""#) }) else { break }
      let text = String(line.dropFirst(prefix.count))
      #expect(
        text.hasPrefix(#"{"data":[{"c":null,"p":"#) && text.hasSuffix(#"}],"type":"trade"}"#), "\(text)")
      seen += symbols(in: text)
    }
    return seen
  }

  @Test(
    "clients asking for two venues' symbols each get only theirs, qualified as they asked",
    .requires(.websocat, .pythonWebsockets))
  func twoVenues() async throws {
    let binance = try Self.serve(.binance, ending: .synthetic(seed: 3, interval: 0.02))
    let coinbase = try Self.serve(.coinbase, ending: .synthetic(seed: 1, interval: 0.02))
    defer { [binance, coinbase].forEach { $0.stop() } }
    let serve = try await ServeRun.start([
      "--provider", "binance", "--url", "binance=\(binance.url)", "--url", "coinbase=\(coinbase.url)",
    ])

    let (python, opened) = try await serve.python()
    #expect(opened == "OPEN")
    python.send(subscribe("binance/btcusdt"))
    let websocat = try serve.websocat()
    websocat.send(subscribe("coinbase/BTC-USD"))
    // Our own client, unqualified: the default venue's (--provider), named as before.
    let ticker = try RunningTicker(
      ["--url", serve.url, "-s", "BTCUSDT", "--every-trade", "--format", "json", "--count", "5"],
      environment: TickerProcess.cleanEnvironment(["FINNHUB_TOKEN": "anything"]))

    #expect(
      await Self.trades(from: python, prefix: "TEXT ", count: 10).allSatisfy { $0 == "binance/BTCUSDT" })
    #expect(await Self.trades(from: websocat, prefix: "", count: 10).allSatisfy { $0 == "coinbase/BTC-USD" })
    let lines = await ticker.lines(5)
    #expect(lines.count >= 5)
    #expect(lines.allSatisfy { $0.contains(#""symbol":"BTCUSDT""#) }, "\(lines)")
    #expect(await ticker.exit().status == 0)

    // A venue not in the catalog: Finnhub's error for that symbol, and the connection stays.
    python.send(subscribe("nasdaq/AAPL"))
    #expect(await python.expect { $0 == #"TEXT {"msg":"Invalid symbol nasdaq/AAPL","type":"error"}"# } != nil)
    // A venue that cannot be opened (Finnhub without a token) answers the same.
    python.send(subscribe("finnhub/AAPL"))
    #expect(
      await python.expect { $0 == #"TEXT {"msg":"Invalid symbol finnhub/AAPL","type":"error"}"# } != nil)
    // Unsubscribing the qualified symbol stops its trades upstream (the last follower left).
    websocat.send(unsubscribe("coinbase/BTC-USD"))
    #expect(await eventually { coinbase.record.subscriptions.count == 2 })

    // Each venue was asked for its own symbol, once, on one connection.
    #expect(binance.record.subscriptions.map(\.subscribed) == [["btcusdt@trade"]])
    #expect(coinbase.record.subscriptions.map(\.subscribed) == [["BTC-USD"], []])
    #expect(binance.record.connections == 1)
    #expect(coinbase.record.connections == 1)
    for server in [binance, coinbase] {
      #expect(server.record.violations.isEmpty, "\(server.record.violations)")
    }

    await websocat.finish()
    await python.finish()
    serve.process.signal(SIGINT)
    let ended = await serve.process.exit()
    #expect(ended.status == 130, "\(ended.stderr)")
    #expect(ended.stderr.contains("ticker: error: Finnhub: no API token"), "\(ended.stderr)")
  }

  @Test(
    "a venue whose upstream ends for good is reported as its own; the other venue's clients go on",
    .requires(.pythonWebsockets))
  func oneVenueEnds() async throws {
    let binance = try Self.serve(.binance, ending: .synthetic(seed: 3, interval: 0.02))
    let coinbase = try Self.serve(
      .coinbase, ending: .close(CloseStatus(code: .normalClosure, reason: "done")))
    defer { [binance, coinbase].forEach { $0.stop() } }
    let serve = try await ServeRun.start([
      "--provider", "binance", "--url", "binance=\(binance.url)", "--url", "coinbase=\(coinbase.url)",
    ])
    let (python, opened) = try await serve.python()
    #expect(opened == "OPEN")
    python.send(subscribe("coinbase/BTC-USD"))
    // The recorded session's one trade, then Coinbase closes with 1000.
    #expect(await Self.trades(from: python, prefix: "TEXT ", count: 1) == ["coinbase/BTC-USD"])
    let note = "ticker: Coinbase: the server closed the connection"
    #expect(await eventually { serve.process.stderrSoFar.contains(note) })
    python.send(subscribe("btcusdt"))
    #expect(await Self.trades(from: python, prefix: "TEXT ", count: 10).allSatisfy { $0 == "BTCUSDT" })
    #expect(coinbase.record.connections == 1)
    await python.finish()
    serve.process.signal(SIGINT)
    let ended = await serve.process.exit()
    #expect(ended.status == 130, "\(ended.stderr)")
  }

  @Test("serve --record records one venue: naming several is a usage error")
  func recordsOneVenue() async throws {
    let path = RecordReplayTests.temporaryFile("serve.ndjson")
    let result = try await TickerProcess.run([
      "serve", "--demo", "--port", "0", "-s", "binance/BTCUSDT", "-s", "coinbase/BTC-USD", "--record", path,
    ])
    #expect(result.status == 64, "\(result.stderr)")
    #expect(result.stderr.contains("serve --record records one venue"), "\(result.stderr)")
    #expect(result.stdout.isEmpty)
    #expect(!FileManager.default.fileExists(atPath: path))
  }

  @Test(
    "a venue nobody asked for at start opens when a client first asks for one of its symbols",
    .requires(.pythonWebsockets))
  func opensOnDemand() async throws {
    let serve = try await ServeRun.start(["--demo", "--provider", "binance"])
    let (python, opened) = try await serve.python()
    #expect(opened == "OPEN")
    python.send(subscribe("okx/btc-usdt"))
    python.send(subscribe("btcusdt"))
    let seen = await Self.trades(from: python, prefix: "TEXT ", count: 40)
    #expect(seen.contains("okx/BTC-USDT"), "\(seen)")
    #expect(seen.contains("BTCUSDT"), "\(seen)")
    #expect(Set(seen).isSubset(of: ["okx/BTC-USDT", "BTCUSDT"]), "\(seen)")
    await python.finish()
    serve.process.signal(SIGTERM)
    let ended = await serve.process.exit()
    #expect(ended.status == 143, "\(ended.stderr)")
  }
}
