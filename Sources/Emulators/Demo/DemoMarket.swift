import Synchronization
import TickerSupport
import Venues

/// One market that every venue of a demo trades in: each asset walks once, in dollars, and each
/// venue prices its markets from that walk, so that the venues of `--asset BTC --demo --board`
/// look as they do on a real day — a few basis points apart within a currency, USDT a little
/// under the dollar, the won a little over its rate (the KRW premium), trade times of now.
///
/// Shared by the run's demo servers (one per venue) and asked from their connection threads.
/// Every figure is a fixed function of the seed, the names and the time since the market began:
/// the walk of an asset, a venue's bias and the won's premium never depend on which venue asks
/// first.
/// The walks only go forward: a question about a time before one already answered gets the
/// later answer.
public final class DemoMarket: Sendable, Equatable {
  /// How often the walks move, in milliseconds.
  public static let stepMilliseconds: Int64 = 250

  let seed: UInt64
  private let clock: @Sendable () -> Int64
  /// When the market began, Unix milliseconds: the walks step from here.
  private let start: Int64
  private let state = Mutex(State())

  private struct State {
    /// Each walked asset or currency's dollar value, by name.
    var walks: [String: Walk] = [:]
  }

  /// One value walking in relative steps: `volatility` is the largest step (uniform, either way).
  private struct Walk {
    var step: Int64 = 0
    var value: Double
    var rng: SplitMix64
    let volatility: Double

    mutating func advance(to target: Int64) {
      while step < target {
        let unit = Double(rng.next() >> 11) / Double(1 << 53)
        value *= 1 + (2 * unit - 1) * volatility
        step += 1
      }
    }
  }

  /// - Parameters:
  ///   - seed: picks the walks, each venue's bias and the won's premium.
  ///   - clock: the time, Unix milliseconds (the wall clock; tests give their own).
  public init(seed: UInt64 = 2026, clock: @escaping @Sendable () -> Int64 = { WallClock.epochMilliseconds() })
  {
    self.seed = seed
    self.clock = clock
    start = clock()
  }

  /// One market is only ever equal to itself.
  public static func == (a: DemoMarket, b: DemoMarket) -> Bool { a === b }

  /// The market's time, Unix milliseconds: what trades are stamped with.
  public func now() -> Int64 { clock() }

  /// What `venue` trades `market` at, at `time`, in hundredths of the quote currency (at least
  /// 1): the base's dollar value over the quote's, moved by the venue's bias and `jitter` (a
  /// fraction, the trade's own noise), and by the won's premium where it quotes in won.
  public func cents(of market: Market, venue: String, at time: Int64, jitter: Double = 0) -> Int64 {
    let base = Self.canonical(market.base)
    let quote = Self.canonical(market.quote)
    var factor = 1 + bias(of: venue) + jitter
    if quote == "KRW", Self.stablecoins[base] == nil { factor *= 1 + wonPremium }
    let (baseValue, quoteValue) = state.withLock { state in
      (value(of: base, at: time, &state), value(of: quote, at: time, &state))
    }
    return Self.hundredths(baseValue / quoteValue * factor)
  }

  /// What `venue` trades `symbol`, a market the demo cannot name (a stock), at: a walk of its
  /// own starting at `start` hundredths (the recorded session's last price), or at a price picked
  /// by the seed and the symbol.
  public func cents(
    ofUnnamed symbol: String, start: Int64?, venue: String, at time: Int64, jitter: Double = 0
  )
    -> Int64
  {
    let value = state.withLock { state in
      walked(
        "symbol " + symbol, at: time,
        from: Double(start ?? WalkStart.dollars.cents(for: symbol, seed: seed)) / 100, volatility: 0.0001,
        &state)
    }
    return Self.hundredths(value * (1 + bias(of: venue) + jitter))
  }

