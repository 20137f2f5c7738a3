import TickerSupport
import Venues

/// The trades one demo connection sends from the shared `DemoMarket`: 1–3 a step, spread over
/// the symbols it trades, each priced by the market for the connection's venue with a noise of
/// its own (±1 basis point, and a tick either way) and stamped with the market's time, later than any before.
struct MarketTrades: Sendable {
  /// A symbol the connection trades: in the emulator's spelling, with its market when the venue
  /// names one, and where a symbol without one (a stock) starts, in hundredths.
  struct Tradable: Sendable, Equatable {
    var symbol: String
    var market: Market?
    var start: Int64?
  }

  private var rng: SplitMix64
  private var time: Int64 = 0
  /// The last price sent per symbol: whether the next went up (a buy, where the venue says).
  private var last: [String: Int64] = [:]

  init(seed: UInt64) { rng = SplitMix64(seed: seed) }

  mutating func next(_ tradable: [Tradable], venue: String, in market: DemoMarket) -> [SyntheticTrade] {
    guard !tradable.isEmpty else { return [] }
    let count = 1 + Int(rng.next() % 3)
    time = max(time + 1, market.now())
    var trades: [SyntheticTrade] = []
    for i in 0..<count {
      let pick = tradable[Int(rng.next() % UInt64(tradable.count))]
      let jitter = (Double(rng.next() % 201) - 100) / 1_000_000
      let at = time + Int64(i)
      let priced =
        if let named = pick.market {
          market.cents(of: named, venue: venue, at: at, jitter: jitter)
        } else {
          market.cents(ofUnnamed: pick.symbol, start: pick.start, venue: venue, at: at, jitter: jitter)
        }
      // A trade lands a tick either side as often as on the mark (buyers at the ask, sellers at the
      // bid): a market of a few cents moves by its ticks, as such markets do.
      let cents = max(1, priced + Int64(rng.next() % 3) - 1)
      let up = cents >= (last[pick.symbol] ?? cents)
      last[pick.symbol] = cents
      trades.append(
        SyntheticTrade(
          symbol: pick.symbol, cents: cents, time: at, volume: Int(1 + rng.next() % 5000), up: up))
    }
    time += Int64(count - 1)
    return trades
  }
}
