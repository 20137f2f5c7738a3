import Venues
import WebSocketClient
import WebSocketWire

/// Everything a feed decides, as a synchronous state machine: it is told what happened (a
/// connection opened, session events, a subscription command, the time) and answers with what to
/// do (`FeedAction`). No clock, no I/O, no tasks: `FeedShell` runs it; tests drive it with
/// explicit instants.
///
/// It owns the current subscription set and what the venue has been told on the open connection,
/// decodes messages through the provider, keeps only subscribed symbols, runs the price stage,
/// matches the venue's acknowledgements and errors to the requests that caused them, paces what
/// it sends to the venue's limit, sends the venue's keepalive, and notices subscribed symbols that
/// never quote.
public struct FeedMachine<Instant: InstantProtocol>: Sendable where Instant.Duration == Duration {
  public let provider: any Provider
  public private(set) var subscriptions: Subscriptions
  private var filter: SymbolFilter
  private var stage: PriceStage<Instant>
  private var ids: RequestIDs
  private var connection: Connection?
  /// Reused between batches.
  private var quotes: [Quote] = []
  /// Wall-clock time (milliseconds since the Unix epoch) the events being handled arrived; the
  /// shell sets it before each batch and the machine stamps it on the quotes as `received`.
  public var received: Int64 = 0
  /// First-quote deadlines (server spellings), for venues that have them.
  private var firstQuoteDue: [String: Instant] = [:]
  /// Symbols that quoted, or were warned about: never armed again.
  private var quoted: Set<String> = []
  /// A fatal venue error: the run ends with it, whatever the session says next.
  public private(set) var refusal: VenueError?
  /// The retry number of the last disconnect (for "gave up after N attempts").
  public private(set) var lastAttempt = 0
  /// Symbols the venue refused one by one (server spellings; Finnhub's `Invalid symbol`, the
  /// pairs Kraken refuses): when every followed symbol is among them, nothing can ever print and
  /// the run ends.
  private var refusedSymbols: Set<String> = []
  /// `--alert` and `--until`, judged on every quote received (server spellings).
  private var alerts: AlertBook
  /// Whether the run ends once every followed symbol was refused one by one.
  private let endsWhenEverySymbolRefused: Bool
  /// An `--until` condition held: nothing more is published (what the stage holds is flushed
  /// when the run ends).
  public private(set) var untilMet = false
  /// What the venue's decoding remembers of the open connection (`Provider.usesDecodingContext`,
  /// `backFillsOnSubscribe`); emptied when a connection opens.
  private var context = DecodingContext()
  /// Each symbol's newest trade time so far (server spelling), for venues that send history
  /// (`Provider.sendsHistory`): a history trade prints only when it is newer.
  private var newest: [String: Int64] = [:]
  /// The provider's answers to `usesDecodingContext || backFillsOnSubscribe` and `sendsHistory`,
  /// asked once (the per-message path would ask them for every message).
  private let decodesInContext: Bool
  private let keepsNewest: Bool
  /// Which venue of a group the quotes are from (`Quote.venue`); 0 for a feed alone.
  private let venue: UInt8
  /// Counters, the venue's last message, each symbol's last price and `--stale-after`.
  public private(set) var activity: FeedActivity<Instant>

  /// The subscription state of the open connection.
  private struct Connection: Sendable {
    /// What the venue has been told (canonical symbols).
    var wire: [String]
    /// Requests not yet answered, oldest first (venues that acknowledge).
    var pending: [Request] = []
    /// Messages waiting for the venue's rate limit.
    var outbox: [WebSocketMessage] = []
    /// When recent messages were sent (within the last second), for pacing.
    var sent: [Instant] = []
    var nextKeepalive: Instant?
  }

  private struct Request: Sendable {
    var id: Int?
    /// Symbols the request added (what to take back if the venue refuses it).
    var added: [String]
    /// The subscription of a fresh connection (refused: the run cannot go on).
    var initial: Bool
  }

