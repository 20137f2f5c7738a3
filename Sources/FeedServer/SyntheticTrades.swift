/// An endless, deterministic stream of Finnhub trade messages: a seeded random walk per symbol,
/// starting at the script's last prices. It keeps `ticker --demo` streaming after the recording.
struct SyntheticTrades: Sendable {
  private var rng: SplitMix64
  /// Price per symbol in hundredths.
  private var cents: [String: Int64]
  private var time: Int64

  init(seed: UInt64, start: [String: (price: String, time: Int64)]) {
    rng = SplitMix64(seed: seed)
    cents = start.mapValues { Self.parseCents($0.price) ?? 10_000 }
    time = start.values.map(\.time).max() ?? 1_768_655_932_976
  }

  /// One message with 1–3 trades spread over `symbols`, or nil when none is known.
  mutating func nextMessage(symbols: [String], elapsedMilliseconds: Int) -> String? {
    let tradable = symbols.filter { cents[$0] != nil }
    guard !tradable.isEmpty else { return nil }
    time += Int64(max(1, elapsedMilliseconds))
    let count = 1 + Int(rng.next() % 3)
    var entries: [String] = []
    for i in 0..<count {
      let symbol = tradable[Int(rng.next() % UInt64(tradable.count))]
      let price = cents[symbol]!
      // Steps of up to ±0.01 % of the price (about $10 on BTC), at least a cent.
      let span = max(1, price / 10_000)
      let step = Int64(rng.next() % UInt64(2 * span + 1)) - span
      let next = max(1, price + step)
      cents[symbol] = next
      let volume = 1 + rng.next() % 5000
      entries.append(
        #"{"c":null,"p":\#(Self.format(cents: next)),"s":"\#(symbol)","t":\#(time + Int64(i)),"v":0.\#(String(volume).leftPadded(to: 5))}"#
      )
    }
    return #"{"data":[\#(entries.joined(separator: ","))],"type":"trade"}"#
  }

  static func parseCents(_ text: String) -> Int64? {
    let parts = text.split(separator: ".", maxSplits: 1)
    guard let whole = Int64(parts[0]) else { return nil }
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
}

/// A small, fast, seedable generator (Steele, Lea & Flood's SplitMix64).
struct SplitMix64: RandomNumberGenerator, Sendable {
  private var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

extension String {
  func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: "0", count: width - count) + self
  }
}
