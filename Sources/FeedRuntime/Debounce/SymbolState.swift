import Venues

/// What the price stage remembers about one symbol. Instants are offsets from the stage's first
/// instant (see `PriceStageCore`).
struct SymbolState: Sendable {
  /// The last price printed (for dedupe); of a top-of-book quote, the bid.
  var lastPrinted: Price?
  /// The last ask printed, of a top-of-book quote: dedupe compares both sides.
  var lastAsk: Price?
  /// The newest trade time accepted (printed, or suppressed as equal to the printed price);
  /// anything older is stale.
  var newestTime: Int64?
  /// The trade time of the quote waiting for its debounce deadline (`held`); nil when none is.
  private var pendingTime: Int64?
  /// The quote waiting, while `pendingTime` is set; otherwise `placeholder`. Not an optional:
  /// replacing the quote in a `Quote?` goes through the runtime's generic optional and tuple
  /// copies and destroys.
  private var held = Self.placeholder
  var firstPendingAt: Duration?
  var lastArrivalAt: Duration?

  func isStale(_ quote: Quote) -> Bool {
    if let newestTime { return quote.time < newestTime }
    return false
  }

  /// Dedupe: records `quote` as the latest accepted and says whether it should be printed.
  mutating func offer(_ quote: Quote) -> Bool {
    guard !isStale(quote) else { return false }
    newestTime = quote.time
    let ask = quote.ask?.price
    if lastPrinted == quote.price && lastAsk == ask { return false }
    lastPrinted = quote.price
    lastAsk = ask
    return true
  }

  /// Debounce, in one access to the state: unless `quote` is stale, `hold` it and return the
  /// deadline then; nil (nothing changed) when it is stale. Through an array element this
  /// changes the state in place, where `isStale`, `hold` and `deadline` one after another would
  /// copy the whole state, pending quote and all.
  mutating func hold(
    ifFresh quote: consuming Quote, at now: Duration, interval: Duration, maxWait: Duration
  ) -> Duration? {
    guard !isStale(quote) else { return nil }
    hold(consume quote, at: now)
    return deadline(interval: interval, maxWait: maxWait)
  }

  /// Debounce: `quote` becomes the pending one unless it is older (by trade time) than it.
  @inline(__always) mutating func hold(_ quote: consuming Quote, at now: Duration) {
    lastArrivalAt = now
    if let currentTime = pendingTime {
      guard quote.time >= currentTime else { return }
    } else {
      firstPendingAt = now
    }
    pendingTime = quote.time
    // One move into place: two assignments of `quote` made the optimiser copy it first.
    held = consume quote
  }

  func deadline(interval: Duration, maxWait: Duration) -> Duration? {
    guard pendingTime != nil, let last = lastArrivalAt, let first = firstPendingAt else { return nil }
    return min(last + interval, first + maxWait)
  }

  /// Takes the pending quote out, returning it when dedupe lets it through.
  mutating func release() -> Quote? {
    guard pendingTime != nil else { return nil }
    var quote = Self.placeholder
    swap(&quote, &held)
    pendingTime = nil
    firstPendingAt = nil
    lastArrivalAt = nil
    return offer(quote) ? quote : nil
  }

  /// What `held` is while no quote waits (its texts are small strings: nothing to release).
  private static let placeholder = Quote(symbol: "", price: Price("0")!, time: 0)
}
