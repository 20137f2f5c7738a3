import Recording
import TickerSupport
import Venues
import WebSocketClient

/// Finnhub, as the emulator plays it (`FinnhubEmulator`).
enum FinnhubVenue: EmulatedVenue {
  static var path: String { "/" }
  static var demoSession: String { DemoSession.finnhub }
  static var blastOpcode: Opcode { .text }

  static func emulator(
    script: SessionScript, rules: VenueRules, ending: ConnectionPlan.Ending, acceptAnySymbol: Bool
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
}
