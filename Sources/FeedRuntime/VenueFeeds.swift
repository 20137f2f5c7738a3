import Synchronization
import Venues

/// `ticker serve`'s upstreams: a `Feed` per venue, each opened when the first symbol of its venue
/// is asked for (or at start), each with its own connection and reconnects, and one bus carrying
/// all their quotes, stamped with their venue's index (`Quote.venue`).
///
/// Symbols name their venue (`coinbase/BTC-USD`, `ProviderCatalog.qualified`); an unqualified one
/// is the first venue's. The source keeps each venue's current set, so a venue opened late, or
/// again after its feed ended, starts with every symbol its clients still follow. The run ends
/// when it is stopped, or when every venue opened so far has ended (what `run()` returns is then
/// the last one's outcome; `lastEnded` says which venue that was).
public final class VenueFeeds: QuoteSource {
  /// Makes venue `index`'s feed (its reports bound to it), starting with `symbols`; nil when
  /// the venue cannot be opened (it said why).
  public typealias Opener = @Sendable (_ index: Int) async -> (@Sendable (_ symbols: [String]) -> Feed)?

  public let bus = QuoteBus()
  /// The venues that can be served, in the order quotes count them; the first is the default.
  public let venues: [any Provider]
  public var provider: any Provider { venues[0] }
  private let opener: Opener
  private let ended: @Sendable (_ index: Int, FeedOutcome) -> Void
  private let unavailable: @Sendable (_ index: Int) -> Void
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
  ///   - venues: the venues that may be served (at most 256); the first is the default.
  ///   - startWith: each venue's symbols from the start (canonical for it); a venue with an entry
  ///     here (even an empty one) is opened at start.
  ///   - ended: told, as it happens, how a venue's feed ended on its own (unless stopped).
  ///   - unavailable: told when a venue asked for could not be opened (its symbols were dropped).
  public init(
    venues: [any Provider], startWith: [Int: [String]], opener: @escaping Opener,
    ended: @escaping @Sendable (_ index: Int, FeedOutcome) -> Void,
    unavailable: @escaping @Sendable (_ index: Int) -> Void
  ) {
    precondition(!venues.isEmpty && venues.count <= Int(UInt8.max) + 1, "1 to 256 venues")
    self.venues = venues
    self.opener = opener
    self.ended = ended
    self.unavailable = unavailable
    var symbols = [[String]](repeating: [], count: venues.count)
    for (index, list) in startWith { symbols[index] = list }
    state = Mutex(State(slots: Array(repeating: .closed, count: venues.count), symbols: symbols))
    (starts, startsContinuation) = AsyncStream.makeStream(of: Int.self)
    for index in startWith.keys.sorted() { open(index) }
  }

  /// The venue whose end ended the run (when it was not stopped).
  public var lastEnded: Int? { state.withLock { $0.lastEnded } }

  public func subscribe(_ symbols: [String]) { change(symbols, adding: true) }
  public func unsubscribe(_ symbols: [String]) { change(symbols, adding: false) }

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

  /// A venue's feed ended: reported unless it was the last one running, which ends the run.
  private func finished(_ result: (index: Int, outcome: FeedOutcome)) {
    let last = state.withLock { state -> Bool in
      state.running -= 1
      state.slots[result.index] = .closed
      state.lastEnded = result.index
      state.lastOutcome = result.outcome
      return state.running == 0 && state.stopReason == nil
    }
    if last {
      startsContinuation.finish()
    } else if case .stopped = result.outcome {
      // Stopped with the others: the run's outcome says so.
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
      let feed = make(state.symbols[index])
      state.slots[index] = .open(feed)
      return (feed, state.stopReason)
    }
    let feed = made.0
    if let reason = made.1 { feed.stop(reason) }
    let relay = feed.bus.subscribe()
    let venue = UInt8(index)
    async let relayed: Void = {
      // The venue's bus ends after its feed's last quote.
      while let batches = try? await relay.queue.nextBatch() {
        for batch in batches {
          var stamped = batch
          for i in stamped.indices { stamped[i].venue = venue }
          await bus.publish(stamped)
        }
      }
    }()
    let outcome = await feed.run()
    await relayed
    return (index, outcome)
  }

  /// Adds or removes symbols, each to its venue; a venue not open yet is opened.
  private func change(_ symbols: [String], adding: Bool) {
    var shares = [[String]](repeating: [], count: venues.count)
    for symbol in symbols {
      let (named, bare) = ProviderCatalog.qualified(symbol)
      if let named, let index = venues.firstIndex(where: { $0.name == named.name }) {
        shares[index].append(bare)
      } else {
        shares[0].append(symbol)
      }
    }
    for (index, share) in shares.enumerated() where !share.isEmpty {
      // The current set is canonical (a feed starts with it); an open feed is given the symbols
      // as typed, and reports those its venue's rules refuse.
      let canonical = share.compactMap { symbol -> String? in
        guard case .success(let canonical) = venues[index].canonicalSymbol(symbol) else { return nil }
        return canonical
      }
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
      } else if adding {
        open(index)
      }
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
