import Recording
import TickerSupport
import Venues
import WebSocketWire

/// Upbit, as the emulator plays it (`UpbitEmulator`).
extension UpbitProvider: EmulatedVenue {
  typealias Rules = UpbitRules

  static var path: String { "/websocket/v1" }
  static var demoSession: String { DemoSession.upbit }
  static var untradedSymbol: String { "KRW-ETH" }
  static var refusesUnknownSymbols: Bool { false }
  static var demoPrices: [String] { ["103160000.0", "103156000"] }
  static var blastOpcode: Opcode { .binary }

  static func emulator(
    script: SessionScript, rules: UpbitRules, ending: ConnectionPlan.Ending, acceptAnySymbol: Bool
  ) -> any VenueEmulator {
    UpbitEmulator(script: script, rules: rules)
  }

  /// A KRW-BTC SIMPLE ticker as Upbit sends it (every field), its price every other message in
  /// Java's exponent form (`1.03167E8`).
  static func blastMessage(_ i: Int) -> String {
    let won = Int64(103_160_000 + ((i * 7919) % 20_000) * 1000)
    let price = i % 2 == 0 ? "\(won).0" : UpbitTicker.javaDouble(won)
    let change = won - 102_103_000
    let time = 1_771_247_814_642 + Int64(i)
    return
      #"{"ty":"ticker","cd":"KRW-BTC","op":102158000.0,"hp":103708000.0,"lp":100795000.0,"tp":\#(price),"#
      + #""pcp":102103000.0,"atp":86970405555.45227,"c":"RISE","cp":\#(change).0,"scp":\#(change).0,"#
      + #""cr":0.0103522913,"scr":0.0103522913,"ab":"BID","tv":0.0005,"atv":851.82334868,"tdt":"20260216","#
      + #""ttm":"131654","ttms":\#(time),"aav":412.37969677,"abv":439.44365191,"h52wp":179869000.0,"#
      + #""h52wdt":"2025-10-09","l52wp":89000000.0,"l52wdt":"2026-02-06","ms":"ACTIVE","its":false,"dd":null,"#
      + #""mw":"NONE","tms":\#(time + 40),"atp24h":157810722200.7429,"atv24h":1547.96784012,"st":"REALTIME"}"#
  }

  /// Seeds for the fuzz harness over the catalog (Fuzz/make-corpus.py adds every message of the
  /// demo session): edge cases of the venue's shapes, and symbols as a user might type them.
  static var fuzzSeeds: [(name: String, text: String)] {
    [
      (
        "default-keys",
        #"{"type":"ticker","code":"KRW-ETH","trade_price":4.5E6,"trade_volume":1.2E-3,"trade_timestamp":1771247814642,"timestamp":1771247814700,"stream_type":"REALTIME","delisting_date":null}"#
      ),
      ("time-fallback", #"{"ty":"ticker","cd":"KRW-BTC","tp":1,"tms":1.771247814642E12,"tv":null}"#),
      ("both-spellings", #"{"ty":"ticker","type":"trade","cd":"KRW-BTC","code":"X","tp":1,"ttms":1}"#),
      ("error-string", #"{"error":"boom","status":"UP"}"#),
      (
        "orderbook",
        #"{"ty":"orderbook","cd":"KRW-BTC","tms":1733450000000,"tas":0.35,"tbs":1.3,"obu":[{"ap":1.4325E8,"bp":1.4324E8,"as":4.9E-4,"bs":0.1},{"ap":1.43251E8,"bp":null,"as":0.3}],"st":"REALTIME","lv":0}"#
      ),
      ("codes", #"krw-btc,KRW-ETH,BTC-1INCH,KRW--X,,usdt-btc,KRW-BTC"#),
    ]
  }
}
