import Recording
import TickerSupport
import Venues
import WebSocketClient

/// OKX, as the emulator plays it (`OKXEmulator`).
enum OKXVenue: EmulatedVenue {
  static var path: String { "/ws/v5/public" }
  static var demoSession: String { DemoSession.okx }
  static var blastOpcode: Opcode { .text }

  static func emulator(
    script: SessionScript, rules: VenueRules, ending: ConnectionPlan.Ending, acceptAnySymbol: Bool
  ) -> any VenueEmulator {
    OKXEmulator(script: script, rules: rules, acceptAnySymbol: acceptAnySymbol)
  }

  /// OKX takes 3 connection requests a second from one address.
  static func connectionLimit(_ rules: VenueRules) -> (count: Int, window: Duration)? {
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
}