  /// The venue's own distance from the market, a fraction: ±2.5 basis points.
  public func bias(of venue: String) -> Double {
    var rng = SplitMix64(seed: seed ^ FNV1a.hash("bias " + venue))
    return (Double(rng.next() % 51) - 25) / 100_000
  }

  /// What assets cost in won over the won's rate against USDT, a fraction, the same on every won
  /// venue (as the "kimchi premium" is the market's): 1 % to 3 %, inside the band it has traded in.
  public var wonPremium: Double {
    var rng = SplitMix64(seed: seed ^ FNV1a.hash("premium KRW"))
    return 0.01 + Double(rng.next() % 2001) / 100_000
  }

  // MARK: Values

  /// The dollar value of `name` at `time`: a fiat currency or stablecoin near where it trades,
  /// the won at a walking rate, any other asset on its walk.
  private func value(of name: String, at time: Int64, _ state: inout State) -> Double {
    if let fixed = Self.currencies[name] { return fixed }
    if let stable = Self.stablecoins[name] { return stable }
    // The won walks against USDT, the rate the boards convert it with.
    if name == "KRW" {
      let rate = walked("KRW", at: time, from: Self.wonPerUSDT, volatility: 0.00001, &state)
      return Self.stablecoins["USDT", default: 1] / rate
    }
    let initial = Self.assets[name] ?? Double(WalkStart.dollars.cents(for: name, seed: seed)) / 100
    return walked(name, at: time, from: initial, volatility: 0.00008, &state)
  }

  private func walked(
    _ name: String, at time: Int64, from initial: Double, volatility: Double, _ state: inout State
  ) -> Double {
    let target = max(0, (time - start) / Self.stepMilliseconds)
    var walk =
      state.walks[name]
      ?? Walk(value: initial, rng: SplitMix64(seed: seed ^ FNV1a.hash(name)), volatility: volatility)
    walk.advance(to: target)
    state.walks[name] = walk
    return walk.value
  }

  private static func hundredths(_ value: Double) -> Int64 {
    guard value.isFinite, value < 9e16 else { return 1 }
    return max(1, Int64((value * 100).rounded()))
  }

  /// Names venues give one asset (Kraken's and Bitfinex's older spellings).
  private static func canonical(_ name: String) -> String {
    let upper = name.uppercased()
    switch upper {
    case "XBT": return "BTC"
    case "XDG": return "DOGE"
    case "UST": return "USDT"
    case "UDC": return "USDC"
    default: return upper
    }
  }

  /// KRW per USDT where the walk of the won begins.
  static let wonPerUSDT = 1_452.0

  /// Fiat currencies in dollars, roughly where they traded in late 2026.
  static let currencies: [String: Double] = [
    "USD": 1, "EUR": 1.084, "GBP": 1.271, "JPY": 0.00664, "CHF": 1.132, "CAD": 0.715, "AUD": 0.654,
    "TRY": 0.0288, "BRL": 0.1715, "MXN": 0.0552, "PLN": 0.2515, "ZAR": 0.0551, "SGD": 0.748,
  ]

  /// Stablecoins in dollars: a little under, as they usually trade.
  static let stablecoins: [String: Double] = [
    "USDT": 0.99962, "USDC": 0.99991, "FDUSD": 0.9993, "DAI": 0.9997, "TUSD": 0.999, "USDP": 0.9995,
    "BUSD": 0.9994, "PYUSD": 0.9996,
  ]

  /// Where the walks of the best-known assets begin, in dollars.
  static let assets: [String: Double] = [
    "BTC": 97_250, "ETH": 3_612, "SOL": 182.4, "BNB": 655.2, "XRP": 2.351, "DOGE": 0.3215, "ADA": 0.9812,
    "AVAX": 38.75, "LINK": 23.41, "DOT": 7.12, "LTC": 104.6, "BCH": 468.3, "TRX": 0.2543, "XLM": 0.4412,
    "HYPE": 24.35, "SUI": 4.12, "TON": 5.46, "SHIB": 0.0000215, "PEPE": 0.0000172,
  ]
}
