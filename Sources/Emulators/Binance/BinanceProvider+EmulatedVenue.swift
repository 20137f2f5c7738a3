import Recording
import TickerSupport
import Venues
import WebSocketWire

/// Binance, as the emulator plays it (`BinanceEmulator`).
extension BinanceProvider: EmulatedVenue {
  typealias Rules = BinanceRules

  static var path: String { "/stream" }
  static var demoSession: String { DemoSession.binance }
  static var untradedSymbol: String { "ETHUSDT" }
  static var refusesUnknownSymbols: Bool { false }
  static var demoPrices: [String] { ["78860.00000000"] }
  static func idleDeadline(_ rules: BinanceRules) -> Double? {
    rules.pingInterval.map { $0 + rules.pongTimeout }
  }
  static var blastOpcode: Opcode { .text }

  static func emulator(
    script: SessionScript, rules: BinanceRules, ending: ConnectionPlan.Ending, acceptAnySymbol: Bool
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

  static func blastMessage(_ i: Int, symbols: Int, book: Bool) -> String? {
    BinanceBlast.message(i, symbols: symbols, book: book)
  }

  /// Seeds for the fuzz harness over the catalog (Fuzz/make-corpus.py adds every message of the
  /// demo session): edge cases of the venue's shapes, and symbols as a user might type them.
  static var fuzzSeeds: [(name: String, text: String)] {
    [
      (
        "bare-trade",
        #"{"e":"trade","E":1789404776251,"s":"BTCUSDT","t":5206081234,"p":"78860.00000000","q":"0.00009000","T":1789404776250,"m":true,"M":true}"#
      ),
      ("exponent-price", #"{"stream":"x","data":{"e":"trade","s":"A","p":"1.5E2","q":null,"E":7}}"#),
      ("shutdown", #"{"e":"serverShutdown","E":1789404776251}"#),
      ("list-result", #"{"result":["btcusdt@trade"],"id":3}"#),
      ("symbols", #"btcusdt,ETHUSDT,1inchusdt,BTC-USDT,,bnbbtc,BTCUSDT"#),
      (
        "book-ticker",
        #"{"stream":"btcusdt@bookTicker","data":{"u":400900217,"s":"BTCUSDT","b":"97250.01000000","B":"3.41877000","a":"97250.02000000","A":"0.58410000"}}"#
      ),
      (
        "bare-book-ticker",
        #"{"u":1,"s":"BNBUSDT","b":"25.35190000","B":"31.21000000","a":"25.36520000","A":"40.66000000"}"#
      ),
      ("book-ticker-no-sizes", #"{"u":1,"s":"A","b":"1.5","a":"1.6","B":null}"#),
      ("book-ticker-number-ask", #"{"u":1,"s":"A","b":"1.5","a":1.6}"#),
      ("book-ticker-typed", #"{"e":"bookTicker","u":1,"s":"A","b":"1.5","a":"1.6"}"#),
      (
        "trade-with-order-ids",
        #"{"e":"trade","E":1,"s":"A","t":1,"p":"2","q":"1","b":88,"a":50,"T":1,"m":true}"#
      ),
    ]
  }
}
