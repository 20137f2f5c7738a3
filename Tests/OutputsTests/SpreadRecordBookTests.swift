import Testing

@testable import Outputs
@testable import TestSupport
@testable import Venues

/// `--format json --spread --bid-ask`: spread records of the best bid and the best ask, crossed
/// or not, and premiums of mids. Only the records are looked at: the price lines are the line
/// formatter's.
@Suite struct SpreadRecordBookTests {
  typealias T = CrossVenueBoardTests
  typealias B = CrossVenueBookTests

  static func records(_ quotes: [Quote]) -> [String] {
    var formatter = SpreadRecordFormatterTests.formatter()
    return quotes.flatMap { formatter.format($0).split(separator: "\n").map(String.init) }
      .filter { $0.hasPrefix(#"{"type":"#) }
  }

  @Test("the best bid and ask with their venues, the spread and its bps, crossed false then true")
  func bookRecords() {
    let records = Self.records([
      B.book(T.binance, "BTCUSDT", bid: "95000.00", ask: "95010.00"),
      B.book(T.okx, "BTC-USDT", bid: "95004.5", ask: "95020.1", after: 10),
      // OKX now bids above Binance's ask.
      B.book(T.okx, "BTC-USDT", bid: "95012.5", ask: "95020.1", after: 20),
    ])
    #expect(
      records == [
        #"{"type":"spread","asset":"BTC","quote":"USDT","bid":95004.5,"bidVenue":"okx","ask":95010.00,"#
          + #""askVenue":"binance","spread":5.50,"bps":0.58,"crossed":false,"venues":2,"t":\#(T.t0 + 10)}"#,
        #"{"type":"spread","asset":"BTC","quote":"USDT","bid":95012.5,"bidVenue":"okx","ask":95010.00,"#
          + #""askVenue":"binance","spread":-2.50,"bps":-0.26,"crossed":true,"venues":2,"t":\#(T.t0 + 20)}"#,
      ])
  }

  @Test("the premium of mids: the won price's, the rate's and the USDT venues'")
  func premiumRecord() {
    let records = Self.records([
      B.book(T.binance, "BTCUSDT", bid: "95000", ask: "95010"),
      B.book(T.okx, "BTC-USDT", bid: "95004", ask: "95020"),
      B.book(T.upbit, "KRW-USDT", bid: "1449", ask: "1451", after: 20),
      B.book(T.upbit, "KRW-BTC", bid: "142900000", ask: "143100000", after: 1_220),
    ])
    #expect(records.count == 2, "\(records)")
    #expect(
      records.last
        == #"{"type":"premium","asset":"BTC","venue":"upbit","symbol":"KRW-BTC","currency":"KRW","#
        + #""price":143000000,"rate":1450,"rateSymbol":"KRW-USDT","rateAge":1200,"converted":98620.69,"#
        + #""reference":95008.5,"referenceQuote":"USDT","referenceVenues":2,"percent":3.80,"t":\#(T.t0 + 1_220)}"#
    )
  }
}
