import Recording
import TickerSupport
import Venues
import WebSocketClient

/// Binance, as the emulator plays it (`BinanceEmulator`).
enum BinanceVenue: EmulatedVenue {
  static var path: String { "/stream" }
  static var demoSession: String { DemoSession.binance }
  static var blastOpcode: Opcode { .text }

  static func emulator(
    script: SessionScript, rules: VenueRules, ending: ConnectionPlan.Ending, acceptAnySymbol: Bool
  ) -> any VenueEmulator {
    BinanceEmulator(script: script, rules: rules)
  }

  /// A combined-stream BTCUSDT trade: price and quantity as 8-place decimal strings.
  static func blastMessage(_ i: Int) -> String {
    let cents = Int64(9_500_000 + (i * 7919) % 20_000)
    let time = 1_789_404_776_250 + Int64(i)
    let price = SyntheticTrades.format(cents: cents, places: 8)
    return
      #"{"stream":"btcusdt@trade","data":{"e":"trade","E":\#(time + 1),"s":"BTCUSDT","t":\#(5_206_081_234 + i),"#
      + #""p":"\#(price)","q":"0.00063000","T":\#(time),"m":true,"M":true}}"#
  }
}
