import Recording
import TickerSupport
import Venues
import WebSocketWire

/// OKX, as the emulator plays it (`OKXEmulator`).
extension OKXProvider: EmulatedVenue {
  typealias Rules = OKXRules

  static var path: String { "/ws/v5/public" }
  static var demoSession: String { DemoSession.okx }
  static var untradedSymbol: String { "XLM-EUR" }
  static var refusesUnknownSymbols: Bool { true }
  static var demoPrices: [String] { ["79412.6", "79412.5", "79413", "79415.2"] }
  static func idleDeadline(_ rules: OKXRules) -> Double? { rules.quietTimeout }
  static var blastOpcode: Opcode { .text }

  static func emulator(
    script: SessionScript, rules: OKXRules, ending: ConnectionPlan.Ending, acceptAnySymbol: Bool
  ) -> any VenueEmulator {
    OKXEmulator(script: script, rules: rules, acceptAnySymbol: acceptAnySymbol)
  }

  /// OKX takes 3 connection requests a second from one address.
  static func connectionLimit(_ rules: OKXRules) -> (count: Int, window: Duration)? {
    (rules.connectionsPerSecond, .seconds(fractional: rules.connectionWindow))
  }

  /// A BTC-USDT `tickers` push as OKX sends it (every field, decimal strings, a millisecond
  /// time as a string), its price one decimal as OKX writes BTC-USDT.
  static func blastMessage(_ i: Int) -> String {
    let tenths = Int64(794_126 + (i * 7919) % 20_000)
    let price = OKXWire.trimmed("\(tenths / 10).\(tenths % 10)")
    let ask = OKXWire.trimmed("\((tenths + 1) / 10).\((tenths + 1) % 10)")
    let time = 1_791_278_071_509 + Int64(i)
    return
      #"{"arg":{"channel":"tickers","instId":"BTC-USDT"},"data":[{"instType":"SPOT","instId":"BTC-USDT","#
      + #""last":"\#(price)","lastSz":"0.00081204","askPx":"\#(ask)","askSz":"0.41833017","bidPx":"\#(price)","#
      + #""bidSz":"1.07720465","open24h":"78640.1","high24h":"79880","low24h":"78315.4","sodUtc0":"78911.3","#
      + #""sodUtc8":"78702.9","volCcy24h":"612044739.418735602","vol24h":"7751.68302447","ts":"\#(time)"}]}"#
  }

  /// Seeds for the fuzz harness over the catalog (Fuzz/make-corpus.py adds every message of the
  /// demo session): edge cases of the venue's shapes, and symbols as a user might type them.
  static var fuzzSeeds: [(name: String, text: String)] {
    [
      (
        "two-entries",
        #"{"arg":{"channel":"tickers","instId":"A-B"},"data":[{"instId":"A-B","last":"1.50","lastSz":"","ts":"1"},{"last":"","ts":2},{"instId":"A-B","last":"2","lastSz":null,"ts":"3"}]}"#
      ),
      (
        "error-old", #"{"event":"error","msg":"channel:tickers,instId:LTC-USD doesn't exist","code":"60018"}"#
      ),
      (
        "error-new",
        #"{"event":"error","msg":"Subscribe failed, wrong URL or channel:tickers,instId:X-Y doesn't exist.","code":"60018","connId":"e1f69f02"}"#
      ),
      (
        "error-invalid",
        #"{"id":"1512","event":"error","code":"60012","msg":"Invalid request: {\"op\": \"subscribe\", \"argss\":[]}","connId":"a4d3ae55"}"#
      ),
      (
        "notice",
        #"{"event":"notice","code":"64008","msg":"The connection will soon be closed for a service upgrade. Please reconnect.","connId":"a4d3ae55"}"#
      ),
      (
        "unsubscribe",
        #"{"event":"unsubscribe","arg":{"channel":"tickers","instId":"BTC-USDT"},"connId":"d0b44253"}"#
      ),
      (
        "trades", #"{"arg":{"channel":"trades","instId":"BTC-USDT"},"data":[{"instId":"BTC-USDT","px":"1"}]}"#
      ),
      ("last-exponent", #"1.5E2"#),
      ("last-text", #"0.000012340"#),
      ("instruments", #"btc-usdt,ETH-BTC,BTCUSDT,,BTC-USDT-SWAP,1INCH-USDT,BTC-USDT"#),
    ]
  }
}
