import Recording
import TickerSupport
import Venues
import WebSocketWire

/// Finnhub, as the emulator plays it (`FinnhubEmulator`).
extension FinnhubProvider: EmulatedVenue {
  typealias Rules = NoRules

  static var path: String { "/" }
  static var demoSession: String { DemoSession.finnhub }
  static var untradedSymbol: String { "BINANCE:ETHUSDT" }
  static var refusesUnknownSymbols: Bool { true }
  static var demoPrices: [String] { ["95372.09", "95372.1"] }
  static var blastOpcode: Opcode { .text }

  static func emulator(
    script: SessionScript, rules: NoRules, ending: ConnectionPlan.Ending, acceptAnySymbol: Bool
  ) -> any VenueEmulator {
    let blastSymbols: [String] =
      switch ending {
      case .blast: [BlastFrames.symbol]
      case .mixedBlast(_, let mix, _): mix.symbolNames
      default: []
      }
    return FinnhubEmulator(script: script, extraSymbols: blastSymbols, acceptAnySymbol: acceptAnySymbol)
  }

  /// A one-trade BINANCE:BTCUSDT message (`BlastFrames.message`).
  static func blastMessage(_ i: Int) -> String { BlastFrames.message(i) }

  /// Seeds for the fuzz harness over the catalog (Fuzz/make-corpus.py adds every message of the
  /// demo session): edge cases of the venue's shapes, and symbols as a user might type them.
  static var fuzzSeeds: [(name: String, text: String)] {
    [
      ("exponents", #"{"type":"trade","data":[{"p":1.16539E8,"s":"X","t":1,"v":4.9E-4}]}"#),
      ("partial", #"{"type":"trade","data":[{"p":"1","s":"X","t":1},{"p":-0.0,"s":"Y","t":2}]}"#),
      ("escapes", #"{"type":"error","msg":"\u00e9\ud83d\ude00\n\"","x":[true,false,null]}"#),
      ("price-text", #"78860.00000000"#),
      ("price-exp", #"-0.5e-400"#),
    ]
  }
}
