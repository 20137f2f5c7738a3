import Testing
import Venues

/// Each venue says what its symbols trade and in which currency, and its main market for an
/// asset: what `--asset` follows and the cross-venue board groups by.
@Suite struct MarketTests {
  @Test(arguments: [
    ("binance", "BTCUSDT", "BTC", "USDT"), ("binance", "ETHBTC", "ETH", "BTC"),
    ("binance", "BTCFDUSD", "BTC", "FDUSD"), ("binance", "SOLUSDC", "SOL", "USDC"),
    ("coinbase", "BTC-USD", "BTC", "USD"), ("coinbase", "ETH-EUR", "ETH", "EUR"),
    ("upbit", "KRW-BTC", "BTC", "KRW"), ("upbit", "USDT-ETH", "ETH", "USDT"),
    ("upbit", "KRW-USDT", "USDT", "KRW"),
    ("finnhub", "BINANCE:BTCUSDT", "BTC", "USDT"), ("finnhub", "COINBASE:BTC-USD", "BTC", "USD"),
    ("kraken", "BTC/USD", "BTC", "USD"), ("kraken", "ETH/BTC", "ETH", "BTC"),
    ("okx", "BTC-USDT", "BTC", "USDT"), ("okx", "ETH-BTC", "ETH", "BTC"),
  ])
  func splits(provider: String, symbol: String, base: String, quote: String) throws {
    let venue = try #require(ProviderCatalog.provider(named: provider))
    #expect(venue.market(of: symbol) == Market(base: base, quote: quote))
  }

  @Test func whatSaysNoCurrencySaysNone() throws {
    #expect(try #require(ProviderCatalog.provider(named: "finnhub")).market(of: "AAPL") == nil)
    #expect(try #require(ProviderCatalog.provider(named: "binance")).market(of: "USDT") == nil)
    #expect(try #require(ProviderCatalog.provider(named: "coinbase")).market(of: "BTC-") == nil)
    #expect(try #require(ProviderCatalog.provider(named: "kraken")).market(of: "BTC/") == nil)
    #expect(try #require(ProviderCatalog.provider(named: "okx")).market(of: "BTC-USDT-SWAP") == nil)
  }

  @Test("the main market of BTC on each venue, as its notation writes it")
  func mainMarkets() {
    let main = Dictionary(
      uniqueKeysWithValues: ProviderCatalog.all.map { ($0.name, $0.mainMarket(for: "btc")) })
    #expect(main["binance"] == "BTCUSDT")
    #expect(main["coinbase"] == "BTC-USD")
    #expect(main["upbit"] == "KRW-BTC")
    #expect(main["finnhub"] == "BINANCE:BTCUSDT")
    #expect(main["kraken"] == "BTC/USD")
    #expect(main["okx"] == "BTC-USDT")
    for venue in ProviderCatalog.all {
      let symbol = try? venue.canonicalSymbol(venue.mainMarket(for: "BTC") ?? "").get()
      #expect(symbol.flatMap(venue.market(of:))?.base == "BTC", "\(venue.name)")
    }
  }
}

/// `VENUE/SYMBOL`: split at the first `/` when VENUE names a venue, else the symbol as it is.
@Suite struct QualifiedSymbolTests {
  @Test(arguments: [
    ("binance/BTCUSDT", "binance", "BTCUSDT"), ("kraken/BTC/USD", "kraken", "BTC/USD"),
    ("finnhub/BINANCE:BTCUSDT", "finnhub", "BINANCE:BTCUSDT"), ("UPBIT/KRW-BTC", "upbit", "KRW-BTC"),
    ("okx/", "okx", ""),
  ])
  func namesItsVenue(text: String, venue: String, symbol: String) {
    let (named, bare) = ProviderCatalog.qualified(text)
    #expect(named?.name == venue)
    #expect(bare == symbol)
  }

  @Test(arguments: ["BTC/USD", "BINANCE:BTCUSDT", "nowhere/BTCUSDT", "/BTCUSDT", "BTCUSDT"])
  func namesNone(text: String) {
    let (named, bare) = ProviderCatalog.qualified(text)
    #expect(named == nil)
    #expect(bare == text)
  }
}
