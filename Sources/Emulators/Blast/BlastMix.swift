/// The shape of `.mixedBlast` messages, for benchmarks closer to a live multi-symbol feed than
/// one trade per message: each message carries a pseudo-random number of trades in `trades`,
/// spread over the first `symbols` of `symbolNames`. Every symbol walks its own price (never the
/// same price twice in a row), and every trade has its own trade time, one millisecond after the
/// one before, so dedupe and "latest trade time wins" have real work to do.
public struct BlastMix: Sendable, Equatable {
  /// Trades per message (inclusive bounds, at least 1).
  public var trades: ClosedRange<Int>
  /// How many symbols the trades are spread over (at least 1).
  public var symbols: Int
  /// Seed of the deterministic pseudo-random sequence.
  public var seed: UInt64
  /// Trade time of the first trade, in Unix milliseconds.
  public var firstTime: Int64
  /// The messages framed ahead of time (`feedserve` builds them before it listens); a
  /// connection that agreed on compression builds its own.
  public var prebuilt: PrebuiltBlast?

  public init(trades: ClosedRange<Int>, symbols: Int, seed: UInt64 = 1, firstTime: Int64 = 1_768_655_932_976)
  {
    self.trades = max(1, trades.lowerBound)...max(1, trades.upperBound)
    self.symbols = max(1, symbols)
    self.seed = seed
    self.firstTime = firstTime
  }

  /// The symbols the trades use: Binance pairs, then made-up ones past the twentieth.
  public var symbolNames: [String] {
    (0..<symbols).map { index in
      index < Self.pairs.count ? "BINANCE:\(Self.pairs[index])USDT" : "BINANCE:SYM\(index)USDT"
    }
  }

  /// How many trades the first `messages` messages of this mix carry (what the client must
  /// receive), without building them.
  public func tradeCount(messages: Int) -> Int {
    var generator = BlastFrames.Mixed(self)
    var trades = 0
    for _ in 0..<messages { trades += generator.skipMessage() }
    return trades
  }

  static let pairs = [
    "BTC", "ETH", "SOL", "BNB", "XRP", "ADA", "DOGE", "AVAX", "DOT", "LINK",
    "LTC", "TRX", "ATOM", "NEAR", "UNI", "ETC", "XLM", "BCH", "FIL", "APT",
  ]
}
