import Recording
import TickerSupport
import Venues
import WebSocketWire

/// Bybit, as the emulator plays it (`BybitEmulator`).
extension BybitProvider: EmulatedVenue {
  typealias Rules = BybitRules

  static var path: String { "/v5/public/spot" }
  static var demoSession: String { DemoSession.bybit }
  static var untradedSymbol: String { "XLMUSDT" }
  static var refusesUnknownSymbols: Bool { true }
  /// Every trade of the demo's messages, the batched ones too, the repeated price too.
  static var demoPrices: [String] {
    ["79408.3", "79408.5", "79408.5", "79407.91", "79407.9", "79407.2", "79409.4"]
  }
  static func idleDeadline(_ rules: BybitRules) -> Double? { rules.idleTimeout }
  static var blastOpcode: Opcode { .text }

  static func emulator(
    script: SessionScript, rules: BybitRules, ending: ConnectionPlan.Ending, acceptAnySymbol: Bool
  ) -> any VenueEmulator {
    BybitEmulator(script: script, rules: rules, acceptAnySymbol: acceptAnySymbol)
  }

  /// Bybit takes 500 new connections in 5 minutes from one address.
  static func connectionLimit(_ rules: BybitRules) -> (count: Int, window: Duration)? {
    (rules.connectionsPerWindow, .seconds(fractional: rules.connectionWindow))
  }

  /// A BTCUSDT `publicTrade` message of one trade as spot writes it (every field, decimal
  /// strings without trailing zeros, a millisecond time).
  static func blastMessage(_ i: Int) -> String {
    let cents = Int64(7_940_830 + (i * 7919) % 20_000)
    let time = 1_791_370_935_576 + Int64(i)
    let entry = BybitWire.entry(
      id: 2_290_000_001_226_831_406 + Int64(i), time: time, price: SyntheticTrades.format(cents: cents),
      size: "0.000412", buy: i % 3 != 0, seq: 115_032_976_311 + Int64(i), symbol: "BTCUSDT")
    return BybitWire.trades(symbol: "BTCUSDT", ts: time + 1, entries: [entry])
  }

  /// Seeds for the fuzz harness over the catalog (Fuzz/make-corpus.py adds every message of the
  /// demo session): edge cases of the venue's shapes, and symbols as a user might type them.
  static var fuzzSeeds: [(name: String, text: String)] {
    [
      (
        "linear-trade",
        #"{"topic":"publicTrade.BTCUSDT","type":"snapshot","ts":1672304486868,"data":[{"T":1672304486865,"s":"BTCUSDT","S":"Buy","v":"0.001","p":"16578.50","L":"PlusTick","i":"20f43950-d8dd-5b31-9112-a178eb6023af","BT":false,"seq":1783284617}]}"#
      ),
      (
        "spot-2023",
        #"{"topic":"publicTrade.BTCUSDT","ts":1703430744103,"type":"snapshot","data":[{"i":"2290000000090712222","T":1703430744102,"p":"43774","v":"0.0026","S":"Sell","s":"BTCUSDT","BT":false}]}"#
      ),
      (
        "entries-odd",
        #"{"topic":"publicTrade.A1","ts":7,"data":[{"p":"1.50","v":""},{"s":"A1","p":1,"T":2},{"s":"","p":"2","T":"3"},{"s":"A1","p":"1.5E2","v":null,"T":1.7e1}]}"#
      ),
      (
        "ack-2023",
        #"{"success":true,"ret_msg":"subscribe","conn_id":"6c642bd0-3fa2-408e-8617-3d62cb898d4c","op":"subscribe"}"#
      ),
      ("unsubscribed", #"{"success":true,"ret_msg":"unsubscribe","op":"unsubscribe"}"#),
      ("args-size", #"{"success":false,"ret_msg":"args size >10","op":"subscribe"}"#),
      (
        "handler-not-found",
        #"{"success":false,"ret_msg":"error:handler not found,topic:publicTrade.NOPEUSDT","conn_id":"c","req_id":"e1","op":"subscribe"}"#
      ),
      (
        "already-subscribed",
        #"{"success":false,"ret_msg":"error:already subscribed,topic:publicTrade.BTCUSDT","conn_id":"c","req_id":"3","op":"subscribe"}"#
      ),
      (
        "undecodable",
        #"{"success":false,"ret_msg":"Failed to decode incoming data:readObjectStart: expect { or n, but found h","conn_id":"c"}"#
      ),
      (
        "pong-private",
        #"{"req_id":"test","op":"pong","args":["1675418560633"],"conn_id":"cfcb4ocsvfriu23r3er0-1b"}"#
      ),
      (
        "tickers",
        #"{"topic":"tickers.BTCUSDT","ts":1788335008126,"type":"snapshot","cs":113508069165,"data":{"symbol":"BTCUSDT","lastPrice":"77606.8"}}"#
      ),
      ("symbols", #"btcusdt,BTCUSDT,1inchusdt,BTC-USDT,,XLMUSDT,btc/usdt"#),
    ]
  }
}
