import Testing

@testable import Outputs
@testable import Venues

/// In a run of several venues every line says which venue its price is from; with one, lines
/// are as they always were.
@Suite struct VenueColumnTests {
  let venues = ["binance", "coinbase"]

  func quote(_ symbol: String, _ price: String, venue: UInt8) -> Quote {
    var quote = Quote(symbol: symbol, price: Price(price)!, volume: Price("0.5"), time: 1_768_655_932_976)
    quote.venue = venue
    return quote
  }

  @Test func text() {
    var formatter = TextFormatter(venues: venues)
    #expect(
      formatter.format(quote("BTC-USD", "80691.53", venue: 1))
        == "2026-01-17T13:18:52.976Z\tcoinbase\tBTC-USD\t80691.53\n")
    var buffer: [UInt8] = []
    formatter.append(
      contentsOf: [quote("BTCUSDT", "1", venue: 0), quote("BTC-USD", "2", venue: 1)][...], to: &buffer)
    #expect(
      String(decoding: buffer, as: UTF8.self)
        == "2026-01-17T13:18:52.976Z\tbinance\tBTCUSDT\t1\n2026-01-17T13:18:52.976Z\tcoinbase\tBTC-USD\t2\n")
    var one = TextFormatter()
    #expect(one.format(quote("BTCUSDT", "1", venue: 0)) == "2026-01-17T13:18:52.976Z\tBTCUSDT\t1\n")
  }

  @Test("the same symbol on two venues is two series for colour")
  func colourPerVenue() {
    var formatter = TextFormatter(useColor: true, timestamps: .none, venues: venues)
    _ = formatter.format(quote("BTC", "10", venue: 0))
    // Lower than binance's, but coinbase's first: no colour.
    #expect(formatter.format(quote("BTC", "9", venue: 1)) == "coinbase\tBTC\t9\n")
    #expect(formatter.format(quote("BTC", "11", venue: 0)) == "binance\tBTC\t\u{1B}[32m11\u{1B}[0m\n")
  }

  @Test func delimited() {
    var csv = DelimitedFormatter(separator: .comma, venues: venues)
    #expect(csv.header.map { String(decoding: $0, as: UTF8.self) } == "time,venue,symbol,price,volume\n")
    #expect(
      csv.format(quote("BTC-USD", "2", venue: 1)) == "2026-01-17T13:18:52.976Z,coinbase,BTC-USD,2,0.5\n")
    var tsv = DelimitedFormatter(separator: .tab, timestamps: .none, venues: venues)
    #expect(tsv.header.map { String(decoding: $0, as: UTF8.self) } == "venue\tsymbol\tprice\tvolume\n")
    #expect(tsv.format(quote("BTCUSDT", "1", venue: 0)) == "binance\tBTCUSDT\t1\t0.5\n")
    #expect(
      DelimitedFormatter(separator: .comma).header.map { String(decoding: $0, as: UTF8.self) }
        == "time,symbol,price,volume\n")
  }

  @Test func jsonSaysEachQuotesProvider() {
    var formatter = JSONLinesFormatter(providers: venues)
    #expect(formatter.format(quote("BTC-USD", "2", venue: 1)).hasSuffix(#""provider":"coinbase"}"# + "\n"))
    #expect(formatter.format(quote("BTCUSDT", "1", venue: 0)).hasSuffix(#""provider":"binance"}"# + "\n"))
  }

  @Test func terminalLines() {
    var formatter = TerminalLineFormatter(venues: venues, timestamps: .none)
    #expect(formatter.format(quote("BTC-USD", "2", venue: 1)) == "coinbase  BTC-USD  • 2   0   0.00%\n")
    #expect(formatter.format(quote("BTC-USD", "3", venue: 0)) == "binance   BTC-USD  • 3   0   0.00%\n")
  }
}
