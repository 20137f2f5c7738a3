/// The price levels of one symbol's order book that a venue sends as a snapshot and then changes
/// (Bybit's `orderbook.1`, Gemini's `l2`), kept to read the best bid and ask. Bounded whatever
/// the server sends: at most `maximumLevels` a side, the ones nearest the top; a level further
/// out is not kept (the top is all the ticker shows).
public struct LocalBook: Sendable, Equatable {
  /// One price level: its price and the size there.
  public struct Level: Sendable, Equatable {
    public var price: Price
    public var size: Price
  }

  public enum Side: Sendable, Equatable {
    case bid, ask
  }

  /// Levels kept a side.
  public static let maximumLevels = 1000

  /// Best first: bids from the highest price down, asks from the lowest up.
  public private(set) var bids: [Level] = []
  public private(set) var asks: [Level] = []

  public init() {}

  /// Sets the size at `price` on `side`; a size of zero removes the level.
  public mutating func set(_ side: Side, price: Price, size: Price) {
    let remove = size.value == 0
    switch side {
    case .bid: Self.set(&bids, price: price, size: size, remove: remove, before: { $0 > $1 })
    case .ask: Self.set(&asks, price: price, size: size, remove: remove, before: { $0 < $1 })
    }
  }

  /// Empties both sides (before a snapshot).
  public mutating func clear() {
    bids.removeAll(keepingCapacity: true)
    asks.removeAll(keepingCapacity: true)
  }

  /// The best bid and ask as a quote of `symbol`; nil while either side is empty.
  public func quote(symbol: String, time: Int64) -> Quote? {
    guard let bid = bids.first, let ask = asks.first else { return nil }
    return Quote(
      symbol: symbol, bid: bid.price, bidSize: bid.size, ask: ask.price, askSize: ask.size, time: time)
  }

  /// `before(a, b)`: a level at `a` comes before one at `b` (is nearer the top).
  private static func set(
    _ levels: inout [Level], price: Price, size: Price, remove: Bool, before: (Price, Price) -> Bool
  ) {
    // Binary search: the first level not before `price`.
    var low = 0
    var high = levels.count
    while low < high {
      let middle = (low + high) / 2
      if before(levels[middle].price, price) { low = middle + 1 } else { high = middle }
    }
    if low < levels.count, levels[low].price == price {
      if remove { levels.remove(at: low) } else { levels[low].size = size }
      return
    }
    guard !remove, low < maximumLevels else { return }
    levels.insert(Level(price: price, size: size), at: low)
    if levels.count > maximumLevels { levels.removeLast() }
  }
}
