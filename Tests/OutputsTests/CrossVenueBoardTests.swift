import Testing

@testable import Outputs
@testable import TestSupport
@testable import Venues

@Suite struct CrossVenueBoardTests {
  static let t0: Int64 = 1_768_655_932_976
  /// Venues by index, as a run's `Quote.venue` counts them.
  static let venues = ["binance", "okx", "coinbase", "kraken", "upbit", "finnhub"].map {
    ProviderCatalog.provider(named: $0)!
  }
  static let binance: UInt8 = 0
  static let okx: UInt8 = 1
  static let coinbase: UInt8 = 2
  static let kraken: UInt8 = 3
  static let upbit: UInt8 = 4
  static let finnhub: UInt8 = 5

  static func board(_ symbols: [(venue: UInt8, symbol: String)] = []) -> CrossVenueBoard {
    CrossVenueBoard(symbols: symbols) { venue, symbol in venues[Int(venue)].market(of: symbol) }
  }

  /// A quote from `venue`, received `after` milliseconds after `t0`.
  static func quote(_ venue: UInt8, _ symbol: String, _ price: String, after: Int64 = 0) -> Quote {
    var quote = q(symbol, price, t0 + after)
    quote.venue = venue
    quote.received = t0 + after + 5
    return quote
  }

  static func decimal(_ text: String) -> ExactDecimal { ExactDecimal(text)! }