  /// - Parameters:
  ///   - symbols: the starting subscription, canonical for `provider`.
  ///   - ticketPrefix: makes venue tickets unique (from injected randomness).
  ///   - alerts: `--alert` and `--until` rules, their symbols canonical for `provider`.
  public init(
    provider: any Provider, symbols: [String], mode: PriceStageMode = .default,
    ticketPrefix: String = "ticker", alerts: [AlertBook.Rule] = [], endsWhenEverySymbolRefused: Bool = true,
    venue: UInt8 = 0, activity: FeedActivity<Instant> = FeedActivity()
  ) {
    self.venue = venue
    self.activity = activity
    self.endsWhenEverySymbolRefused = endsWhenEverySymbolRefused
    self.provider = provider
    decodesInContext = provider.usesDecodingContext || provider.backFillsOnSubscribe
    keepsNewest = provider.sendsHistory
    self.alerts = AlertBook(
      rules: alerts.map { rule in
        var rule = rule
        rule.condition.symbol = provider.serverSymbol(for: rule.condition.symbol)
        return rule
      })
    subscriptions = Subscriptions(symbols)
    filter = SymbolFilter(symbols: subscriptions.symbols.map(provider.serverSymbol(for:)))
    stage = PriceStage(mode: mode)
    ids = RequestIDs(prefix: ticketPrefix)
  }

  /// Whether a connection is open.
  public var isConnected: Bool { connection != nil }

  // MARK: Connections

  /// A new connection is ready for its subscription: the messages that subscribe it to the
  /// current set (sent before any of its messages are read).
  public mutating func opened(at now: Instant) -> [WebSocketMessage] {
    var fresh = Connection(wire: [])
    let before = ids.last
    let messages = provider.subscriptionMessages(from: [], to: subscriptions.symbols, ids: &ids)
    track(messages, idsFrom: before, added: subscriptions.symbols, initial: true, on: &fresh)
    fresh.wire = subscriptions.symbols
    fresh.sent = Array(repeating: now, count: messages.count)
    fresh.nextKeepalive = provider.keepalive.map { now.advanced(by: $0.interval) }
    connection = fresh
    context = DecodingContext()
    if provider.backFillsOnSubscribe {
      context.historyDue = Set(subscriptions.symbols.map(provider.serverSymbol(for:)))
    }
    armFirstQuote(subscriptions.symbols, at: now)
    return messages
  }

  /// Session events, in order, from `events[start]` on, up to (not including) the first one the
  /// shell must handle itself: a `.post`, `.ended`, or a message of `LargeMessage.threshold` bytes
  /// or more (see `large(_:at:)`). Returns the actions and the index of that event, if any.
  public mutating func handle(_ events: [SessionEvent], from start: Int = 0, at now: Instant) -> (
    actions: [FeedAction], stoppedAt: Int?
  ) {
    var actions: [FeedAction] = []
    quotes.removeAll(keepingCapacity: true)
    var index = start
    while index < events.count {
      switch events[index] {
      case .message(let message):
        if message.byteCount >= LargeMessage.threshold {
          flushQuotes(at: now, into: &actions)
          return (actions, index)
        }
        activity.messages &+= 1
        activity.lastMessageWall = received
        decode(message, at: now, into: &actions)
      case .post, .ended:
        flushQuotes(at: now, into: &actions)
        return (actions, index)
      case .connected(let attempt):
        flushQuotes(at: now, into: &actions)
        activity.connected(at: now, wall: received, symbols: filter.table.symbols)
        actions.append(.report(.connected(attempt: attempt, symbols: subscriptions.symbols)))
      case .disconnected(let reason, let attempt, let retryIn):
        flushQuotes(at: now, into: &actions)
        connection = nil
        lastAttempt = attempt
        activity.disconnected(reason)
        actions.append(.report(.disconnected(reason: reason, attempt: attempt, retryIn: retryIn)))
      }
      index += 1
    }
    flushQuotes(at: now, into: &actions)
    return (actions, nil)
  }

  /// The session ended: the connection is gone.
  public mutating func ended() { connection = nil }

