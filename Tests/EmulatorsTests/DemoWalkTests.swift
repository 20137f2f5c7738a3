import FeedRuntime
import Foundation
import Testing
import Venues
import WebSocketClient

@testable import Emulators
@testable import JSON
@testable import Recording
@testable import TestSupport
@testable import WebSocketWire

/// The demo's leniency (`FeedServer.Options.acceptAnySymbol`): any well-formed symbol is
/// accepted and walks from a start price fixed by the seed and the symbol; without it the
/// emulations refuse or starve unknown symbols as the venues do.
@Suite("FeedServer: the demo walks any symbol; the strict venues still refuse", .ownThread)
struct DemoWalkTests {
  // MARK: The start price

  @Test("FNV-1a 64 gives the published values (a fixed function, not Swift's seeded Hasher)")
  func fnv1a() {
    #expect(FNV1a.hash("") == 0xCBF2_9CE4_8422_2325)
    #expect(FNV1a.hash("a") == 0xAF63_DC4C_8601_EC8C)
    #expect(FNV1a.hash("foobar") == 0x8594_4171_F739_67E8)
  }

  @Test("a symbol's start is a fixed function of the seed and the symbol")
  func startPrices() {
    // Pinned: the same in every process and on every machine.
    #expect(WalkStart.dollars.cents(for: "BINANCE:ETHUSDT", seed: 2026) == 2730)
    #expect(WalkStart.dollars.cents(for: "BINANCE:SOLUSDT", seed: 2026) == 58500)
    #expect(WalkStart.dollars.cents(for: "MSFT", seed: 2026) == 10300)
    #expect(WalkStart.dollars.cents(for: "BINANCE:ETHUSDT", seed: 7) == 2330)
    #expect(WalkStart.won.cents(for: "KRW-ETH", seed: 2026) == 4_400_000)
  }

  @Test("starts fall in the venue's range, never at or below zero", arguments: [WalkStart.dollars, .won])
  func startRange(range: WalkStart) {
    var upper = range.lowestCents
    for _ in 0..<range.decades { upper *= 10 }
    var seen = Set<Int64>()
    for i in 0..<2000 {
      let cents = range.cents(for: "SYM\(i)", seed: 2026)
      #expect(cents >= range.lowestCents && cents < upper, "SYM\(i): \(cents)")
      seen.insert(cents)
    }
    #expect(seen.count > 500)  // spread out, not a handful of values
  }

  @Test("Upbit's KRW-USDT starts near a real rate (1,350 to 1,499 won), whatever the seed")
  func usdtInWon() {
    var seen = Set<Int64>()
    for seed in UInt64(0)..<500 {
      let cents = WalkStart.usdtInWon.cents(for: "KRW-USDT", seed: seed)
      #expect(cents >= 135_000 && cents < 150_000, "seed \(seed): \(cents)")
      seen.insert(cents)
    }
    #expect(seen.count > 5)
  }

  @Test("the walk of an admitted symbol is the same for the same seed and differs between symbols")
  func walkDeterminism() {
    func walk(_ symbol: String, seed: UInt64, admittedFirst other: String? = nil) -> [SyntheticTrade] {
      var trades = SyntheticTrades(seed: seed, start: [:])
      if let other { trades.admit(other, from: .dollars) }
      trades.admit(symbol, from: .dollars)
      return (0..<50).flatMap { _ in trades.nextTrades(symbols: [symbol], elapsedMilliseconds: 150) }
    }
    let eth = walk("BINANCE:ETHUSDT", seed: 2026)
    #expect(eth.count >= 50)
    #expect(eth == walk("BINANCE:ETHUSDT", seed: 2026))
    // Another symbol admitted first changes neither the start nor the steps of this one.
    #expect(eth == walk("BINANCE:ETHUSDT", seed: 2026, admittedFirst: "AAPL"))
    #expect(eth.allSatisfy { $0.symbol == "BINANCE:ETHUSDT" })
    let sol = walk("BINANCE:SOLUSDT", seed: 2026)
    #expect(eth.map(\.cents) != sol.map(\.cents))
    #expect(eth.map(\.cents) != walk("BINANCE:ETHUSDT", seed: 7).map(\.cents))
    // A walk that moves: not stuck at its start.
    #expect(Set(eth.map(\.cents)).count > 5)
  }

