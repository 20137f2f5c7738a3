import Recording
import TickerSupport
import Venues
import WebSocketWire

/// Bithumb, as the emulator plays it (`BithumbEmulator`).
extension BithumbProvider: EmulatedVenue {
  typealias Rules = BithumbRules

  static var path: String { "/websocket/v1" }
  static var demoSession: String { DemoSession.bithumb }
  static var untradedSymbol: String { "KRW-XRP" }
  /// Bithumb documents no error for a code it does not list (its errors are about the request's
  /// shape): such a code is accepted and gets nothing.
  static var refusesUnknownSymbols: Bool { false }
  static var demoPrices: [String] { ["95539000", "95540000", "95541000", "95536000"] }
  static func idleDeadline(_ rules: BithumbRules) -> Double? { rules.idleTimeout }
  static var blastOpcode: Opcode { .binary }

  static func emulator(
    script: SessionScript, rules: BithumbRules, ending: ConnectionPlan.Ending, acceptAnySymbol: Bool
  ) -> any VenueEmulator {
    BithumbEmulator(script: script, rules: rules)
  }

  /// Bithumb takes 10 connection requests a second from one address.
  static func connectionLimit(_ rules: BithumbRules) -> (count: Int, window: Duration)? {
    (rules.connectionsPerSecond, .seconds(fractional: rules.connectionWindow))
  }

  /// A KRW-BTC trade as Bithumb sends it (every field, DEFAULT keys), its price in whole
  /// thousands of won as Bithumb's tick for BTC makes it.
  static func blastMessage(_ i: Int) -> String {
    let won = Int64(95_539_000 + ((i * 7919) % 20_000) * 1000)
    let time = 1_783_658_381_138 + Int64(i)
    let (date, clock) = BithumbWire.koreanDateAndTime(time)
    return
      #"{"type":"trade","code":"KRW-BTC","trade_price":\#(won),"trade_volume":0.00022664,"ask_bid":"ASK","#
      + #""prev_closing_price":94201000,"change":"RISE","change_price":\#(won - 94_201_000),"#
      + #""trade_date":"\#(date)","trade_time":"\#(clock)","trade_timestamp":\#(time),"#
      + #""sequential_id":"\#(862_683_813_820_523_888 + Int64(i))","timestamp":\#(time + 260),"stream_type":"REALTIME"}"#
  }

  /// Seeds for the fuzz harness over the catalog (Fuzz/make-corpus.py adds every message of the
  /// demo session): edge cases of the venue's shapes, and symbols as a user might type them.
  static var fuzzSeeds: [(name: String, text: String)] {
    [
      (
        "orderbook",
        #"{"type":"orderbook","code":"KRW-BTC","total_ask_size":0.41,"total_bid_size":1.6,"orderbook_units":[{"ask_price":95540000,"bid_price":95539000,"ask_size":0.0123,"bid_size":0.5},{"ask_price":"9.5541E7","bid_price":null}],"timestamp":1783658381398,"level":1,"stream_type":"REALTIME"}"#
      ),
      (
        "strings",
        #"{"type":"trade","code":"KRW-XRP","trade_price":"3012.5","trade_volume":"1500.00","trade_timestamp":"1783658381138","stream_type":"SNAPSHOT"}"#
      ),
      (
        "exponent-time-fallback",
        #"{"type":"trade","code":"BTC-ETH","trade_price":4.3E-2,"trade_volume":null,"timestamp":1.783658381138E12}"#
      ),
      ("ticker", #"{"type":"ticker","code":"KRW-BTC","trade_price":95299000,"delisting_date":""}"#),
      ("error-string", #"{"error":"boom","status":"UP"}"#),
      ("error-format", #"{"error":{"name":"INVALID_PARAM","message":"XML은 지원하지 않는 포맷입니다."}}"#),
      ("codes", #"krw-btc,KRW-XRP,BTC-ETH,KRW--X,,usdt-btc,KRW-1INCH,KRW-BTC"#),
    ]
  }
}
