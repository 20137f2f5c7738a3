import Emulators
import Foundation
import Testing
import Venues

@testable import Recording
@testable import TestSupport
@testable import WebSocketWire

/// The built binary against FeedServer's emulation of each venue, as strict as the real one:
/// exact stdout from the venue's recorded session, its error cases, subscription changes over
/// `--control stdin` with the wire messages checked, the current set after a reconnect, and what
/// each venue demands (Binance's pongs and message rate, Upbit's silent unknown codes, Coinbase's
/// refusals).
@Suite("ticker against each venue")
struct VenueEndToEndTests {
  static let environment = TickerProcess.cleanEnvironment()

  static func fixture(_ venue: VenueEmulation) throws -> SessionScript {
    try SessionScript(ndjson: Fixture.text("\(venue.name)-session.ndjson"))
  }

  static func serve(
    _ venue: VenueEmulation, script: SessionScript? = nil, ending: ConnectionPlan.Ending = .hold,
    plans: [ConnectionPlan] = [], awaitSubscriptions: Int = 1
  ) throws -> FeedServer {
    let server = try FeedServer(
      script: script ?? fixture(venue),
      options: .init(
        timeScale: 0, emulation: .venue(venue), ending: ending, awaitSubscriptions: awaitSubscriptions,
        plans: plans))
    server.start()
    return server
  }

  static func url(_ server: FeedServer) -> String { server.url.description }

  // MARK: Each venue's recorded session, exactly

  @Test(
    "the recorded session of each venue prints exactly its prices",
    arguments: [
      (
        VenueEmulation.upbit, "KRW-BTC",
        [
          "2026-02-16T13:16:54.642Z\tKRW-BTC\t103160000.0",
          "2026-02-16T13:16:55.101Z\tKRW-BTC\t103156000",  // sent as 1.03156E8
        ]
      ),
      (.binance, "btcusdt", ["2026-09-14T16:52:56.250Z\tBTCUSDT\t78860.00000000"]),
      (.coinbase, "btc-usd", ["2026-08-25T03:35:57.198Z\tBTC-USD\t80691.53"]),
      (
        .kraken, "btc/usd",
        [
          "2026-09-21T14:02:11.462Z\tBTC/USD\t80912.4", "2026-09-21T14:02:12.717Z\tBTC/USD\t80915.0",
          "2026-09-21T14:02:13.384Z\tBTC/USD\t80909.8",
        ]
      ),
      (
        .okx, "btc-usdt",
        [
          "2026-10-06T09:14:31.509Z\tBTC-USDT\t79412.6", "2026-10-06T09:14:31.714Z\tBTC-USDT\t79412.5",
          "2026-10-06T09:14:31.874Z\tBTC-USDT\t79413",  // sent as "79413", kept so
          "2026-10-06T09:14:51.826Z\tBTC-USDT\t79415.2",
        ]
      ),
    ])
  func recordedSession(venue: VenueEmulation, symbol: String, expected: [String]) async throws {
    let server = try Self.serve(venue, ending: .close(CloseStatus(code: .normalClosure, reason: "done")))
    defer { server.stop() }
    let result = try await TickerProcess.run(
      ["--provider", venue.name, "--url", Self.url(server), "-s", symbol, "--every-trade"],
      environment: Self.environment)
    #expect(result.stdoutLines == expected, "\(result.stderr)")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(server.record.violations.isEmpty, "\(server.record.violations)")
  }

  // MARK: Upbit

  @Test("Upbit: whole-list requests for every change, binary frames, and the current list after a reconnect")
  func upbitControl() async throws {
    let server = try Self.serve(.upbit)
    defer { server.stop() }
    let ticker = try RunningTicker(
      [
        "--provider", "upbit", "--url", Self.url(server), "-s", "krw-btc", "--every-trade", "--control",
        "stdin", "--max-backoff", "0.2",
      ], environment: Self.environment, stdin: true)
    func subscribed(_ codes: [String], connection: Int = 0) async -> Bool {
      await eventually {
        server.record.subscriptions.contains { $0.connection == connection && $0.subscribed == codes }
      }
    }
    #expect(await subscribed(["KRW-BTC"]))
    #expect(await ticker.lines(2).count == 2)
    ticker.send("+KRW-ETH\n")
    #expect(await subscribed(["KRW-BTC", "KRW-ETH"]))
    ticker.send("-krw-btc\n")
    #expect(await subscribed(["KRW-ETH"]))
    server.dropConnections()
    #expect(await subscribed(["KRW-ETH"], connection: 1))
    ticker.signal(SIGINT)
    let (status, stderr) = await ticker.exit()
    #expect(status == 130, "\(stderr)")
    // Every request is one whole list with a ticket of its own.
    let requests = server.record.clientMessages.filter { $0.hasPrefix("[") }
    #expect(requests.count == 4)
    let tickets = requests.compactMap { $0.split(separator: "\"").dropFirst(3).first }
    #expect(Set(tickets).count == 4, "\(requests)")
    #expect(server.record.violations.isEmpty, "\(server.record.violations)")
  }

