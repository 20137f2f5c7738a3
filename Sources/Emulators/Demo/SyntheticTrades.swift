import TickerSupport

/// An endless, deterministic stream of trades: a seeded random walk per symbol, starting at the
/// script's last prices. It keeps `ticker --demo` streaming after the recording; each emulation
/// writes the trades in its venue's wire format (`VenueEmulator.synthetic(_:)`).
///
/// A symbol the script never traded is walked only once it is `admit`ted, from a start price
/// that depends on the seed and the symbol alone (`WalkStart.cents(for:seed:)`).
struct SyntheticTrades: Sendable {
  private let seed: UInt64
  private var rng: SplitMix64
  /// Price per symbol in hundredths.
  private var cents: [String: Int64]
  private var time: Int64

  init(seed: UInt64, start: [String: (price: String, time: Int64)]) {
    self.seed = seed
    rng = SplitMix64(seed: seed)
    cents = start.mapValues { Self.parseCents($0.price) ?? 10_000 }
    time = start.values.map(\.time).max() ?? 1_768_655_932_976
  }

  /// Whether the walk trades `symbol` (the script traded it, or it was admitted).
  func knows(_ symbol: String) -> Bool { cents[symbol] != nil }

  /// The current price of `symbol` in hundredths; nil when the walk does not know it.
  func price(of symbol: String) -> Int64? { cents[symbol] }

  /// Walks `symbol` from now on, from its start price in `range`; a symbol already known keeps
  /// its price.
  mutating func admit(_ symbol: String, from range: WalkStart) {
    if cents[symbol] == nil { cents[symbol] = range.cents(for: symbol, seed: seed) }
  }

  /// 1–3 trades spread over those of `symbols` the walk knows (none when it knows none), each
  /// with its own trade time, later than any before.
  mutating func nextTrades(symbols: [String], elapsedMilliseconds: Int) -> [SyntheticTrade] {
    let tradable = symbols.filter { cents[$0] != nil }
    guard !tradable.isEmpty else { return [] }
    time += Int64(max(1, elapsedMilliseconds))
    let count = 1 + Int(rng.next() % 3)
    var trades: [SyntheticTrade] = []
    for i in 0..<count {
      let symbol = tradable[Int(rng.next() % UInt64(tradable.count))]
      let price = cents[symbol]!
      // Steps of up to ±0.01 % of the price (about $10 on BTC), at least a cent.
      let span = max(1, price / 10_000)
      let step = Int64(rng.next() % UInt64(2 * span + 1)) - span
      let next = max(1, price + step)
      cents[symbol] = next
      let volume = Int(1 + rng.next() % 5000)
      trades.append(
        SyntheticTrade(symbol: symbol, cents: next, time: time + Int64(i), volume: volume, up: step >= 0))
    }
    return trades
  }

  /// One Finnhub trade message with 1–3 trades spread over `symbols`, or nil when none is known.
  mutating func nextMessage(symbols: [String], elapsedMilliseconds: Int) -> String? {
    let trades = nextTrades(symbols: symbols, elapsedMilliseconds: elapsedMilliseconds)
    return trades.isEmpty ? nil : FinnhubEmulator.message(trades)
  }

  static func parseCents(_ text: String) -> Int64? {
    let parts = text.split(separator: ".", maxSplits: 1)
    guard let first = parts.first, let whole = Int64(first) else { return nil }
    var fraction: Int64 = 0
    if parts.count == 2 {
      let digits = String(parts[1].prefix(2))
      let padded = digits + String(repeating: "0", count: 2 - digits.count)
      guard let f = Int64(padded) else { return nil }
      fraction = f
    }
    return whole * 100 + fraction
  }

  /// 9538050 → "95380.5"; 9538000 → "95380" (as a JSON number from a float would read).
  static func format(cents: Int64) -> String {
    let whole = cents / 100
    let fraction = cents % 100
    if fraction == 0 { return String(whole) }
    if fraction % 10 == 0 { return "\(whole).\(fraction / 10)" }
    return "\(whole).\(String(fraction).leftPadded(to: 2))"
  }

  /// 9538050 with 8 places → "95380.50000000" (Binance's and Coinbase's decimal strings).
  static func format(cents: Int64, places: Int) -> String {
    let whole = String(cents / 100)
    guard places > 0 else { return whole }
    let fraction = String(cents % 100).leftPadded(to: 2)
    let digits =
      places >= 2 ? fraction + String(repeating: "0", count: places - 2) : String(fraction.prefix(places))
    return "\(whole).\(digits)"
  }

  /// A volume in hundred-thousandths as a decimal with `places` places (`63` → "0.00063").
  static func format(volume: Int, places: Int) -> String {
    let digits = String(volume).leftPadded(to: 6)
    let whole = Int(digits.dropLast(5)) ?? 0
    let fraction = String(digits.suffix(5))
    return "\(whole).\(fraction)\(String(repeating: "0", count: max(0, places - 5)))"
  }
}

/// One trade of the synthetic stream.
struct SyntheticTrade: Sendable, Equatable {
  var symbol: String
  /// The price in hundredths.
  var cents: Int64
  /// Trade time, Unix milliseconds.
  var time: Int64
  /// The quantity in hundred-thousandths (1–5000: 0.00001 to 0.05).
  var volume: Int
  /// Whether the price went up (or stayed): a buy, for venues that say.
  var up: Bool
}

/// The best bid and ask a venue's top-of-book channel shows around one synthetic trade.
struct SyntheticBook: Sendable, Equatable {
  /// Prices in hundredths: always `bidCents < askCents`.
  var bidCents: Int64
  var askCents: Int64
  /// Sizes in hundred-thousandths, as `SyntheticTrade.volume`.
  var bidSize: Int
  var askSize: Int
}

extension SyntheticTrade {
  /// The book around this trade: a fifth of a basis point either side of its price (at least a
  /// cent), sizes
  /// from its quantity. Venues a few basis points apart (`DemoMarket.bias`) then cross now and then,
  /// as venues do.
  var book: SyntheticBook {
    let half = max(1, cents / 50_000)
    return SyntheticBook(
      bidCents: max(1, cents - half), askCents: max(1, cents - half) + 2 * half, bidSize: volume,
      askSize: 1 + (volume * 7 + Int(time % 997)) % 5000)
  }
}
