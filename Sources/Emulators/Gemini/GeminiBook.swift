import JSON
import Venues

/// One symbol's order book as the Gemini emulation keeps it: the levels of its recorded first
/// book, changed by the `l2_updates` that go by, for the first book of a later subscription.
/// Prices and quantities keep their text.
struct GeminiBook: Sendable, Equatable {
  struct Level: Sendable, Equatable {
    var price: String
    var quantity: String
  }

  /// Best first: bids from the highest price down, asks from the lowest up.
  private(set) var bids: [Level] = []
  private(set) var asks: [Level] = []

  init() {}

  /// The book of a `changes` array (`[["buy","97412.58","0.0413"],…]`); entries that are not a
  /// side, a price and a quantity are left out.
  init(changes: JSONValue?) {
    apply(changes)
  }

  /// Applies a `changes` array: each entry sets the quantity at its price, `0` removing it.
  mutating func apply(_ changes: JSONValue?) {
    for change in changes?.arrayValue ?? [] {
      guard let entry = change.arrayValue, entry.count == 3, let side = entry[0].stringValue,
        let price = entry[1].stringValue, let quantity = entry[2].stringValue
      else { continue }
      switch side {
      case "buy": Self.set(&bids, price: price, quantity: quantity, descending: true)
      case "sell": Self.set(&asks, price: price, quantity: quantity, descending: false)
      default: continue
      }
    }
  }

  private static func set(_ levels: inout [Level], price: String, quantity: String, descending: Bool) {
    guard let at = Price(price), let size = Price(quantity) else { return }
    if let index = levels.firstIndex(where: { Price($0.price) == at }) {
      if size.value == 0 { levels.remove(at: index) } else { levels[index].quantity = quantity }
      return
    }
    guard size.value != 0 else { return }
    let index =
      levels.firstIndex { level in
        guard let other = Price(level.price) else { return false }
        return descending ? other < at : other > at
      } ?? levels.endIndex
    levels.insert(Level(price: price, quantity: quantity), at: index)
  }

  /// Moves the top to `bid` and `ask` (prices and quantities as written), as the trades of a
  /// walk would: the levels that would cross them go (a bid above `bid`, an ask below `ask`), and
  /// the two are set. Returns the changes that did it, as an `l2_updates` carries them; bids
  /// first, each side's removals before its new top.
  mutating func moveTop(bid: Level, ask: Level) -> JSONValue {
    guard let bidPrice = Price(bid.price), let askPrice = Price(ask.price) else { return .array([]) }
    var changes: [JSONValue] = []
    func change(_ side: String, _ price: String, _ quantity: String) {
      changes.append(.array([.string(side), .string(price), .string(quantity)]))
    }
    for level in bids where Price(level.price).map({ $0 > bidPrice }) ?? true {
      change("buy", level.price, "0")
    }
    if bids.first(where: { Price($0.price) == bidPrice })?.quantity != bid.quantity {
      change("buy", bid.price, bid.quantity)
    }
    for level in asks where Price(level.price).map({ $0 < askPrice }) ?? true {
      change("sell", level.price, "0")
    }
    if asks.first(where: { Price($0.price) == askPrice })?.quantity != ask.quantity {
      change("sell", ask.price, ask.quantity)
    }
    apply(.array(changes))
    return .array(changes)
  }

  /// The book as a first `l2_updates` carries it: the bids, then the asks.
  var changes: JSONValue {
    .array(
      bids.map { .array([.string("buy"), .string($0.price), .string($0.quantity)]) }
        + asks.map { .array([.string("sell"), .string($0.price), .string($0.quantity)]) })
  }
}