  @Test("admitting keeps a known symbol's price; a symbol never admitted is never traded")
  func admission() {
    var walk = SyntheticTrades(seed: 1, start: ["AAPL": ("122.09", 1)])
    walk.admit("AAPL", from: .dollars)
    #expect(walk.price(of: "AAPL") == 12209)
    #expect(!walk.knows("MSFT"))
    #expect(walk.nextTrades(symbols: ["MSFT"], elapsedMilliseconds: 150).isEmpty)
  }

  @Test("prices stay positive from the lowest possible start")
  func positive() {
    var walk = SyntheticTrades(seed: 99, start: [:])
    walk.admit("PENNY", from: WalkStart(lowestCents: 1, decades: 1))
    for _ in 0..<2000 {
      for trade in walk.nextTrades(symbols: ["PENNY"], elapsedMilliseconds: 150) { #expect(trade.cents >= 1) }
    }
  }

  // MARK: Each venue

  /// The canonical form of `symbol` on `venue`.
  static func canonical(_ symbol: String, _ venue: VenueEmulation) -> String {
    (try? venue.provider.canonicalSymbol(symbol).get()) ?? symbol
  }

  /// The client's subscription to `symbols` (as `--symbol` takes them) in one request: the
  /// venue's provider's own.
  static func subscribe(_ venue: VenueEmulation, _ symbols: [String]) -> String {
    var ids = RequestIDs(prefix: "t")
    let messages = venue.provider.subscriptionMessages(
      from: [], to: symbols.map { canonical($0, venue) }, ids: &ids)
    return messages.first?.text ?? ""
  }

  /// How the venue's quotes name `symbol`.
  static func quoted(_ symbol: String, _ venue: VenueEmulation) -> String {
    venue.provider.serverSymbol(for: canonical(symbol, venue))
  }

  @Test(
    "an unknown symbol's synthetic trades decode in the venue's format, with exact prices",
    arguments: VenueEmulation.catalog)
  func syntheticUnknown(venue: VenueEmulation) throws {
    let quoted = Self.quoted(venue.untradedSymbol, venue)
    var emulator = ServerConnection.emulator(
      .venue(venue), script: try SessionScript(ndjson: venue.demoSession),
      ending: .hold, acceptAnySymbol: true)
    #expect(emulator.admit(try VenueTest.request(venue.path)) == .accept)
    let provider = try #require(ProviderCatalog.provider(named: venue.name))
    var context = DecodingContext()
    for action in emulator.receive(.text(Self.subscribe(venue, [venue.untradedSymbol])), at: .zero) {
      guard case .text(let text) = action else { continue }
      #expect(!text.contains("error"), "\(text)")
      _ = provider.decode(.text(text), context: &context)
    }
    #expect(emulator.subscribed.count == 1)
    let subscribed = try #require(emulator.subscribed.first)
    let start = try #require(emulator.walkStart(for: subscribed))
    var walk = SyntheticTrades(seed: 2026, start: emulator.lastPrices)
    walk.admit(subscribed, from: start)
    var quotes: [Quote] = []
    var expected: [Int64] = []
    for _ in 0..<30 {
      let trades = walk.nextTrades(symbols: emulator.subscribed, elapsedMilliseconds: 150)
      expected += trades.map(\.cents)
      for action in emulator.synthetic(trades) {
        switch action {
        case .text(let text): quotes += provider.decode(.text(text), context: &context).quotes
        case .binary(let text): quotes += provider.decode(.binary(Array(text.utf8)), context: &context).quotes
        default: Issue.record("unexpected \(action)")
        }
      }
    }
    #expect(quotes.count == expected.count)
    #expect(quotes.allSatisfy { $0.symbol == quoted && $0.price.value > 0 })
    // The digits of the walk, in the venue's style (whole won where it quotes in won).
    let prices = quotes.map(\.price)
    let inWon = venue.provider.market(of: quoted)?.quote == "KRW"
    let walked = expected.map { cents -> Price? in
      inWon ? Price(String(cents / 100)) : Price(SyntheticTrades.format(cents: cents))
    }
    #expect(prices == walked.compactMap { $0 })
  }

  @Test("what no venue would trade never joins the walk")
  func notWalked() throws {
    let script = SessionScript(steps: [])
    #expect(FinnhubEmulator(script: script).walkStart(for: "") == nil)
    #expect(FinnhubEmulator(script: script).walkStart(for: "A\u{1B}[2J") == nil)
    let upbit = UpbitEmulator(script: script, rules: UpbitRules())
    #expect(upbit.walkStart(for: "krw-eth") == nil)
    #expect(upbit.walkStart(for: "KRW-ETH") == .won)
    #expect(upbit.walkStart(for: "KRW-USDT") == .usdtInWon)
    let binance = BinanceEmulator(script: script, rules: BinanceRules())
    #expect(binance.walkStart(for: "ethusdt@depth") == nil)
    #expect(binance.walkStart(for: "ethusdt@trade") == .dollars)
    let coinbase = CoinbaseEmulator(script: script, rules: CoinbaseRules())
    #expect(coinbase.walkStart(for: "ETHEUR") == nil)
    #expect(coinbase.walkStart(for: "XLM-EUR") == .dollars)
    let kraken = KrakenEmulator(script: script, rules: KrakenRules())
    #expect(kraken.walkStart(for: "XLM-EUR") == nil && kraken.walkStart(for: "xlm/eur") == nil)
    #expect(kraken.walkStart(for: "XLM/EUR") == .dollars)
    let okx = OKXEmulator(script: script, rules: OKXRules())
    #expect(okx.walkStart(for: "BTC-USDT-SWAP") == nil)
    #expect(okx.walkStart(for: "xlm-eur") == nil)
    #expect(okx.walkStart(for: "XLM-EUR") == .dollars)
  }

  @Test("accepting any symbol: well-formed ones only")
  func lenientAcceptance() throws {
    let script = try SessionScript(ndjson: DemoSession.finnhub)
    var finnhub = FinnhubEmulator(script: script, acceptAnySymbol: true)
    #expect(finnhub.receive(clientText: #"{"type":"subscribe","symbol":"BINANCE:ETHUSDT"}"#).isEmpty)
    #expect(finnhub.receive(clientText: #"{"type":"subscribe","symbol":"IC MARKETS:1"}"#).isEmpty)
    #expect(
      finnhub.receive(clientText: #"{"type":"subscribe","symbol":"A\u0007B"}"#)
        == [#"{"msg":"Invalid symbol A\u0007B","type":"error"}"#])
    #expect(finnhub.subscriptions == ["BINANCE:ETHUSDT", "IC MARKETS:1"])

    var coinbase = CoinbaseEmulator(
      script: try SessionScript(ndjson: DemoSession.coinbase), rules: CoinbaseRules(), acceptAnySymbol: true)
    _ = coinbase.receive(.text(Self.subscribe(.coinbase, ["XLM-EUR"])), at: .zero)
    #expect(coinbase.tickerProducts == ["XLM-EUR"])
    // Written by hand: the provider would send the canonical XLM-EUR.
    let lowerCase = #"{"type":"subscribe","product_ids":["xlm-eur"],"channels":["ticker"]}"#
    let refused = coinbase.receive(.text(lowerCase), at: .zero)
    #expect(
      refused.first
        == .text(CoinbaseEmulator.error("Failed to subscribe", reason: "xlm-eur is not a valid product")))
  }

  @Test("strict emulations refuse unknown symbols as the venues do (pure)")
  func strictRefusal() throws {
    var finnhub = FinnhubEmulator(script: try SessionScript(ndjson: DemoSession.finnhub))
    #expect(
      finnhub.receive(clientText: #"{"type":"subscribe","symbol":"BINANCE:ETHUSDT"}"#)
        == [#"{"msg":"Invalid symbol BINANCE:ETHUSDT","type":"error"}"#])
    #expect(finnhub.subscriptions.isEmpty)
    var coinbase = CoinbaseEmulator(
      script: try SessionScript(ndjson: DemoSession.coinbase), rules: CoinbaseRules())
    let refused = coinbase.receive(.text(Self.subscribe(.coinbase, ["XLM-EUR"])), at: .zero)
    #expect(
      refused.first
        == .text(CoinbaseEmulator.error("Failed to subscribe", reason: "XLM-EUR is not a valid product")))
    #expect(coinbase.tickerProducts.isEmpty)
  }

  // MARK: Over a socket

  /// The symbol and price of each quote in one message of `venue`'s wire format.
  static func quotes(_ message: WebSocketMessage, _ venue: VenueEmulation, context: inout DecodingContext)
    -> [(symbol: String, price: String)]
  {
    guard let provider = ProviderCatalog.provider(named: venue.name) else { return [] }
    return provider.decode(message, context: &context).quotes.map { ($0.symbol, $0.price.text) }
  }

  @Test(
    "over a socket: strict, an unknown symbol is refused or starved; lenient, it trades beside the recorded one",
    arguments: VenueEmulation.catalog, [false, true])
  func overSocket(venue: VenueEmulation, lenient: Bool) async throws {
    // Coinbase's subscribe deadline and OKX's quiet close are real time; not what is tested here.
    let server = try FeedServer(
      script: SessionScript(ndjson: venue.demoSession),
      options: .init(
        // Paced (each step at most 5 ms), not blasted: a dozen venues at once must leave the
        // machine to the tests that keep time.
        timeScale: 1, maximumDelay: 0.005, emulation: .venue(venue.patient()),
        ending: .synthetic(seed: 2026, interval: 0.005),
        // Nothing is sent before both symbols were asked for: the answer to the second
        // request cannot lose a race with the replay.
        awaitSubscriptions: 2, acceptAnySymbol: lenient))
    server.start()
    let guardian = HangGuard(server)
    defer {
      guardian.cancel()
      server.stop()
    }
    let unknown = venue.untradedSymbol
    let quoted = Self.quoted(unknown, venue)
    let connection = MessageReader(
      try await NativeEngine().connect(to: server.url, options: ConnectOptions(connectTimeout: 30)))
    if venue.provider.subscriptionStyle == .wholeList {
      // Each request replaces the whole subscription (Upbit, Bithumb): both codes in one.
      try await connection.send(.text(Self.subscribe(venue, [venue.provider.exampleSymbol, unknown])))
    } else {
      // The recorded symbol first, then the unknown one in a request of its own (a refused
      // request changes nothing on Coinbase; Finnhub takes one symbol per message).
      try await connection.send(.text(VenueDemoTests.subscription(venue).message))
      try await connection.send(.text(Self.subscribe(venue, [unknown])))
    }
    var seen: [(symbol: String, price: String)] = []
    var texts: [String] = []
    var context = DecodingContext()
    while seen.count < 60 {
      guard let next = await connection.next() else { break }
      texts.append(next.text)
      seen += Self.quotes(next, venue, context: &context)
    }
    await connection.close()
    #expect(seen.count >= 60)
    let unknownPrices = seen.filter { $0.symbol == quoted }
    if lenient {
      #expect(unknownPrices.count > 5, "\(seen.map(\.symbol))")
      #expect(unknownPrices.allSatisfy { (Double($0.price) ?? 0) > 0 })
      #expect(
        !texts.contains {
          $0.contains("Invalid symbol") || $0.contains("not a valid product") || $0.contains("not supported")
            || $0.contains("doesn't exist")
        })
    } else {
      #expect(unknownPrices.isEmpty, "\(unknownPrices)")
      // Refused by name where the venue does so; else accepted without a word and starved.
      let refusals = texts.filter { text in
        guard case .error(let error) = venue.provider.decode(.text(text)) else { return false }
        // A refusal naming no symbol (Gemini's) can only be the unknown one's here.
        return error.symbol == nil || text.contains(unknown) || text.contains(quoted)
      }
      #expect(refusals.isEmpty != venue.refusesUnknownSymbols, "\(texts)")
    }
  }
}
