import Testing

@testable import Outputs
@testable import TestSupport
@testable import Venues

@Suite struct SpreadRecordFormatterTests {
  typealias T = CrossVenueBoardTests

  static func formatter() -> SpreadRecordFormatter {
    SpreadRecordFormatter(venues: T.venues.map(\.name)) { venue, symbol in
      T.venues[Int(venue)].market(of: symbol)
    }
  }

  @Test("each price line, then the records of what it changed: exact decimals, venues by name")
  func records() {
    var formatter = Self.formatter()
    var out: [String] = []
    for quote in [
      T.quote(T.binance, "BTCUSDT", "95000.10"), T.quote(T.okx, "BTC-USDT", "95010", after: 10),
      T.quote(T.upbit, "KRW-USDT", "1450", after: 20), T.quote(T.upbit, "KRW-BTC", "143000000", after: 1_220),
      T.quote(T.okx, "BTC-USDT", "95010.0", after: 1_300),
    ] {
      out.append(contentsOf: formatter.format(quote).split(separator: "\n").map(String.init))
    }
    #expect(out.count == 7, "\(out)")
    #expect(
      out[0].hasPrefix(#"{"symbol":"BTCUSDT","price":95000.10,"#)
        && out[0].hasSuffix(#""provider":"binance"}"#))
    #expect(out[1].hasPrefix(#"{"symbol":"BTC-USDT","price":95010,"#))
    #expect(
      out[2]
        == #"{"type":"spread","asset":"BTC","quote":"USDT","high":95010,"highVenue":"okx","low":95000.10,"#
        + #""lowVenue":"binance","spread":9.90,"percent":0.01,"venues":2,"t":\#(T.t0 + 10)}"#)
    #expect(out[3].hasPrefix(#"{"symbol":"KRW-USDT","price":1450,"#))
    #expect(out[4].hasPrefix(#"{"symbol":"KRW-BTC","price":143000000,"#))
    // 143000000 / 1450 = 98620.69 (2 decimals: the USDT prices have at most 2); the median of
    // 95000.10 and 95010 is 95005.05; the rate arrived 1200 ms before the price.
    #expect(
      out[5] == #"{"type":"premium","asset":"BTC","venue":"upbit","symbol":"KRW-BTC","currency":"KRW","#
        + #""price":143000000,"rate":1450,"rateSymbol":"KRW-USDT","rateAge":1200,"converted":98620.69,"#
        + #""reference":95005.05,"referenceQuote":"USDT","referenceVenues":2,"percent":3.81,"t":\#(T.t0 + 1_220)}"#
    )
    // The same price spelled otherwise changes nothing: no record after it.
    #expect(out[6].hasPrefix(#"{"symbol":"BTC-USDT","price":95010.0,"#))
  }
}
