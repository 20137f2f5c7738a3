import Recording
import TickerSupport
import Venues
import WebSocketWire

/// Kraken, as the emulator plays it (`KrakenEmulator`).
extension KrakenProvider: EmulatedVenue {
  typealias Rules = KrakenRules

  static var path: String { "/v2" }
  static var demoSession: String { DemoSession.kraken }
  static var untradedSymbol: String { "XLM/EUR" }
  static var refusesUnknownSymbols: Bool { true }
  static var demoPrices: [String] { ["80912.4", "80915.0", "80909.8"] }
  static func idleDeadline(_ rules: KrakenRules) -> Double? { rules.idleTimeout }
  static var blastOpcode: Opcode { .text }

  static func emulator(
    script: SessionScript, rules: KrakenRules, ending: ConnectionPlan.Ending, acceptAnySymbol: Bool
  ) -> any VenueEmulator {
    KrakenEmulator(script: script, rules: rules, acceptAnySymbol: acceptAnySymbol)
  }

  /// A BTC/USD ticker update as Kraken v2 sends it: every field, prices as JSON numbers with
  /// Kraken's tick of 0.1, an RFC 3339 time in microseconds.
  static func blastMessage(_ i: Int) -> String {
    let cents = Int64(8_091_240 + (i * 7919) % 20_000 * 10)
    let last = KrakenWire.number(cents: cents)
    let bid = KrakenWire.number(cents: cents - 10)
    let time = RFC3339.format(microseconds: 1_789_999_332_717_843 + Int64(i) * 1000)
    return
      #"{"channel":"ticker","type":"update","data":[{"symbol":"BTC/USD","bid":\#(bid),"bid_qty":0.07418,"#
      + #""ask":\#(last),"ask_qty":2.95,"last":\#(last),"volume":1422.60718944,"vwap":80521.8,"low":79688.0,"#
      + #""high":81250.0,"change":1051.5,"change_pct":1.32,"timestamp":"\#(time)"}]}"#
  }

  /// Seeds for the fuzz harness over the catalog (Fuzz/make-corpus.py adds every message of the
  /// demo session): edge cases of the venue's shapes, and symbols as a user might type them.
  static var fuzzSeeds: [(name: String, text: String)] {
    [
      (
        "two-entries",
        #"{"channel":"ticker","type":"snapshot","data":[{"symbol":"BTC/USD","last":8.09124E4,"timestamp":"2026-09-21T14:02:11.462409Z"},{"symbol":"ETH/USD","last":null,"timestamp":null},7]}"#
      ),
      (
        "no-timestamp",
        #"{"channel":"ticker","type":"update","data":[{"symbol":"BTC/USD","bid":80912.3,"last":80912.4}]}"#
      ),
      (
        "refusal-no-symbol", #"{"error":"Exceeded msg rate","method":"subscribe","req_id":4,"success":false}"#
      ),
      (
        "unsubscribe-refused",
        #"{"error":"Subscription Not Found","method":"unsubscribe","req_id":3,"success":false,"symbol":"ETH/USD"}"#
      ),
      (
        "ack-unsubscribe",
        #"{"method":"unsubscribe","req_id":7,"result":{"channel":"ticker","symbol":"BTC/USD"},"success":true,"time_in":"2026-09-21T14:02:11.462301Z","time_out":"2026-09-21T14:02:11.462318Z"}"#
      ),
      ("book", #"{"channel":"book","type":"snapshot","data":[{"symbol":"BTC/USD","bids":[],"asks":[]}]}"#),
      ("last-long", #"0.000012345678901234"#),
      ("last-exp", #"-1.5e-7"#),
      ("time-nanos", #"2026-10-06T18:06:02.264627814Z"#),
      ("time-offset", #"2026-09-21T16:02:11.5+02:00"#),
      ("pairs", #"btc/usd,ETH/EUR,XBT/USD,,1INCH/USD,BTC-USD,BTC/USD,a/b/c"#),
    ]
  }
}
