import Venues

/// The per-symbol debounce-and-dedupe stage, as a synchronous state machine: no clock, no
/// sleeping. The caller passes the current instant in, prints what comes back, and calls
/// `tick(at:)` when `nextDeadline` is reached.
///
/// Per symbol (symbols never affect each other):
/// - `.everyTrade`: every quote is returned as received.
/// - `.distinct`: within one batch a symbol's quotes are put in trade-time order (stable; other
///   symbols keep their positions); then each quote is printed when its price differs from the
///   last printed one. A quote older by trade time than the newest accepted one (printed, or
///   suppressed as a repeat of the printed price) is stale and dropped.
/// - `.debounced(interval, maxWait)`: each quote replaces the pending one unless it is older by
///   trade time (so the latest trade wins, whatever the arrival order). The pending quote is
///   released when `interval` has passed since the symbol's last quote, or `maxWait` since its
///   first pending quote, whichever comes first; then it is deduped and stale-checked as above.
///   A quote is released at its deadline whenever the caller gets there (a `tick` or a later
///   `receive`): what prints depends only on the instants quotes arrived at.
public struct PriceStage<Instant: InstantProtocol>: Sendable where Instant.Duration == Swift.Duration {
  private var core: PriceStageCore
  /// The first instant the stage was given: the zero of the core's offsets.
  private var origin: Instant?

  public init(mode: PriceStageMode = .default) {
    core = PriceStageCore(mode: mode)
  }

  public var mode: PriceStageMode { core.mode }

  private mutating func offset(of now: Instant) -> Duration {
    guard let origin else {
      origin = now
      return .zero
    }
    return origin.duration(to: now)
  }

  /// Takes in one batch of quotes (one server message) and returns what to print now.
  public mutating func receive(_ quotes: [Quote], at now: Instant) -> [Quote] {
    if case .everyTrade = core.mode { return quotes }
    return core.receive(quotes, at: offset(of: now))
  }

  /// `receive(_:at:)` for quotes the caller gives up: `quotes` is empty afterwards, its capacity
  /// kept (the debounced stage moves each quote into its state instead of copying it).
  public mutating func receive(taking quotes: inout [Quote], at now: Instant) -> [Quote] {
    if case .everyTrade = core.mode {
      let out = quotes
      quotes.removeAll(keepingCapacity: true)
      return out
    }
    return core.receive(taking: &quotes, at: offset(of: now))
  }

  /// Returns the pending quotes whose deadline is at or before `now`, earliest deadline first.
  public mutating func tick(at now: Instant) -> [Quote] {
    guard core.earliest != nil else { return [] }
    return core.tick(at: offset(of: now))
  }

  /// The earliest instant at which `tick(at:)` will have something to release; nil when nothing
  /// is pending.
  public var nextDeadline: Instant? {
    guard let deadline = core.nextDeadline, let origin else { return nil }
    return origin.advanced(by: deadline)
  }

  /// Releases every pending quote now (at shutdown), deduped, in first-seen symbol order.
  public mutating func flush() -> [Quote] { core.flush() }

  /// Forgets `symbol` (it is no longer subscribed): returns its pending quote if dedupe lets it
  /// through (nothing valid is lost), and drops its state, so a later subscription starts afresh.
  public mutating func remove(_ symbol: String) -> Quote? { core.remove(symbol) }

  /// The last price printed for `symbol`, if any.
  public func lastPrinted(for symbol: String) -> Price? { core.lastPrinted(for: symbol) }
}