  /// The quotes of one chunk of a large message (see `LargeMessage`).
  public mutating func handleChunk(_ chunk: [Quote], at now: Instant) -> [FeedAction] {
    var actions: [FeedAction] = []
    quotes.removeAll(keepingCapacity: true)
    quotes.append(contentsOf: chunk)
    keepSubscribed(from: 0, filtered: false, at: now, into: &actions)
    flushQuotes(at: now, into: &actions)
    return actions
  }

  /// A message of `LargeMessage.threshold` bytes or more: its chunks to feed through
  /// `handleChunk`, or the actions for what else it was.
  public mutating func large(_ message: WebSocketMessage, at now: Instant) -> (
    chunks: (any QuoteChunks)?, actions: [FeedAction]
  ) {
    activity.messages &+= 1
    activity.lastMessageWall = received
    guard let large = provider.decodeLarge(message) else {
      var actions: [FeedAction] = []
      quotes.removeAll(keepingCapacity: true)
      decode(message, at: now, into: &actions)
      flushQuotes(at: now, into: &actions)
      return (nil, actions)
    }
    var actions: [FeedAction] = []
    switch large {
    case .event(let event):
      quotes.removeAll(keepingCapacity: true)
      interpret(event, into: &actions)
      flushQuotes(at: now, into: &actions)
      return (nil, actions)
    case .chunks(let chunks, let dropped, let count):
      if count > 0 { actions.append(.report(.partial(dropped: dropped, count: count))) }
      return (chunks, actions)
    }
  }

  // MARK: Commands

  /// A subscription change, from the control channel or the library API. Symbols are made
  /// canonical first; a symbol the venue cannot have changes nothing.
  public mutating func handle(_ command: SubscriptionCommand, at now: Instant) -> [FeedAction] {
    let canonical: SubscriptionCommand
    switch command.canonical(for: provider) {
    case .failure(let error): return [.report(.controlError(error))]
    case .success(let c): canonical = c
    }
    let change = subscriptions.apply(canonical)
    var actions: [FeedAction] = []
    apply(change, at: now, into: &actions)
    actions.append(
      .report(.subscriptionChanged(added: change.added, removed: change.removed, now: subscriptions.symbols)))
    endIfEverySymbolRefused(into: &actions)
    return actions
  }

  /// A line from the control channel.
  public mutating func handle(controlLine line: String, at now: Instant) -> [FeedAction] {
    switch ControlLine.parse(line) {
    case .failure(let error): return [.report(.controlError(error))]
    case .success(.nothing): return []
    case .success(.query): return [.report(.currentSet(subscriptions.symbols))]
    case .success(.command(let command)): return handle(command, at: now)
    }
  }

  private mutating func apply(
    _ change: Subscriptions.Change, at now: Instant, into actions: inout [FeedAction]
  ) {
    guard !change.isEmpty else { return }
    // Asked for again, or no longer followed: what the venue said of them no longer counts.
    for symbol in change.added + change.removed { refusedSymbols.remove(provider.serverSymbol(for: symbol)) }
    // What was due by now goes first (as if the timer had fired on time), then what removal
    // releases: the output does not depend on the timer's lateness.
    var released: [Quote] = change.removed.isEmpty ? [] : stage.tick(at: now)
    for symbol in change.removed {
      let server = provider.serverSymbol(for: symbol)
      filter.remove(server)
      firstQuoteDue[server] = nil
      // Its pending price is printed before its state goes.
      if let quote = stage.remove(server) { released.append(quote) }
    }
    if !released.isEmpty {
      activity.output(released.count)
      actions.append(.publish(released))
    }
    activity.unfollowed(change.removed.map(provider.serverSymbol(for:)))
    activity.followed(change.added.map(provider.serverSymbol(for:)), wall: received)
    for symbol in change.added {
      let server = provider.serverSymbol(for: symbol)
      filter.insert(server)
      if provider.backFillsOnSubscribe && connection != nil { context.historyDue.insert(server) }
    }
    armFirstQuote(change.added, at: now)
    guard var open = connection else { return }
    switch provider.subscriptionStyle {
    case .incremental:
      // Removals and additions as separate requests, so that a refusal takes back only what the
      // refused request added.
      let kept = open.wire.filter { !change.removed.contains($0) }
      request(from: open.wire, to: kept, added: [], on: &open)
      request(from: kept, to: subscriptions.symbols, added: change.added, on: &open)
    case .wholeList:
      request(from: open.wire, to: subscriptions.symbols, added: change.added, on: &open)
    }
    open.wire = subscriptions.symbols
    connection = open
    releaseOutbox(at: now, into: &actions)
  }

