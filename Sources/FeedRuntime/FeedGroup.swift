import Synchronization
import Venues

/// The venues of a run, one `Feed` each — its own connection, limits, keepalive and reconnects —
/// publishing on one bus, each quote stamped with its venue's index (`Quote.venue`). One venue or
/// several, a ticker run or `ticker serve`, it is the same thing: `opening` says whether a venue
/// not opened at start opens when a symbol of it is first asked for (serve's clients), or such a
/// symbol is refused (a run follows the venues it was given).
///
/// Symbols name their venue (`binance/BTCUSDT`, `ProviderCatalog.qualified`); an unqualified one
/// is the default venue's. The group keeps each venue's current set, so a venue opened late, or again
/// after its feed ended, starts with every symbol still followed. A venue that ends on its own
/// (refused, failed, out of retries, closed by its server) is told to `ended` and the others go
/// on; the run ends when it is stopped — by the caller, or by one venue's `--until`, which stops
/// them all — or when every venue opened has ended: `run()` then returns the last one's outcome
/// (`lastEnded` says which), which `ended` is not told.
public final class FeedGroup: QuoteSource, ControlTarget {
  /// Makes venue `index`'s feed on the group's `bus` (its quotes stamped with `venue`), starting
  /// with `symbols`; nil when the venue cannot be opened (it said why).
  public typealias Opener =
    @Sendable (_ index: Int) async -> (
      @Sendable (_ symbols: [String], _ bus: QuoteBus, _ venue: UInt8) -> Feed
    )?

  /// When a venue of `venues` not given at start opens.
  public enum Opening: Sendable {
    /// Never: a symbol of it changes nothing and is reported (a ticker run).
    case atStartOnly
    /// When a symbol of it is first asked for (`ticker serve`).
    case whenAsked
  }

  public let bus = QuoteBus()
  /// The venues, in the order quotes count them; the first is the default.
  public let venues: [any Provider]
  public var provider: any Provider { venues[0] }
  private let opening: Opening
  /// The venue (provider name) of a symbol that names none.
  private let defaultVenue: String
  private let opener: Opener
  private let ended: @Sendable (_ index: Int, FeedOutcome) -> Void
  private let unavailable: @Sendable (_ index: Int) -> Void
  private let report: @Sendable (FeedReport) -> Void
  private let state: Mutex<State>
  /// Venue indices to open, for `run()`'s task group.
  private let starts: AsyncStream<Int>
  private let startsContinuation: AsyncStream<Int>.Continuation

  private enum Slot {
    case closed
    case opening
    case open(Feed)
  }

  private struct State {
    var slots: [Slot]
    /// Each venue's symbols (canonical for it), in the order they joined.
    var symbols: [[String]]
    var stopReason: StopReason?
    /// Venues whose feeds run now or are being opened.
    var running = 0
    var lastEnded: Int?
    var lastOutcome: FeedOutcome?
  }

  /// - Parameters:
  ///   - venues: the venues that may be followed (at most 256), in the order quotes count them.
  ///   - defaultVenue: the venue (provider name) of a symbol that names none; the first venue's
  ///     by default. A run need not follow it (`--asset` over other venues): such a symbol is
  ///     then reported.
  ///   - startWith: each venue's symbols from the start (canonical for it); a venue with an entry
  ///     here (even an empty one) is opened at start.
  ///   - ended: told, as it happens, how a venue's feed ended on its own (unless stopped), but the
  ///     last one's, which `run()` returns.
  ///   - unavailable: told when a venue asked for could not be opened (its symbols were dropped).
  ///   - report: told of control lines that change nothing (a venue's own reports go to the
  ///     closure its `Feed` was made with).
  public init(
    venues: [any Provider], defaultVenue: String? = nil, startWith: [Int: [String]], opening: Opening,
    opener: @escaping Opener,
    ended: @escaping @Sendable (_ index: Int, FeedOutcome) -> Void,
    unavailable: @escaping @Sendable (_ index: Int) -> Void = { _ in },
    report: @escaping @Sendable (FeedReport) -> Void = { _ in }
  ) {
    precondition(!venues.isEmpty && venues.count <= Int(UInt8.max) + 1, "1 to 256 venues")
    self.venues = venues
    self.defaultVenue = defaultVenue ?? venues[0].name
    self.opening = opening
    self.opener = opener
    self.ended = ended
    self.unavailable = unavailable
    self.report = report
    var symbols = [[String]](repeating: [], count: venues.count)
    for (index, list) in startWith { symbols[index] = list }
    state = Mutex(State(slots: Array(repeating: .closed, count: venues.count), symbols: symbols))
    (starts, startsContinuation) = AsyncStream.makeStream(of: Int.self)
    for index in startWith.keys.sorted() { open(index) }
  }

