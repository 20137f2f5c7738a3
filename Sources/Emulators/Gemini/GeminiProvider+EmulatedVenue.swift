import Recording
import TickerSupport
import Venues
import WebSocketWire

/// Gemini, as the emulator plays it (`GeminiEmulator`).
extension GeminiProvider: EmulatedVenue {
  typealias Rules = GeminiRules

  static var path: String { "/v2/marketdata" }
  static var demoSession: String { DemoSession.gemini }
  static var untradedSymbol: String { "FILUSD" }
  /// With an error that names no symbol: the provider finds it (`decode(_:context:)`).
  static var refusesUnknownSymbols: Bool { true }
  /// The newest trade of the first book (the starting price), then the trades that follow.
  static var demoPrices: [String] { ["97412.58", "97412.61", "97412.58", "97412.55", "97412.59"] }
  static var blastOpcode: Opcode { .text }

  static func emulator(
    script: SessionScript, rules: GeminiRules, ending: ConnectionPlan.Ending, acceptAnySymbol: Bool
  ) -> any VenueEmulator {
    GeminiEmulator(script: script, rules: rules, acceptAnySymbol: acceptAnySymbol)
  }

  /// A BTCUSD `trade` as Gemini sends it, its price with Gemini's two decimals (trailing zeros
  /// kept), its quantity without trailing zeros.
  static func blastMessage(_ i: Int) -> String {
    let cents = Int64(9_741_258 + (i * 7919) % 20_000)
    let price = SyntheticTrades.format(cents: cents, places: 2)
    let time = 1_791_469_265_458 + Int64(i)
    return
      #"{"type":"trade","symbol":"BTCUSD","event_id":\#(294_811_706_871 + Int64(i)),"timestamp":\#(time),"#
      + #""price":"\#(price)","quantity":"0.00021","side":"\#(i % 3 == 0 ? "sell" : "buy")"}"#
  }

  /// Seeds for the fuzz harness over the catalog (Fuzz/make-corpus.py adds every message of the
  /// demo session): edge cases of the venue's shapes, and symbols as a user might type them.
  static var fuzzSeeds: [(name: String, text: String)] {
    [
      (
        "first-book-docs",
        #"{"type":"l2_updates","symbol":"BTCUSD","changes":[["buy","9122.04","0.00121425"],["sell","9122.07","0.98942292"]],"trades":[{"type":"trade","symbol":"BTCUSD","eventid":169841458,"timestamp":1560976400428,"price":"9122.04","quantity":"0.0073173","side":"sell","tid":2840140800042677}]}"#
      ),
      (
        "first-book-mixed",
        #"{"type":"l2_updates","symbol":"ETHUSD","changes":[],"trades":[{"timestamp":2,"price":"1.50"},{"symbol":"ETHUSD","timestamp":"1","price":1.5,"quantity":null},7,{"price":"x","timestamp":3}],"auction_events":[]}"#
      ),
      (
        "book-update-spaced",
        #" { "changes" : [ [ "sell" , "9160.20" , "0.1921229751" ] ] , "symbol" : "BTCUSD" , "type" : "l2_updates" } "#
      ),
      ("book-update-number", #"{"type":"l2_updates","symbol":"BTCUSD","changes":[["buy",9160.2,"0"]]}"#),
      (
        "trade-docs",
        #"{"type":"trade","symbol":"BTCUSD","event_id":3575573053,"timestamp":151231241,"price":"9004.21000000","quantity":"0.09110000","side":"buy","tid":2840140800042677}"#
      ),
      (
        "trade-block",
        #"{"type":"trade","symbol":"BTCUSD","event_id":1,"timestamp":1.791469265458E12,"price":"97412.61","side":"block"}"#
      ),
      ("heartbeat-v1", #"{"type":"heartbeat","timestampms":1659740268958,"sequence":7,"socket_sequence":7}"#),
      (
        "error-message",
        #"{"result":"error","reason":"InvalidSymbol","message":"Supplied value 'x' is not a valid symbol"}"#
      ),
      (
        "mark-price",
        #"{"type":"mark_price_updates","symbol":"BTCGUSDPERP","changes":[{"timestamp":1673932381478308169,"mark_price":"21154.098","spot_index":"21175.27333"}]}"#
      ),
      ("price-exponent", #"9.741258E4"#),
      ("symbols", #"btcusd,ETHBTC,BTC-USD,,PAXGUSD,BTCGUSDPERP,1INCHUSD,BTCUSD"#),
    ]
  }
}