  // MARK: Time

  /// Due debounce deadlines, paced messages, keepalives and first-quote warnings.
  public mutating func tick(at now: Instant) -> [FeedAction] {
    var actions: [FeedAction] = []
    let due = stage.tick(at: now)
    if !due.isEmpty {
      activity.output(due.count)
      actions.append(.publish(due))
    }
    activity.check(at: now, wall: received, into: &actions)
    if var open = connection, let keepalive = provider.keepalive, let next = open.nextKeepalive, next <= now {
      open.outbox.append(keepalive.message)
      open.nextKeepalive = now.advanced(by: keepalive.interval)
      connection = open
    }
    releaseOutbox(at: now, into: &actions)
    if !firstQuoteDue.isEmpty, let deadline = provider.firstQuoteDeadline {
      for (symbol, at) in firstQuoteDue.sorted(by: { $0.key < $1.key }) where at <= now {
        firstQuoteDue[symbol] = nil
        quoted.insert(symbol)  // warned once: never again
        actions.append(.report(.noQuoteYet(symbol: symbol, after: deadline)))
      }
    }
    return actions
  }

  /// The earliest instant at which `tick(at:)` has something to do; nil when nothing is pending.
  public var nextDeadline: Instant? {
    var deadlines: [Instant] = []
    if let d = stage.nextDeadline { deadlines.append(d) }
    if let open = connection {
      if let next = open.nextKeepalive { deadlines.append(next) }
      if !open.outbox.isEmpty, let oldest = open.sent.first {
        deadlines.append(oldest.advanced(by: Self.pacingWindow))
      }
    }
    if let first = firstQuoteDue.values.min() { deadlines.append(first) }
    if let check = activity.deadline { deadlines.append(check) }
    return deadlines.min()
  }

  // MARK: Ending

  /// The messages that unsubscribe everything before closing (nothing when not connected).
  public mutating func unsubscribeAll() -> [WebSocketMessage] {
    guard let open = connection else { return [] }
    return provider.subscriptionMessages(from: open.wire, to: [], ids: &ids, context: context)
  }

  /// Everything still pending in the price stage, released now (nothing valid is lost).
  public mutating func flush() -> [Quote] { stage.flush() }

  /// The run ends at `now`: what was due by then, in deadline order (as the timer would have
  /// released it), then everything else still pending (`flush()`).
  public mutating func flush(at now: Instant) -> [Quote] {
    let due = stage.tick(at: now)
    return due + stage.flush()
  }

  // MARK: Reading messages

  private mutating func decode(_ message: WebSocketMessage, at now: Instant, into actions: inout [FeedAction])
  {
    if decodesInContext {
      decodeInContext(message, at: now, into: &actions)
      return
    }
    let start = quotes.count
    var allInTable = false
    // The event bound where it is returned: no optional event is kept to destroy afterwards
    // (nil, the usual answer, would still go through a generic destroy).
    var evented = false
    if let event = provider.decode(
      message, appendingQuotesTo: &quotes, symbols: filter.table, allInTable: &allInTable)
    {
      evented = true
      interpret(event, into: &actions)
    }
    // Quotes the decoder matched against the filter's own table need no second look-up.
    if quotes.count > start {
      keepSubscribed(from: start, filtered: allInTable && !evented, at: now, into: &actions)
    }
  }

