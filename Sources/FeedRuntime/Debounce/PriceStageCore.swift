import Venues

/// `PriceStage`'s state and work on concrete types: instants are offsets (`Duration`) from the
/// stage's first instant. Generic code across a module boundary runs unspecialized, paying a
/// metadata lookup and out-of-line value-witness copies for every use of a generic type. Only
/// `PriceStage`'s thin wrapper is generic over the caller's clock.
struct PriceStageCore: Sendable {
  let mode: PriceStageMode
  /// Each symbol's index into `states` (the order symbols were first seen).
  private var symbols = SymbolTable()
  private var states: [SymbolState] = []
  /// The earliest pending deadline and its symbol's index (debounced mode), kept exact after
  /// every change, so that `tick` and `nextDeadline` do not scan every symbol's state for each
  /// batch (with 1,000 symbols that scan was most of the ticker's time).
  private(set) var earliest: (deadline: Duration, index: Int)?

  init(mode: PriceStageMode) {
    self.mode = mode
  }

  private mutating func stateIndex(for symbol: String) -> Int {
    if let index = symbols.index(of: symbol) { return index }
    symbols.insert(symbol)
    states.append(SymbolState())
    return states.count - 1
  }

  /// Takes in one batch of quotes (one server message) and returns what to print now.
  mutating func receive(_ quotes: [Quote], at now: Duration) -> [Quote] {
    switch mode {
    case .everyTrade:
      return quotes
    case .distinct:
      var out: [Quote] = []
      for quote in Self.sortedWithinSymbols(quotes) {
        let index = stateIndex(for: quote.symbol)
        if states[index].offer(quote) { out.append(quote) }
      }
      return out
    case .debounced:
      var taken = quotes
      return receive(taking: &taken, at: now)
    }
  }

  /// `receive(_:at:)` for quotes the caller gives up: `quotes` is empty afterwards, its capacity
  /// kept. Debounced, each quote moves into its symbol's state: iterated, each was copied, then
  /// the copy held and the original destroyed with the batch (a retain and a release of every
  /// text per quote).
  mutating func receive(taking quotes: inout [Quote], at now: Duration) -> [Quote] {
    guard case .debounced(let interval, let maxWait) = mode else {
      let out = receive(quotes, at: now)
      quotes.removeAll(keepingCapacity: true)
      return out
    }
    // What was due by `now` goes first, before the new quotes can replace or extend it: so the
    // output depends only on when quotes arrived, never on whether the caller's timer fired on
    // time or late (a replay, ticking exactly at each deadline, prints what the live run did).
    var out = tick(at: now)
    var rescan = false
    // In order, each moved out of the array (reversed: moving elements copies no text). Reversed
    // through a buffer pointer, whose swaps move elements; `Array.reverse()` copies one quote
    // and destroys one per element.
    quotes.withUnsafeMutableBufferPointer { $0.reverse() }
    while let quote = quotes.popLast() {
      let index = stateIndex(for: quote.symbol)
      let held = states[index].hold(ifFresh: consume quote, at: now, interval: interval, maxWait: maxWait)
      guard let deadline = held, !rescan else { continue }
      if let current = earliest, current.index == index {
        rescan = deadline != current.deadline  // the earliest moved (later): find the new one
      } else if earliest.map({ deadline < $0.deadline }) ?? true {
        earliest = (deadline, index)
      }
    }
    if rescan { findEarliest() }
    out += tick(at: now)
    return out
  }

  /// Returns the pending quotes whose deadline is at or before `now`, earliest deadline first.
  mutating func tick(at now: Duration) -> [Quote] {
    guard case .debounced(let interval, let maxWait) = mode else { return [] }
    guard let first = earliest, first.deadline <= now else { return [] }
    defer { findEarliest() }
    var due: [(deadline: Duration, index: Int)] = []
    for index in states.indices {
      if let deadline = states[index].deadline(interval: interval, maxWait: maxWait), deadline <= now {
        due.append((deadline, index))
      }
    }
    if due.count > 1 {
      due.sort { $0.deadline < $1.deadline || ($0.deadline == $1.deadline && $0.index < $1.index) }
    }
    var out: [Quote] = []
    for entry in due {
      if let quote = states[entry.index].release() { out.append(quote) }
    }
    return out
  }

  /// The earliest instant at which `tick(at:)` will have something to release; nil when nothing
  /// is pending.
  var nextDeadline: Duration? { earliest?.deadline }

  private func deadline(of index: Int) -> Duration? {
    guard case .debounced(let interval, let maxWait) = mode else { return nil }
    return states[index].deadline(interval: interval, maxWait: maxWait)
  }

  /// Sets `earliest` from every state: after a release, or when the earliest one moved.
  private mutating func findEarliest() {
    earliest = nil
    guard case .debounced(let interval, let maxWait) = mode else { return }
    for index in states.indices {
      guard let deadline = states[index].deadline(interval: interval, maxWait: maxWait) else { continue }
      if earliest.map({ deadline < $0.deadline }) ?? true { earliest = (deadline, index) }
    }
  }

  /// Releases every pending quote now (at shutdown), deduped, in first-seen symbol order.
  mutating func flush() -> [Quote] {
    var out: [Quote] = []
    for index in states.indices {
      if let quote = states[index].release() { out.append(quote) }
    }
    earliest = nil
    return out
  }

  /// Forgets `symbol` (it is no longer subscribed): returns its pending quote if dedupe lets it
  /// through (nothing valid is lost), and drops its state, so a later subscription starts afresh.
  mutating func remove(_ symbol: String) -> Quote? {
    guard let index = symbols.index(of: symbol) else { return nil }
    let quote = states[index].release()
    states.remove(at: index)
    symbols.remove(symbol)
    findEarliest()
    return quote
  }

  /// The last price printed for `symbol`, if any.
  func lastPrinted(for symbol: String) -> Price? {
    symbols.index(of: symbol).flatMap { states[$0].lastPrinted }
  }

  /// Sorts each symbol's quotes by trade time (stable), leaving every symbol's slots in place.
  static func sortedWithinSymbols(_ quotes: [Quote]) -> [Quote] {
    guard quotes.count > 1 else { return quotes }
    var slots: [String: [Int]] = [:]
    var needsSort = false
    var lastTime: [String: Int64] = [:]
    for (i, quote) in quotes.enumerated() {
      slots[quote.symbol, default: []].append(i)
      if let previous = lastTime[quote.symbol], quote.time < previous { needsSort = true }
      lastTime[quote.symbol] = quote.time
    }
    guard needsSort else { return quotes }
    var result = quotes
    for (_, positions) in slots where positions.count > 1 {
      // Sorting (time, original position) pairs keeps equal times in arrival order.
      let ordered = positions.sorted { (quotes[$0].time, $0) < (quotes[$1].time, $1) }
      for (slot, source) in zip(positions, ordered) { result[slot] = quotes[source] }
    }
    return result
  }
}
