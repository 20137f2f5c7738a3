import Recording
import TickerSupport
import Venues
import WebSocketWire

/// Coinbase, as the emulator plays it (`CoinbaseEmulator`).
extension CoinbaseProvider: EmulatedVenue {
  typealias Rules = CoinbaseRules

  static var path: String { "/" }
  static var demoSession: String { DemoSession.coinbase }
  static var untradedSymbol: String { "XLM-EUR" }
  static var refusesUnknownSymbols: Bool { true }
  static var demoPrices: [String] { ["80691.53"] }
  static var blastOpcode: Opcode { .text }

  static func emulator(
    script: SessionScript, rules: CoinbaseRules, ending: ConnectionPlan.Ending, acceptAnySymbol: Bool
  ) -> any VenueEmulator {
    CoinbaseEmulator(script: script, rules: rules, acceptAnySymbol: acceptAnySymbol)
  }

  /// A BTC-USD ticker as Coinbase sends it: decimal strings, an RFC 3339 time in microseconds.
  static func blastMessage(_ i: Int) -> String {
    let cents = Int64(8_069_153 + (i * 7919) % 20_000)
    let price = SyntheticTrades.format(cents: cents, places: 2)
    let bid = SyntheticTrades.format(cents: cents - 1, places: 2)
    let time = RFC3339.format(microseconds: 1_787_628_957_198_335 + Int64(i) * 1000)
    return #"{"type":"ticker","sequence":\#(134_905_860_112 + i),"product_id":"BTC-USD","price":"\#(price)","#
      + #""open_24h":"79850.00","volume_24h":"8123.44120031","low_24h":"79402.11","high_24h":"81030.00","#
      + #""volume_30d":"301122.77310000","best_bid":"\#(bid)","best_bid_size":"0.35000000","best_ask":"\#(price)","#
      + #""best_ask_size":"0.01200000","side":"buy","time":"\#(time)","trade_id":\#(1_081_862_675 + i),"#
      + #""last_size":"0.00063000"}"#
  }

  /// Seeds for the fuzz harness over the catalog (Fuzz/make-corpus.py adds every message of the
  /// demo session): edge cases of the venue's shapes, and symbols as a user might type them.
  static var fuzzSeeds: [(name: String, text: String)] {
    [
      (
        "ticker-offset",
        #"{"type":"ticker","product_id":"ETH-USD","price":"1285.22","time":"2024-02-29T23:00:00.5-00:30","last_size":null}"#
      ),
      ("ticker-no-time", #"{"type":"ticker","product_id":"ETH-USD","price":"1285.22"}"#),
      ("heartbeat", #"{"type":"heartbeat","last_trade_id":1,"product_id":"BTC-USD","sequence":2}"#),
      ("time-micro", #"2026-08-25T03:35:57.198335Z"#),
      ("time-leap", #"2016-12-31T23:59:60.5z"#),
      ("time-leap-day", #"2000-02-29t00:00:00+23:59"#),
      ("products", #"btc-usd,ETH-EUR,BTCUSD,,1INCH-USD,BTC-USD"#),
    ]
  }
}