  @Test("the median: the middle of an odd count, the exact mean of the middle two of an even one")
  func median() {
    #expect(ExactArithmetic.median([]) == nil)
    #expect(ExactArithmetic.median([Self.decimal("7")])?.description == "7")
    #expect(
      ExactArithmetic.median(["95370.5", "95380", "95375.25"].map(Self.decimal))?.description == "95375.25")
    // (95370.5 + 95375.25) / 2 = 95372.875: one digit more, exactly.
    #expect(
      ExactArithmetic.median(["95380", "95370.5", "95375.25", "95360"].map(Self.decimal))?.description
        == "95372.875")
    // (1.5 + 2.5) / 2 = 2.0: the extra digit is a zero, dropped.
    #expect(ExactArithmetic.median(["1.5", "2.5"].map(Self.decimal))?.description == "2.0")
  }

  @Test("division rounds once, half away from zero, to the decimals asked for")
  func division() {
    #expect(
      ExactArithmetic.divide(Self.decimal("1"), by: Self.decimal("3"), decimals: 2)?.description == "0.33")
    #expect(
      ExactArithmetic.divide(Self.decimal("2"), by: Self.decimal("3"), decimals: 2)?.description == "0.67")
    #expect(
      ExactArithmetic.divide(Self.decimal("-1"), by: Self.decimal("8"), decimals: 2)?.description == "-0.13")
    #expect(
      ExactArithmetic.divide(Self.decimal("1.005"), by: Self.decimal("1"), decimals: 2)?.description == "1.01"
    )
    #expect(ExactArithmetic.divide(Self.decimal("1"), by: Self.decimal("0"), decimals: 2) == nil)
  }

  @Test("rows grouped by asset, then by currency; USD and USDT apart, each with its own spread")
  func groups() throws {
    var board = Self.board([
      (Self.binance, "BTCUSDT"), (Self.coinbase, "BTC-USD"), (Self.okx, "BTC-USDT"), (Self.kraken, "BTC/USD"),
    ])
    board.receive(Self.quote(Self.binance, "BTCUSDT", "95375.72"))
    board.receive(Self.quote(Self.okx, "BTC-USDT", "95366.12"))
    board.receive(Self.quote(Self.coinbase, "BTC-USD", "95401.5"))
    let changes = board.receive(Self.quote(Self.kraken, "BTC/USD", "95398.1"))

    let groups = board.groups
    #expect(groups.map(\.asset) == ["BTC"])
    #expect(groups[0].currencies.map(\.quote) == ["USDT", "USD"])
    #expect(
      groups[0].currencies.map { $0.rows.map { board.rows[$0].symbol } } == [
        ["BTCUSDT", "BTC-USDT"], ["BTC-USD", "BTC/USD"],
      ])
    let usdt = try #require(board.spread(asset: "BTC", quote: "USDT"))
    #expect(usdt.high.text == "95375.72" && usdt.highVenue == Self.binance)
    #expect(usdt.low.text == "95366.12" && usdt.lowVenue == Self.okx)
    #expect(usdt.difference.description == "9.60" && usdt.percent?.description == "0.01" && usdt.venues == 2)
    let usd = try #require(board.spread(asset: "BTC", quote: "USD"))
    #expect(
      usd.difference.description == "3.4" && usd.highVenue == Self.coinbase && usd.lowVenue == Self.kraken)
    // The quote that made the USD spread said so, and only that.
    #expect(changes == [.spread(usd)])
    // No currency is merged into another: there is no spread across USD and USDT.
    #expect(board.spread(asset: "BTC", quote: "EUR") == nil)
  }

  @Test("a spread needs two venues; a quote that changes nothing reports nothing")
  func spreadChanges() {
    var board = Self.board()
    #expect(board.receive(Self.quote(Self.binance, "BTCUSDT", "100")).isEmpty)
    #expect(board.spread(asset: "BTC", quote: "USDT") == nil)
    let second = board.receive(Self.quote(Self.okx, "BTC-USDT", "101"))
    #expect(second.count == 1)
    #expect(board.receive(Self.quote(Self.okx, "BTC-USDT", "101.0", after: 10)).isEmpty)
    let moved = board.receive(Self.quote(Self.binance, "BTCUSDT", "99.5", after: 20))
    guard case .spread(let spread) = moved.first else {
      Issue.record("no spread: \(moved)")
      return
    }
    #expect(spread.difference.description == "1.5" && spread.percent?.description == "1.51")
    // A tie: the first in board order is both the high and the low.
    board.receive(Self.quote(Self.okx, "BTC-USDT", "99.50", after: 30))
    let tie = board.spread(asset: "BTC", quote: "USDT")
    #expect(tie?.highVenue == Self.binance && tie?.lowVenue == Self.binance && tie?.difference.mantissa == 0)
  }

  @Test("the KRW price converted with the venue's KRW-USDT rate, against the median of the USDT venues")
  func premium() throws {
    var board = Self.board([(Self.upbit, "KRW-BTC"), (Self.upbit, "KRW-USDT")])
    board.receive(Self.quote(Self.binance, "BTCUSDT", "95000"))
    board.receive(Self.quote(Self.okx, "BTC-USDT", "95010"))
    board.receive(Self.quote(Self.coinbase, "BTC-USD", "94000"))  // USD: not a reference
    #expect(board.receive(Self.quote(Self.upbit, "KRW-BTC", "143000000", after: 100)).isEmpty)
    let changes = board.receive(Self.quote(Self.upbit, "KRW-USDT", "1450", after: 200))
    let premium = try #require(board.premium(of: board.rows[0]))
    #expect(changes == [.premium(premium)])
    #expect(premium.asset == "BTC" && premium.currency == "KRW" && premium.rateSymbol == "KRW-USDT")
    // 143000000 / 1450 = 98620.689… → 98620.69; median of 95000 and 95010: 95005.
    #expect(premium.converted.description == "98620.69")
    #expect(premium.reference.description == "95005" && premium.referenceVenues == 2)
    // (98620.689… − 95005) / 95005 × 100 = 3.8058…
    #expect(premium.percent.description == "3.81")
    #expect(premium.rateClock == Self.t0 + 205)
    #expect(board.rateRows.map(\.symbol) == ["KRW-USDT"])
    #expect(board.groups.map(\.asset) == ["BTC"], "the rate is not an asset")
    // USDT, what the premium is against, comes first; the others in order of their first row.
    #expect(board.groups[0].currencies.map(\.quote) == ["USDT", "KRW", "USD"])

    // A USDT price moves the median, and so the premium: reported after that price.
    let moved = board.receive(Self.quote(Self.okx, "BTC-USDT", "96000", after: 300))
    let after = try #require(board.premium(of: board.rows[0]))
    #expect(moved == [.spread(board.spread(asset: "BTC", quote: "USDT")!), .premium(after)])
    #expect(after.reference.description == "95500" && after.percent.description == "3.27")
  }

  @Test("three USDT venues: the premium is against the middle one")
  func premiumOddMedian() throws {
    var board = Self.board()
    board.receive(Self.quote(Self.binance, "BTCUSDT", "90000"))
    board.receive(Self.quote(Self.okx, "BTC-USDT", "100000"))
    board.receive(Self.quote(Self.upbit, "KRW-USDT", "1000"))
    board.receive(Self.quote(Self.upbit, "KRW-BTC", "99000000"))
    var finnhubBTC = Self.quote(Self.finnhub, "BINANCE:BTCUSDT", "200000")
    finnhubBTC.received = 0
    board.receive(finnhubBTC)
    let premium = try #require(board.premium(of: board.rows.first { $0.symbol == "KRW-BTC" }!))
    #expect(premium.reference.description == "100000" && premium.referenceVenues == 3)
    #expect(premium.percent.description == "-1.00" && premium.converted.description == "99000.00")
  }

  @Test("no USDT venue for the asset: no premium; a price no rate converts: none either")
  func noPremium() {
    var board = Self.board()
    board.receive(Self.quote(Self.coinbase, "BTC-USD", "95000"))
    board.receive(Self.quote(Self.upbit, "KRW-USDT", "1450"))
    board.receive(Self.quote(Self.upbit, "KRW-BTC", "143000000"))
    let krw = board.rows.first { $0.symbol == "KRW-BTC" }!
    #expect(board.rate(for: krw)?.symbol == "KRW-USDT")
    #expect(board.premium(of: krw) == nil)
    #expect(board.premium(of: board.rows[0]) == nil)
    // Without the rate there is nothing to convert with.
    var unconverted = Self.board()
    unconverted.receive(Self.quote(Self.binance, "BTCUSDT", "95000"))
    unconverted.receive(Self.quote(Self.upbit, "KRW-BTC", "143000000"))
    #expect(unconverted.premium(of: unconverted.rows[1]) == nil)
  }

  @Test("a symbol whose market is unknown (a stock) is a group of its own, without a currency")
  func stock() {
    var board = Self.board([(Self.finnhub, "AAPL"), (Self.binance, "BTCUSDT"), (Self.finnhub, "BTC")])
    board.receive(Self.quote(Self.finnhub, "AAPL", "122.3"))
    let groups = board.groups
    #expect(groups.map(\.asset) == ["AAPL", "BTC", "BTC"])
    #expect(groups[0].currencies.map(\.quote) == [nil])
    #expect(groups[2].currencies.map(\.quote) == [nil], "the stock BTC is not the asset BTC")
    #expect(board.rows[0].last?.price.text == "122.3" && board.rows[1].last == nil)
  }
}