  @Test("Upbit: an error ends the run (exit 65) instead of reconnecting into it again")
  func upbitError() async throws {
    let server = try Self.serve(
      .upbit, plans: [.init(ending: .upbitError(name: "WRONG_FORMAT", message: "Format is wrong"))])
    defer { server.stop() }
    let result = try await TickerProcess.run(
      ["--provider", "upbit", "--url", Self.url(server), "--every-trade"], environment: Self.environment)
    #expect(result.status == 65, "\(result.stderr)")
    #expect(
      result.stderr.contains("Upbit refused the subscription: WRONG_FORMAT: Format is wrong"),
      "\(result.stderr)")
    #expect(server.record.connections == 1)
    #expect(result.stdoutLines.count == 2)  // the prices before the error were printed
  }

  @Test("Upbit: a code that gives no quote is warned about once")
  func upbitUnknownCode() async throws {
    let server = try Self.serve(.upbit)
    defer { server.stop() }
    let ticker = try RunningTicker(
      ["--provider", "upbit", "--url", Self.url(server), "-s", "KRW-BTC,KRW-NOPE"],
      environment: Self.environment)
    #expect(await eventually { ticker.stderrSoFar.contains("no quote for KRW-NOPE within 5 s") })
    ticker.signal(SIGINT)
    let (status, stderr) = await ticker.exit()
    #expect(status == 130)
    #expect(stderr.components(separatedBy: "no quote for").count == 2, "\(stderr)")
    #expect(!stderr.contains("no quote for KRW-BTC"))
  }

  // MARK: Binance

  @Test(
    "Binance: SUBSCRIBE/UNSUBSCRIBE with ids while running, paced under 5 a second, the current set after a reconnect"
  )
  func binanceControl() async throws {
    let server = try Self.serve(.binance)
    defer { server.stop() }
    let ticker = try RunningTicker(
      [
        "--provider", "binance", "--url", Self.url(server), "-s", "btcusdt", "--every-trade", "--control",
        "stdin", "--max-backoff", "0.2",
      ], environment: Self.environment, stdin: true)
    func subscribed(_ streams: [String], connection: Int = 0) async -> Bool {
      await eventually {
        server.record.subscriptions.contains { $0.connection == connection && $0.subscribed == streams }
      }
    }
    #expect(await subscribed(["btcusdt@trade"]))
    // Eight changes at once: more than Binance takes in a second; the ticker paces them.
    ticker.send("+ETHUSDT\n+BNBUSDT\n-BNBUSDT\n+SOLUSDT\n+XRPUSDT\n-XRPUSDT\n+ADAUSDT\n-ethusdt\n")
    #expect(await subscribed(["btcusdt@trade", "solusdt@trade", "adausdt@trade"]))
    server.dropConnections()
    #expect(await subscribed(["btcusdt@trade", "solusdt@trade", "adausdt@trade"], connection: 1))
    ticker.signal(SIGINT)
    let (status, stderr) = await ticker.exit()
    #expect(status == 130, "\(stderr)")
    #expect(server.record.violations.isEmpty, "\(server.record.violations)")
    let requests = server.record.clientMessages.filter { $0.contains("\"method\"") }
    #expect(requests.first == #"{"method":"SUBSCRIBE","params":["btcusdt@trade"],"id":1}"#)
    #expect(requests.contains(#"{"method":"SUBSCRIBE","params":["ethusdt@trade"],"id":2}"#))
    #expect(requests.contains(#"{"method":"UNSUBSCRIBE","params":["ethusdt@trade"],"id":9}"#), "\(requests)")
    #expect(!stderr.contains("refused"))
  }

  @Test("Binance: pings are answered in time, so a venue that drops silent clients keeps the ticker")
  func binancePongs() async throws {
    // Pings every second (each pong counts against Binance's 5 client messages a second: a
    // loaded machine that stalls the ticker for a few seconds makes it answer the pings it owes
    // at once, which at a faster ping rate would break that limit); each must be answered
    // within 10 s, a bound that only a client that never answers misses, however loaded the
    // machine (VenueEmulatorTests shows such a client dropped).
    var rules = BinanceRules()
    rules.pingInterval = 1
    rules.pongTimeout = 10
    let server = try Self.serve(VenueEmulation(BinanceProvider(), rules: rules))
    defer { server.stop() }
    let ticker = try RunningTicker(
      ["--provider", "binance", "--url", Self.url(server), "--every-trade"], environment: Self.environment)
    #expect(await eventually { server.record.serverPings >= 3 && server.record.clientPongs.count >= 3 })
    ticker.signal(SIGINT)
    let (status, stderr) = await ticker.exit()
    #expect(status == 130, "\(stderr)")
    #expect(server.record.connections == 1)
    #expect(server.record.violations.isEmpty, "\(server.record.violations)")
  }

  @Test("Binance: serverShutdown is a transient close: reconnect, resubscribe, go on")
  func binanceServerShutdown() async throws {
    let server = try Self.serve(
      .binance,
      plans: [
        .init(ending: .binanceServerShutdown()),
        .init(ending: .close(CloseStatus(code: .normalClosure, reason: "done"))),
      ])
    defer { server.stop() }
    let result = try await TickerProcess.run(
      ["--provider", "binance", "--url", Self.url(server), "--every-trade", "--max-backoff", "0.2"],
      environment: Self.environment)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(server.record.connections == 2)
    #expect(result.stdoutLines.count == 2)
    #expect(result.stderr.contains("Binance is about to close the connection"), "\(result.stderr)")
  }

  @Test("Binance: HTTP 451 is fatal and says what to do")
  func binance451() async throws {
    let server = try Self.serve(
      .binance,
      plans: [
        .init(
          handshake: .refuse(status: 451, reason: "Unavailable For Legal Reasons", retryAfter: nil),
          ending: .drop)
      ])
    defer { server.stop() }
    let result = try await TickerProcess.run(
      ["--provider", "binance", "--url", Self.url(server), "--max-retries", "5"],
      environment: Self.environment)
    #expect(result.status == 76, "\(result.stderr)")
    #expect(result.stderr.contains("HTTP 451"))
    #expect(result.stderr.contains("--url"), "\(result.stderr)")
    #expect(server.record.connections == 1)
  }

  // MARK: Coinbase

  @Test("Coinbase: a refused product added while running is taken back; the rest goes on")
  func coinbaseRefusedChange() async throws {
    let server = try Self.serve(.coinbase)
    defer { server.stop() }
    let ticker = try RunningTicker(
      ["--provider", "coinbase", "--url", Self.url(server), "--every-trade", "--control", "stdin"],
      environment: Self.environment, stdin: true)
    #expect(await ticker.lines(1).count == 1)
    ticker.send("+GIBBERISH-USD\n")
    #expect(await eventually { ticker.stderrSoFar.contains("Coinbase refused the change") })
    #expect(ticker.stderrSoFar.contains("GIBBERISH-USD is not a valid product"), "\(ticker.stderrSoFar)")
    ticker.send("+ETH-USD\n?\n")
    #expect(await eventually { ticker.stderrSoFar.contains("following 2 symbol(s): BTC-USD, ETH-USD") })
    #expect(await eventually { server.record.subscriptions.last?.subscribed == ["BTC-USD", "ETH-USD"] })
    ticker.signal(SIGINT)
    let (status, stderr) = await ticker.exit()
    #expect(status == 130, "\(stderr)")
    #expect(server.record.connections == 1)
  }

  @Test("Coinbase: a refused first subscription ends the run (exit 65)")
  func coinbaseRefusedSubscription() async throws {
    let server = try Self.serve(.coinbase)
    defer { server.stop() }
    let result = try await TickerProcess.run(
      ["--provider", "coinbase", "--url", Self.url(server), "-s", "NOPE-USD"], environment: Self.environment)
    #expect(result.status == 65, "\(result.stderr)")
    #expect(result.stderr.contains("Coinbase refused the subscription"), "\(result.stderr)")
    #expect(server.record.connections == 1)
  }

  // MARK: Symbols

  @Test(
    "a symbol the venue cannot have is refused before connecting (exit 64)",
    arguments: [
      ("upbit", "KRW BTC"), ("binance", "BTC-USDT"), ("coinbase", "BTCUSD"), ("kraken", "BTC-USD"),
      ("okx", "BTCUSDT"),
    ])
  func invalidSymbol(provider: String, symbol: String) async throws {
    let result = try await TickerProcess.run(
      ["--provider", provider, "--url", "ws://127.0.0.1:9/", "-s", symbol], environment: Self.environment)
    #expect(result.status == 64, "\(result.stderr)")
    #expect(result.stderr.contains("is not a"), "\(result.stderr)")
  }
}

/// `ticker --demo --provider X`: each venue's recorded session, in its own wire format, then a
/// random walk, with no network and no key.
@Suite("ticker --demo for every venue")
struct VenueDemoCommandTests {
  @Test(
    "the demo of each venue prints its prices",
    arguments: [
      ("finnhub", "BINANCE:BTCUSDT"), ("upbit", "KRW-BTC"), ("binance", "BTCUSDT"), ("coinbase", "BTC-USD"),
      ("kraken", "BTC/USD"),
      ("okx", "BTC-USDT"),
    ])
  func demo(provider: String, symbol: String) async throws {
    let result = try await TickerProcess.run(
      ["--demo", "--provider", provider, "--count", "3", "--every-trade"],
      environment: TickerProcess.cleanEnvironment())
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdoutLines.count == 3)
    #expect(
      result.stdoutLines.allSatisfy { $0.split(separator: "\t").map(String.init).dropFirst().first == symbol }
    )
  }
}
