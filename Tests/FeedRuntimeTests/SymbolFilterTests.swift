import Testing

@testable import FeedRuntime
@testable import Outputs
@testable import Venues

@Suite struct SymbolFilterTests {
  static func quote(_ symbol: String, _ time: Int64) -> Quote {
    Quote(symbol: symbol, price: Price("1")!, time: time)
  }

  @Test func keepsOnlySubscribedSymbolsInOrder() {
    for subscribed in [["AAPL"], ["AAPL", "MSFT"]] {
      let filter = SymbolFilter(symbols: subscribed)
      var quotes = [
        Self.quote("AAPL", 1), Self.quote("BINANCE:BTCUSDT", 2), Self.quote("aapl", 3),
        Self.quote("AAPL ", 4),
        Self.quote("AAPL", 5), Self.quote("MSFT", 6),
      ]
      let (removed, example) = filter.retain(&quotes)
      let kept = subscribed.count == 1 ? [1, 5] : [1, 5, 6] as [Int64]
      #expect(quotes.map(\.time) == kept)
      #expect(removed == 6 - kept.count)
      #expect(example == "BINANCE:BTCUSDT")
    }
  }

  @Test("symbols compare byte for byte, not by Unicode canonical equivalence")
  func byteForByte() {
    // Swift's String == says these are the same symbol (U+212A KELVIN SIGN normalizes to K):
    // a server must not pass the filter with a spelling the user never subscribed to.
    #expect("\u{212A}RW-BTC" == "KRW-BTC")
    let filter = SymbolFilter(symbols: ["KRW-BTC", "caf\u{E9}"])
    var quotes = [Self.quote("\u{212A}RW-BTC", 1), Self.quote("KRW-BTC", 2), Self.quote("cafe\u{301}", 3)]
    #expect(filter.retain(&quotes) == (2, "\u{212A}RW-BTC"))
    #expect(quotes.map(\.time) == [2])
  }

  @Test func leavesQuotesBeforeTheStartAlone() {
    let filter = SymbolFilter(symbols: ["AAPL"])
    var quotes = [Self.quote("MSFT", 1), Self.quote("AAPL", 2), Self.quote("MSFT", 3)]
    #expect(filter.retain(&quotes, from: 1) == (1, "MSFT"))
    #expect(quotes.map(\.time) == [1, 2])
    var clean = [Self.quote("AAPL", 1)]
    #expect(filter.retain(&clean) == (0, nil))
  }

  @Test func insertAndRemove() {
    var filter = SymbolFilter(symbols: [String]())
    #expect(!filter.allows("AAPL"))
    filter.insert("AAPL")
    #expect(filter.allows("AAPL") && !filter.allows("MSFT"))
    filter.insert("MSFT")
    #expect(filter.allows("AAPL") && filter.allows("MSFT"))
    filter.remove("AAPL")
    #expect(!filter.allows("AAPL") && filter.allows("MSFT"))
  }
}
