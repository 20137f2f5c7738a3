import TickerSupport

/// Where the synthetic stream starts a symbol the recorded session never traded (a demo that
/// accepts any symbol, `FeedServer.Options.acceptAnySymbol`): a price of 1.00 to 9.99 times
/// `lowestCents`, times a power of ten below `10^decades`, picked by the seed and the symbol.
///
/// Each venue gives its own range (`VenueEmulator.walkStart(for:)`): dollars for most, whole won
/// for Upbit, where prices are large enough that a step of the walk moves the whole-won figure.
struct WalkStart: Sendable, Equatable {
  /// The lowest start price, in hundredths.
  var lowestCents: Int64
  /// How many powers of ten above `lowestCents` the start may be (at least 1).
  var decades: Int
  /// How far above `lowestCents` (times the power of ten) the start may be, in hundredths of it:
  /// 900 for 1.00× to 9.99×.
  var span: Int64 = 900

  /// 10.00 to 9,990.00: a plausible stock or coin price in dollars (Finnhub, Binance, Coinbase).
  static let dollars = WalkStart(lowestCents: 1_000, decades: 3)
  /// 10,000 to 99,900,000 won (Upbit writes whole won; below 10,000 won a step of the walk,
  /// 0.01 % of the price, would rarely move the whole-won figure).
  static let won = WalkStart(lowestCents: 1_000_000, decades: 4)
  /// 1,350 to 1,499 won: one dollar stablecoin in won (Upbit's `KRW-USDT`), the rate the
  /// cross-venue board converts won prices with, near where it has traded.
  static let usdtInWon = WalkStart(lowestCents: 135_000, decades: 1, span: 12)

  /// The start price of `symbol` in hundredths: a fixed function of `seed` and the symbol's
  /// bytes (FNV-1a, then SplitMix64), never of the process, the order of subscriptions or the
  /// other symbols. Always positive.
  func cents(for symbol: String, seed: UInt64) -> Int64 {
    var rng = SplitMix64(seed: seed ^ FNV1a.hash(symbol))
    var scale: Int64 = 1
    for _ in 0..<Int(rng.next() % UInt64(max(1, decades))) { scale *= 10 }
    // 100…(99 + span) hundredths of the decade's base: 1.00× to 9.99× by default.
    let mantissa = Int64(100 + rng.next() % UInt64(max(1, span)))
    return max(1, lowestCents * scale * mantissa / 100)
  }
}
