import Recording
import TickerSupport
import Venues
import WebSocketWire

/// Bitfinex, as the emulator plays it (`BitfinexEmulator`).
extension BitfinexProvider: EmulatedVenue {
  typealias Rules = BitfinexRules

  static var path: String { "/ws/2" }
  static var demoSession: String { DemoSession.bitfinex }
  static var untradedSymbol: String { "tXLMUSD" }
  static var refusesUnknownSymbols: Bool { true }
  /// The snapshot's newest trade (the starting price), then the live trades.
  static var demoPrices: [String] { ["97412", "97413", "97411", "97415"] }
  /// None: Bitfinex closes no connection that has a channel open (its heartbeats flow).
  static func idleDeadline(_ rules: BitfinexRules) -> Double? { nil }
  static var blastOpcode: Opcode { .text }

  static func emulator(
    script: SessionScript, rules: BitfinexRules, ending: ConnectionPlan.Ending, acceptAnySymbol: Bool
  ) -> any VenueEmulator {
    // The demo's market trades from now: the recording's trades are no pair's history there.
    let market = if case .market = ending { true } else { false }
    return BitfinexEmulator(script: script, rules: rules, acceptAnySymbol: acceptAnySymbol, history: !market)
  }

  /// Bitfinex takes 20 connections a minute from one address on its public endpoint.
  static func connectionLimit(_ rules: BitfinexRules) -> (count: Int, window: Duration)? {
    (rules.connectionsPerWindow, .seconds(fractional: rules.connectionWindow))
  }

  /// A trade of the demo's tBTCUSD channel (17470, the id the emulation gives it first) as
  /// Bitfinex writes it: `te`, whole-dollar prices (five significant digits), a signed amount.
  static func blastMessage(_ i: Int) -> String {
    let price = 96_412 + (i * 7919) % 2000
    let amount = i % 2 == 0 ? "0.00081204" : "-0.0125"
    return #"[17470,"te",[\#(1_842_915_713 + i),\#(1_791_966_084_000 + Int64(i)),\#(amount),\#(price)]]"#
  }

  /// Seeds for the fuzz harness over the catalog (Fuzz/make-corpus.py adds every message of the
  /// demo session): edge cases of the venue's shapes, and symbols as a user might type them.
  static var fuzzSeeds: [(name: String, text: String)] {
    [
      ("te-seq-ts", #"[17470,"te",[401597395,1574694478808,0.005,7245.3],1044,1574694478817]"#),
      ("te-strings", #"[17470,"te",["401597395","1574694478808","-0.005","7245.3"]]"#),
      ("snapshot-empty", #"[17470,[]]"#),
      (
        "subscribed-ticker",
        #"{"event":"subscribed","channel":"ticker","chanId":232591,"symbol":"tBTCUSD","pair":"BTCUSD"}"#
      ),
      (
        "ticker",
        #"[232591,[97250,4.53188652,97251,6.61437813,-1236,-0.0126,97251,1563.21834416,99010,96020]]"#
      ),
      ("ticker-exponent", #"[232591,[1.2e-7,3e1,0.00000013,null,0,0,1.2e-7,5,1,1]]"#),
      ("snapshot-funding", #"[339521,[[133323072,1574694245478,-371.1,0.000176,2]]]"#),
      ("fte", #"[339521,"fte",[133323064,1574694039003,-6449,0.000176,2]]"#),
      ("checksum", #"[759362,"cs",1330055495]"#),
      (
        "error-dup",
        #"{"channel":"trades","symbol":"tBTCUSD","event":"error","msg":"subscribe: dup","code":10301,"chanId":17470,"pair":"BTCUSD"}"#
      ),
      (
        "error-limit",
        #"{"channel":"trades","symbol":"tICP:USD","event":"error","msg":"subscribe: limit","code":10305,"pair":"ICP:USD"}"#
      ),
      ("error-event", #"{"event":"error","msg":"event: invalid (nope)","code":10000}"#),
      ("info-restart", #"{"event":"info","code":20051,"msg":"Stopping. Please try to reconnect"}"#),
      (
        "info-maintenance",
        #"{"event":"info","code":20060,"msg":"Entering in Maintenance mode. Please pause any activity and resume after receiving the info message 20061 (it should take 120 seconds at most)."}"#
      ),
      ("unsubscribed", #"{"event":"unsubscribed","status":"OK","chanId":17470}"#),
      ("pong", #"{"event":"pong","ts":1511545528111,"cid":1234}"#),
      ("conf", #"{"event":"conf","status":"OK","flags":98304}"#),
      ("amount-exponent", #"-1e-8"#),
      (
        "pairs", #"tBTCUSD,btcusd,tbtcusd,trxusd,fUSD,tDOGE:USD,doge:usd,tTESTBTC:TESTUSD,BTCUSDT,t,,tBTCUST"#
      ),
    ]
  }
}