  /// The venue whose end ended the run (when it was not stopped).
  public var lastEnded: Int? { state.withLock { $0.lastEnded } }

  /// The feeds open now, by venue index.
  public var openFeeds: [Int: Feed] {
    state.withLock { state in
      var feeds: [Int: Feed] = [:]
      for (index, slot) in state.slots.enumerated() { if case .open(let feed) = slot { feeds[index] = feed } }
      return feeds
    }
  }

  /// Adds symbols, each to its venue's feed.
  public func subscribe(_ symbols: [String]) { route(.add(symbols)) }
  /// Removes symbols from their venues' feeds.
  public func unsubscribe(_ symbols: [String]) { route(.remove(symbols)) }

  /// Stops every venue (the first request wins); venues still opening stop once open.
  public func stop(_ reason: StopReason) {
    let feeds = state.withLock { state -> [Feed] in
      guard state.stopReason == nil else { return [] }
      state.stopReason = reason
      return state.slots.compactMap { if case .open(let feed) = $0 { feed } else { nil } }
    }
    for feed in feeds { feed.stop(reason) }
    startsContinuation.finish()
  }

  public func run() async -> FeedOutcome {
    await withDiscardingTaskGroup { group in
      // Until stopped or every venue opened has ended; with nothing opened at start, the run
      // waits for a first request.
      for await index in starts {
        group.addTask {
          guard let result = await self.runVenue(index) else { return }
          self.finished(result)
        }
      }
    }
    bus.finish()
    return state.withLock { state in
      if let reason = state.stopReason { return .stopped(reason) }
      return state.lastOutcome ?? .serverClosed(nil)
    }
  }

  public func control(_ line: String) {
    let parsed = ControlLine.parse(line)
    // A run of one venue gives its feed the line as typed when it names no venue, so that the
    // feed reports and records it as it always did (a recording keeps the line, not its effect).
    if venues.count == 1, venues[0].name == defaultVenue, !Self.namesVenue(parsed),
      let feed = openFeeds[0]
    {
      feed.control(line)
      return
    }
    switch parsed {
    case .success(.nothing): break
    case .success(.query):
      for feed in openFeeds.sorted(by: { $0.key < $1.key }).map(\.value) { feed.control("?") }
    case .success(.command(let command)): route(command)
    case .failure(let error): report(.controlError(error))
    }
  }

  public func reportControlError(_ error: ControlLineError) { report(.controlError(error)) }

  private static func namesVenue(_ parsed: Result<ControlLine, ControlLineError>) -> Bool {
    guard case .success(.command(let command)) = parsed else { return false }
    switch command {
    case .add(let symbols), .remove(let symbols), .replace(let symbols):
      return symbols.contains { ProviderCatalog.qualified($0).0 != nil }
    }
  }

  /// A venue's feed ended: told to `ended` unless it ends the run; a venue stopped on its own (its
  /// `--until` held) stops the others.
  private func finished(_ result: (index: Int, outcome: FeedOutcome)) {
    let last = state.withLock { state -> Bool in
      state.running -= 1
      state.slots[result.index] = .closed
      state.lastEnded = result.index
      state.lastOutcome = result.outcome
      return state.running == 0 && state.stopReason == nil
    }
    if case .stopped(let reason) = result.outcome {
      // A venue stops only when asked to, or when its --until held: that ends them all.
      stop(reason)
    } else if last {
      startsContinuation.finish()
    } else {
      ended(result.index, result.outcome)
    }
  }

