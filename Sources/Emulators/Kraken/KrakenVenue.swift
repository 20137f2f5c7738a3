import Recording
import TickerSupport
import Venues
import WebSocketClient

/// Kraken, as the emulator plays it (`KrakenEmulator`).
enum KrakenVenue: EmulatedVenue {
  static var path: String { "/v2" }
  static var demoSession: String { DemoSession.kraken }
  static var blastOpcode: Opcode { .text }

  static func emulator(
    script: SessionScript, rules: VenueRules, ending: ConnectionPlan.Ending, acceptAnySymbol: Bool
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
}