  /// `decode` for a venue whose messages need what the connection said before: through
  /// `decode(_:context:)`, the first quotes of a back-filled symbol taken as history.
  private mutating func decodeInContext(
    _ message: WebSocketMessage, at now: Instant, into actions: inout [FeedAction]
  ) {
    var event = provider.decode(message, context: &context)
    if provider.backFillsOnSubscribe, !context.historyDue.isEmpty, case .quotes(let decoded) = event {
      let (past, live) = (
        decoded.filter { context.historyDue.contains($0.symbol) },
        decoded.filter { !context.historyDue.contains($0.symbol) }
      )
      for quote in past { context.historyDue.remove(quote.symbol) }
      event = .quotes(live)
      if !past.isEmpty { interpret(.history(past), into: &actions) }
    }
    let start = quotes.count
    interpret(event, into: &actions)
    if quotes.count > start { keepSubscribed(from: start, filtered: false, at: now, into: &actions) }
  }

  /// History the venue sent: each symbol's newest trade, when it is newer than any the symbol
  /// has had, joins the quotes; the rest is never printed.
  private mutating func history(_ past: [Quote]) {
    var latest: [String: Quote] = [:]
    for quote in past where quote.time >= (latest[quote.symbol]?.time ?? Int64.min) {
      latest[quote.symbol] = quote
    }
    for quote in latest.values.sorted(by: { $0.time < $1.time })
    where quote.time > (newest[quote.symbol] ?? Int64.min) {
      quotes.append(quote)
    }
  }

  private mutating func interpret(_ event: ProviderEvent, into actions: inout [FeedAction]) {
    switch event {
    case .quotes(let decoded):
      quotes.append(contentsOf: decoded)
    case .history(let past):
      history(past)
    case .partial(let decoded, let dropped):
      actions.append(.report(.partial(dropped: dropped, count: dropped.count)))
      quotes.append(contentsOf: decoded)
    case .keepalive:
      break
    case .acknowledged(let id):
      answered(id: id)
    case .error(let error):
      venueError(error, into: &actions)
    case .closingSoon(let why):
      actions.append(.report(.closingSoon(why)))
      actions.append(.reconnect(reason: why))
    case .ignored(let type):
      actions.append(.report(.ignored(type)))
    case .malformed(let why):
      actions.append(.report(.malformed(why)))
    }
  }

  /// Drops quotes of symbols not subscribed from `quotes[start...]` (reported), and notes the
  /// first quote of symbols waiting for one.
  private mutating func keepSubscribed(
    from start: Int, filtered: Bool, at now: Instant, into actions: inout [FeedAction]
  ) {
    if !filtered {
      let (removed, example) = filter.retain(&quotes, from: start)
      if removed > 0, let example {
        actions.append(.report(.notSubscribed(count: removed, example: example)))
      }
    }
    if !firstQuoteDue.isEmpty {
      for quote in quotes[start...] where firstQuoteDue[quote.symbol] != nil {
        firstQuoteDue[quote.symbol] = nil
        quoted.insert(quote.symbol)
      }
    }
    activity.pricesReceived &+= quotes.count - start
    if activity.tracksSymbols { activity.track(quotes, from: start, wall: received, into: &actions) }
  }

  private mutating func flushQuotes(at now: Instant, into actions: inout [FeedAction]) {
    guard !quotes.isEmpty else { return }
    guard !untilMet else {
      quotes.removeAll(keepingCapacity: true)
      return
    }
    if keepsNewest {
      for quote in quotes where quote.time > (newest[quote.symbol] ?? Int64.min) {
        newest[quote.symbol] = quote.time
      }
    }
    // A quote that knows when it was received (one read back from NATS: when the publisher
    // received it) keeps that.
    if venue != 0 {
      for index in quotes.indices { quotes[index].venue = venue }
    }
    // One without a trade time (a venue's message that carries none) is placed at its arrival.
    if received != 0 {
      for index in quotes.indices where quotes[index].received == 0 {
        quotes[index].received = received
        if quotes[index].time == 0 { quotes[index].time = received }
      }
    }
    var ending = false
    if !alerts.isEmpty {
      for firing in alerts.judge(quotes) {
        actions.append(.report(.alert(firing)))
        if firing.rule.ends && !ending {
          // The run ends with this quote: nothing received after it is printed.
          ending = true
          quotes.removeSubrange((firing.position + 1)...)
        }
      }
    }
    let out = stage.receive(taking: &quotes, at: now)
    if !out.isEmpty {
      activity.output(out.count)
      actions.append(.publish(out))
    }
    if ending {
      untilMet = true
      actions.append(.stop(.stopped(.untilMet), beforeClose: []))
    }
  }

