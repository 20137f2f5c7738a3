import Testing
import Venues

@testable import CLI

/// Which venues a run follows, and with which symbols and endpoints, from its settings.
@Suite struct VenuePlanTests {
  func plan(_ flags: [String], token: String? = nil) throws -> Result<VenuePlan, VenuePlanError> {
    var config = TickerConfig.resolve(flags: try ArgumentParser.parse(flags).config)
    config.token = token
    return VenuePlan.make(config)
  }

  func failure(_ flags: [String], token: String? = nil) throws -> VenuePlanError? {
    if case .failure(let error) = try plan(flags, token: token) { return error }
    return nil
  }

  func members(_ flags: [String], token: String? = nil) throws -> [String] {
    try plan(flags, token: token).get().members.map { member in
      member.provider.name + ":" + member.symbols.joined(separator: ",")
    }
  }

  @Test func oneVenueAsBefore() throws {
    #expect(try members([]) == ["finnhub:BINANCE:BTCUSDT"])
    #expect(try members(["--provider", "binance", "-s", "btcusdt,ethusdt"]) == ["binance:BTCUSDT,ETHUSDT"])
    // A symbol naming the run's own venue is that venue's.
    #expect(
      try members(["--provider", "binance", "-s", "binance/btcusdt,ETHUSDT"]) == ["binance:BTCUSDT,ETHUSDT"])
  }

  @Test("--bid-ask: each venue's top-of-book variant; Finnhub refused, and left out of --asset")
  func bidAsk() throws {
    let binance = try plan(["--provider", "binance", "--bid-ask", "-s", "btcusdt"]).get()
    #expect(binance.members.map(\.provider.stream) == [MarketStream.topOfBook])
    #expect(try failure(["--bid-ask", "-s", "AAPL"]) == .noTopOfBook("Finnhub"))
    #expect(try failure(["--bid-ask", "-s", "binance/BTCUSDT", "-s", "AAPL"]) == .noTopOfBook("Finnhub"))
    #expect(
      "\(VenuePlanError.noTopOfBook("Finnhub"))".hasPrefix(
        "--bid-ask: Finnhub sends trades only, no best bid and ask"))
    let assets = try plan(["--asset", "BTC", "--bid-ask", "--venues", "binance,okx"]).get()
    #expect(assets.members.map(\.provider.name) == ["binance", "okx"])
    let every = try plan(["--asset", "BTC", "--bid-ask"], token: "t").get()
    #expect(!every.members.contains { $0.provider.name == "finnhub" })
    #expect(every.members.allSatisfy { $0.provider.stream == .topOfBook })
    #expect(
      try failure(["--asset", "BTC", "--bid-ask", "--venues", "finnhub"], token: "t")
        == .noTopOfBook("Finnhub"))
    // serve's clients take trades: its plan stays on them.
    var config = TickerConfig.resolve(
      flags: try ArgumentParser.parse(["--provider", "binance", "--bid-ask"]).config)
    config.token = nil
    #expect(
      try VenuePlan.make(config, serving: true).get().members.allSatisfy { $0.provider.stream == .trades })
  }

  @Test func qualifiedSymbolsMakeAVenueEach() throws {
    #expect(
      try members(["-s", "binance/btcusdt", "-s", "kraken/btc/usd", "-s", "coinbase/BTC-USD,binance/ethusdt"])
        == ["binance:BTCUSDT,ETHUSDT", "kraken:BTC/USD", "coinbase:BTC-USD"])
    // Unqualified symbols are --provider's, beside the others.
    #expect(
      try members(["--provider", "okx", "-s", "btc-usdt", "-s", "upbit/krw-btc"])
        == ["okx:BTC-USDT", "upbit:KRW-BTC"])
  }

  @Test func aSymbolIsCheckedByItsOwnVenue() throws {
    #expect(
      try failure(["-s", "coinbase/BTCUSDT"])
        == (.invalidSymbol(
          symbol: "coinbase/BTCUSDT", venue: "Coinbase",
          why: try #require(
            ProviderCatalog.provider(named: "coinbase")?.canonicalSymbol("BTCUSDT").failureMessage))))
  }

  @Test("--asset: each keyless venue's main market; Finnhub's with a token or in the demo; won rates to USDT")
  func assets() throws {
    // Every keyless venue of the catalog, in its order, with its main market and the pair that
    // converts that market's currency to USDT where it has one.
    let expected = ProviderCatalog.all.filter { !$0.requiresToken }.map { provider -> String in
      let main = provider.mainMarket(for: "BTC") ?? "-"
      let pair = provider.market(of: main).flatMap { provider.conversionPair(for: $0.quote) }
      return "\(provider.name):" + ([main] + (pair.map { [$0] } ?? [])).joined(separator: ",")
    }
    #expect(expected.count == ProviderCatalog.all.count - 1)
    #expect(try members(["--asset", "btc"]) == expected)
    // The venues as they spell their markets.
    #expect(
      Array(expected.prefix(5)) == [
        "upbit:KRW-BTC,KRW-USDT", "binance:BTCUSDT", "coinbase:BTC-USD", "kraken:BTC/USD", "okx:BTC-USDT",
      ])
    #expect(try members(["--asset", "BTC"], token: "t").first == "finnhub:BINANCE:BTCUSDT")
    // The demo's venues need no key, nor do prices read from NATS.
    #expect(try members(["--asset", "BTC", "--demo"]) == ["finnhub:BINANCE:BTCUSDT"] + expected)
    #expect(
      try members(["--asset", "BTC", "--source", "nats://127.0.0.1:4222"]).count == ProviderCatalog.all.count)
    #expect(
      try members(["--asset", "BTC,ETH", "--venues", "kraken,okx"]) == [
        "kraken:BTC/USD,ETH/USD", "okx:BTC-USDT,ETH-USDT",
      ])
    // The default symbol is not followed beside --asset; given ones are.
    #expect(
      try members(["--asset", "ETH", "--venues", "okx", "-s", "binance/btcusdt"]) == [
        "binance:BTCUSDT", "okx:ETH-USDT",
      ])
  }

  @Test func aVenueNamedThatNeedsATokenWithoutOneIsRefused() throws {
    #expect(
      try failure(["--asset", "BTC", "--venues", "finnhub"])
        == (.needsToken("Finnhub", variable: "FINNHUB_TOKEN")))
  }

  @Test func endpoints() throws {
    let plan = try plan([
      "-s", "binance/btcusdt", "-s", "okx/btc-usdt", "--url", "okx=ws://127.0.0.1:9/okx",
    ]).get()
    #expect(plan.members.map { $0.endpoint?.description } == [nil, "ws://127.0.0.1:9/okx"])
    // One venue: a plain --url is its own, as before.
    #expect(
      try self.plan(["--provider", "binance", "--url", "ws://127.0.0.1:9/"]).get().members.first?.endpoint?
        .description == "ws://127.0.0.1:9/")
  }

  @Test func endpointsThatCannotBeMeantAreRefused() throws {
    #expect(
      try failure(["-s", "binance/btcusdt", "-s", "okx/btc-usdt", "--url", "ws://127.0.0.1:9/"])
        == (.plainURLWithSeveral(following: ["binance", "okx"])))
    #expect(
      try failure(["-s", "binance/btcusdt", "--url", "kraken=ws://127.0.0.1:9/"])
        == (.endpointForVenueNotFollowed("kraken", following: ["binance"])))
  }

  @Test func theEndpointFlagReadsVenueEqualsURL() {
    #expect(VenueEndpoint.parse("binance=wss://example.com/ws")?.venue == "binance")
    #expect(VenueEndpoint.parse("wss://example.com/ws?a=b")?.venue == nil)
    #expect(VenueEndpoint.parse("nowhere=wss://example.com/") == nil)
    #expect(VenueEndpoint.parse("binance=ftp://example.com/") == nil)
  }
}

extension Result where Failure == SymbolError {
  var failureMessage: String? {
    if case .failure(let error) = self { return error.message }
    return nil
  }
}