  /// Opens venue `index`'s feed and runs it until it ends; nil when it could not be opened.
  private func runVenue(_ index: Int) async -> (index: Int, outcome: FeedOutcome)? {
    guard let make = await opener(index) else {
      state.withLock { state in
        state.running -= 1
        state.slots[index] = .closed
        state.symbols[index] = []
      }
      unavailable(index)
      return nil
    }
    let made = state.withLock { state -> (Feed, StopReason?) in
      let feed = make(state.symbols[index], bus, UInt8(index))
      state.slots[index] = .open(feed)
      return (feed, state.stopReason)
    }
    if let reason = made.1 { made.0.stop(reason) }
    return (index, await made.0.run())
  }

  /// Hands each venue its share of `command`, keeping each venue's current set. A replacement
  /// replaces every venue's set (a venue none of whose symbols is named follows nothing). A
  /// symbol of a venue not in the run changes nothing anywhere and is reported, unless venues
  /// open when asked: then a venue not open yet is opened.
  private func route(_ command: SubscriptionCommand) {
    let symbols: [String]
    switch command {
    case .add(let list), .remove(let list), .replace(let list): symbols = list
    }
    var shares = [[String]](repeating: [], count: venues.count)
    var refused = false
    for symbol in symbols {
      let (named, bare) = ProviderCatalog.qualified(symbol)
      let name = named?.name ?? defaultVenue
      guard let index = venues.firstIndex(where: { $0.name == name }) else {
        let followed = venues.map(\.name).joined(separator: ", ")
        report(
          .controlError(.invalidSymbol(symbol, "this run does not follow \(name) (it follows \(followed))")))
        refused = true
        continue
      }
      shares[index].append(named == nil ? symbol : bare)
    }
    // Every refused symbol is named, and the command changes nothing: half a replacement would
    // leave a set nobody asked for.
    if refused { return }
    for (index, share) in shares.enumerated() {
      switch command {
      case .add: if !share.isEmpty { change(share, of: index, adding: true) }
      case .remove: if !share.isEmpty { change(share, of: index, adding: false) }
      case .replace: replace(index, with: share)
      }
    }
  }

  /// Adds or removes symbols of venue `index`; a venue not open yet is opened (when venues open
  /// when asked). The current set is canonical (a feed starts with it); an open feed is given the
  /// symbols as typed, and reports those its venue's rules refuse.
  private func change(_ share: [String], of index: Int, adding: Bool) {
    let canonical = share.compactMap { try? venues[index].canonicalSymbol($0).get() }
    let feed = state.withLock { state -> Feed? in
      for symbol in canonical {
        if adding {
          if !state.symbols[index].contains(symbol) { state.symbols[index].append(symbol) }
        } else {
          state.symbols[index].removeAll { $0 == symbol }
        }
      }
      if case .open(let feed) = state.slots[index] { return feed }
      return nil
    }
    if let feed {
      if adding { feed.subscribe(share) } else { feed.unsubscribe(share) }
    } else if adding, opening == .whenAsked {
      open(index)
    }
  }

  /// Makes venue `index`'s set exactly `share` (where it is open; else its set for when it opens).
  private func replace(_ index: Int, with share: [String]) {
    let canonical = share.compactMap { try? venues[index].canonicalSymbol($0).get() }
    let feed = state.withLock { state -> Feed? in
      state.symbols[index] = canonical
      if case .open(let feed) = state.slots[index] { return feed }
      return nil
    }
    if let feed {
      feed.replace(with: share)
    } else if !share.isEmpty, opening == .whenAsked {
      open(index)
    }
  }

  /// Starts opening venue `index` unless it is open or opening (or the run stopped).
  private func open(_ index: Int) {
    let start = state.withLock { state -> Bool in
      guard state.stopReason == nil, case .closed = state.slots[index] else { return false }
      state.slots[index] = .opening
      state.running += 1
      return true
    }
    if start { startsContinuation.yield(index) }
  }
}
