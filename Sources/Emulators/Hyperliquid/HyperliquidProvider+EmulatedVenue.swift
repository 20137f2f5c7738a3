import Recording
import TickerSupport
import Venues
import WebSocketWire

/// Hyperliquid, as the emulator plays it (`HyperliquidEmulator`).
extension HyperliquidProvider: EmulatedVenue {
  typealias Rules = HyperliquidRules

  static var path: String { "/ws" }
  static var demoSession: String { DemoSession.hyperliquid }
  static var untradedSymbol: String { "XLM" }
  static var refusesUnknownSymbols: Bool { true }
  /// The back-fill's newest trade (its first is at the same price), then the live fills: the
  /// spread bouncing between 97431 and 97432.
  static var demoPrices: [String] { ["97432.0", "97431.0", "97432.0"] }
  static func idleDeadline(_ rules: HyperliquidRules) -> Double? { rules.idleTimeout }
  static var blastOpcode: Opcode { .text }

  static func emulator(
    script: SessionScript, rules: HyperliquidRules, ending: ConnectionPlan.Ending, acceptAnySymbol: Bool
  ) -> any VenueEmulator {
    HyperliquidEmulator(script: script, rules: rules, acceptAnySymbol: acceptAnySymbol)
  }

  /// A BTC `trades` message of one fill as Hyperliquid sends it (every field, price and size as
  /// decimal strings, a millisecond time), its price a whole dollar as BTC trades there.
  static func blastMessage(_ i: Int) -> String {
    let price = 97_432 + (i * 7919) % 2_000
    let time = 1_791_303_610_006 + Int64(i)
    return
      #"{"channel":"trades","data":[{"coin":"BTC","side":"\#(i % 2 == 0 ? "B" : "A")","px":"\#(price).0","#
      + #""sz":"0.00245","time":\#(time),"hash":"0x2804bad6fe94a55f18b2b37e300919a5fd517b95aa81e95db574c0ba069a3740","#
      + #""tid":\#(877_707_108_244_180 + i),"users":["\#(HyperliquidWire.buyer)","\#(HyperliquidWire.seller)"]}]}"#
  }

  /// Seeds for the fuzz harness over the catalog (Fuzz/make-corpus.py adds every message of the
  /// demo session): edge cases of the venue's shapes, and coins as a user might type them.
  static var fuzzSeeds: [(name: String, text: String)] {
    [
      (
        "bbo",
        #"{"channel":"bbo","data":{"coin":"BTC","time":1733450000000,"bbo":[{"px":"97250.0","sz":"1.2","n":3},null]}}"#
      ),
      (
        "fills-mixed",
        #"{"channel":"trades","data":[{"coin":"BTC","px":"1.50","sz":null,"time":1},{"coin":"","px":"2","time":2},{"coin":"ETH","px":3,"sz":"0.1","time":"3"},7]}"#
      ),
      ("fills-empty", #"{"channel":"trades","data":[]}"#),
      (
        "fill-bare",
        #"{"channel":"trades","data":[{"coin":"kPEPE","side":"A","px":"0.012345","sz":"1000","time":1791303610006,"hash":"0x0000000000000000000000000000000000000000000000000000000000000000","tid":1}]}"#
      ),
      (
        "error-invalid",
        #"{"channel":"error","data":"Invalid subscription: {\"type\":\"trades\",\"coin\":\"X\"}"}"#
      ),
      (
        "error-already",
        #"{"channel":"error","data":"Already subscribed: {\"type\":\"trades\",\"coin\":\"BTC\"}"}"#
      ),
      (
        "error-request",
        #"{"channel":"error","data":"Error parsing JSON into valid websocket request: {\"method\":\"subscribe\",\"subscription\":{\"type\":\"trades\",\"coin\":{}}}"}"#
      ),
      (
        "error-unquoted",
        #"{"channel":"error","data":"Invalid subscription {\"type\":\"trades\",\"coin\":\"Y\"}}"}"#
      ),
      (
        "ack-unsubscribe",
        #"{"channel":"subscriptionResponse","data":{"method":"unsubscribe","subscription":{"type":"trades","coin":"BTC"}}}"#
      ),
      ("l2book", #"{"channel":"l2Book","data":{"coin":"BTC","time":1,"levels":[[],[]]}}"#),
      ("greeting", HyperliquidWire.greeting),
      ("px-exponent", #"9.7432E4"#),
      ("coins", #"btc,kPEPE,kpepe,ETH,,PURR/USDC,@107,xyz:SP500,BTC"#),
    ]
  }
}