  // MARK: Requests and answers

  /// Queues the messages that take the venue from `old` to `new`, remembering the request.
  private mutating func request(
    from old: [String], to new: [String], added: [String], on open: inout Connection
  ) {
    let before = ids.last
    let messages = provider.subscriptionMessages(from: old, to: new, ids: &ids, context: context)
    track(messages, idsFrom: before, added: added, initial: false, on: &open)
    open.outbox.append(contentsOf: messages)
  }

  /// Remembers `messages` as requests awaiting an answer (venues that answer each request). Each
  /// message is one request; for venues that answer by id, the ids handed out since `before` are
  /// theirs, one each, in order. Answers per symbol name their symbol instead.
  private func track(
    _ messages: [WebSocketMessage], idsFrom before: Int, added: [String], initial: Bool,
    on open: inout Connection
  ) {
    let answered = provider.acknowledgement == .byID || provider.acknowledgement == .inOrder
    guard answered, !messages.isEmpty else { return }
    let numbered = provider.acknowledgement == .byID && ids.last - before == messages.count
    for offset in messages.indices {
      open.pending.append(Request(id: numbered ? before + 1 + offset : nil, added: added, initial: initial))
    }
  }

  /// Removes and returns the request an answer is for.
  private mutating func takeRequest(id: Int?) -> Request? {
    guard var open = connection, !open.pending.isEmpty else { return nil }
    let index: Int?
    switch provider.acknowledgement {
    case .none, .perSymbol: index = nil
    case .inOrder: index = 0
    case .byID: index = id.flatMap { id in open.pending.firstIndex { $0.id == id } }
    }
    guard let index else { return nil }
    let request = open.pending.remove(at: index)
    connection = open
    return request
  }

  private mutating func answered(id: Int?) { _ = takeRequest(id: id) }

  private mutating func venueError(_ error: VenueError, into actions: inout [FeedAction]) {
    if provider.acknowledgement == .perSymbol, !error.fatal, let refused = error.symbol {
      refusedOne(refused, error, into: &actions)
      return
    }
    let request = takeRequest(id: error.requestID)
    if let request, !error.fatal, let named = error.symbol,
      request.added.contains(where: { provider.serverSymbol(for: $0) == named })
    {
      // The venue refused one symbol of the request by name (OKX's unknown instId): that one
      // alone is taken back, from the first subscription as from a change; the rest goes on.
      refusedOne(named, error, into: &actions)
      return
    }
    if let request, !request.initial, !request.added.isEmpty {
      // A change made while running was refused: take those symbols back; the rest goes on.
      takeBack(request.added, refusedBy: error, into: &actions)
      return
    }
    actions.append(.report(.venueError(error)))
    if error.fatal || request?.initial == true {
      refusal = error
      actions.append(.stop(.refused(error), beforeClose: []))
      return
    }
    if let symbol = error.symbol {
      refusedSymbols.insert(symbol)
      endIfEverySymbolRefused(into: &actions)
    }
  }

  /// The venue refused one symbol by name (Kraken answers symbol by symbol; OKX names the one of a
  /// request it refuses), whether the first subscription asked for it or a change: that symbol is
  /// taken back and the rest goes on.
  /// Once nothing is left, nothing can ever print, and the run ends.
  private mutating func refusedOne(_ refused: String, _ error: VenueError, into actions: inout [FeedAction]) {
    let symbols = subscriptions.symbols.filter { provider.serverSymbol(for: $0) == refused }
    guard !symbols.isEmpty else {
      // No longer followed (removed since it was asked for): nothing to take back.
      actions.append(.report(.venueError(error)))
      return
    }
    takeBack(symbols, refusedBy: error, into: &actions)
    refusedSymbols.insert(refused)
    guard endsWhenEverySymbolRefused, refusal == nil, subscriptions.symbols.isEmpty else { return }
    let all = VenueError(
      message: "every symbol was refused (\(refusedSymbols.sorted().joined(separator: ", ")))", fatal: true)
    refusal = all
    actions.append(.stop(.refused(all), beforeClose: []))
  }

  /// Takes `symbols` back after the venue refused them: no longer subscribed, filtered out, and
  /// their pending prices dropped.
  private mutating func takeBack(
    _ symbols: [String], refusedBy error: VenueError, into actions: inout [FeedAction]
  ) {
    let change = subscriptions.apply(.remove(symbols))
    if var open = connection {
      open.wire.removeAll { change.removed.contains($0) }
      connection = open
    }
    for symbol in change.removed {
      let server = provider.serverSymbol(for: symbol)
      filter.remove(server)
      firstQuoteDue[server] = nil
      _ = stage.remove(server)
      activity.unfollowed([server])
    }
    actions.append(.report(.changeRefused(error, symbols: change.removed)))
  }

  /// Every followed symbol was refused one by one: nothing can ever print, so the run ends.
  private mutating func endIfEverySymbolRefused(into actions: inout [FeedAction]) {
    guard endsWhenEverySymbolRefused, refusal == nil, !refusedSymbols.isEmpty else { return }
    let followed = subscriptions.symbols.map(provider.serverSymbol(for:))
    guard !followed.isEmpty, followed.allSatisfy(refusedSymbols.contains) else { return }
    let all = VenueError(
      message: "every symbol was refused (\(followed.joined(separator: ", ")))", fatal: true)
    refusal = all
    actions.append(.stop(.refused(all), beforeClose: []))
  }

  // MARK: Pacing and deadlines

  /// The span in which at most `messagesPerSecond − 1` messages are released: a second, plus a
  /// margin for the time between releasing a message and its arrival at the venue (a venue that
  /// counts arrivals in a sliding second sees two bursts a full second apart only if they travel
  /// alike; found against the strict Binance emulation).
  static var pacingWindow: Duration { .milliseconds(1500) }

  /// Sends what the venue's rate limit allows now: at most `messagesPerSecond − 1` in any
  /// `pacingWindow` (one is left for the engine's pongs and the unsubscribe before closing, which
  /// count on Binance).
  private mutating func releaseOutbox(at now: Instant, into actions: inout [FeedAction]) {
    guard var open = connection, !open.outbox.isEmpty else { return }
    open.sent.removeAll { $0.advanced(by: Self.pacingWindow) <= now }
    var budget = open.outbox.count
    if let limit = provider.limits.messagesPerSecond { budget = max(0, max(1, limit - 1) - open.sent.count) }
    let take = min(budget, open.outbox.count)
    if take > 0 {
      actions.append(.send(Array(open.outbox.prefix(take))))
      open.outbox.removeFirst(take)
      open.sent.append(contentsOf: repeatElement(now, count: take))
    }
    connection = open
  }

  private mutating func armFirstQuote(_ symbols: [String], at now: Instant) {
    guard let deadline = provider.firstQuoteDeadline else { return }
    for symbol in symbols {
      let server = provider.serverSymbol(for: symbol)
      if !quoted.contains(server) && firstQuoteDue[server] == nil {
        firstQuoteDue[server] = now.advanced(by: deadline)
      }
    }
  }
}

extension FeedMachine where Instant == ContinuousClock.Instant {
  /// `handle(_:from:at:)` compiled here for the real clock, for callers in other modules that
  /// name `FeedMachine<ContinuousClock.Instant>` (the hotpath benchmark): a generic type's
  /// methods called across a module boundary run unspecialized. (`@_specialize(exported:)`
  /// would do it, but Swift 6.3 then leaves this module's own specialized callers pointing at
  /// a symbol it does not emit.)
  public mutating func handleLive(_ events: [SessionEvent], at now: Instant) -> (
    actions: [FeedAction], stoppedAt: Int?
  ) {
    handle(events, from: 0, at: now)
  }
}
