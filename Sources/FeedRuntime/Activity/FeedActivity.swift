import Venues
import WebSocketClient

/// What a feed has done, for the people who watch a long run (`--metrics`, `/healthz`, the
/// watchdog) and for `--stale-after`: counters, when the venue last said anything, each followed
/// symbol's last price, and which symbols went quiet while their venue kept sending. Part of
/// `FeedMachine`, so it is kept under the same lock as the rest of the feed and costs a few adds
/// a message; the per-symbol record is kept only when asked for (`tracksSymbols`).
public struct FeedActivity<Instant: InstantProtocol>: Sendable where Instant.Duration == Duration {
  /// `--stale-after`, or nil.
  public let staleAfter: Duration?
  /// Whether each symbol's last price is kept (metrics or `--stale-after`).
  public let tracksSymbols: Bool
  public internal(set) var messages = 0
  public internal(set) var pricesReceived = 0
  public private(set) var pricesOutput = 0
  /// When the last message came, by the wall clock (milliseconds since the epoch; 0: none yet):
  /// an integer store a message, where the generic instant would cost a value witness call.
  public internal(set) var lastMessageWall: Int64 = 0
  /// The last stale check at which the venue had sent something since the one before (or its
  /// connection opened): whether it is "sending" is judged from these checks.
  private var lastHeard: Instant?
  private var messagesAtCheck = 0
  public private(set) var connected = false
  public private(set) var everConnected = false
  /// Disconnects, by `DisconnectReason.label`.
  public private(set) var reconnects: [String: Int] = [:]
  /// Since when each followed symbol (server spelling) has been owed a price: its last price, or
  /// when it was followed or its connection opened, whichever is later.
  private var owed: [String: Instant] = [:]
  private var lastPrice: [String: Instant] = [:]
  /// Symbols reported stale and not yet recovered, with when their silence began.
  public private(set) var stale: [String: Instant] = [:]
  private var nextCheck: Instant?

  public init(staleAfter: Duration? = nil, tracksSymbols: Bool = false) {
    self.staleAfter = staleAfter
    self.tracksSymbols = tracksSymbols || staleAfter != nil
  }

  /// The next instant the stale check must run.
  public var deadline: Instant? { nextCheck }

  mutating func output(_ count: Int) { pricesOutput &+= count }

  mutating func connected(at now: Instant, wall: Int64, symbols: [String]) {
    connected = true
    everConnected = true
    lastMessageWall = wall
    lastHeard = now
    messagesAtCheck = messages
    guard tracksSymbols else { return }
    for symbol in symbols { owed[symbol] = max(owed[symbol] ?? now, now) }
    armCheck(at: now)
  }

  mutating func disconnected(_ reason: DisconnectReason) {
    connected = false
    reconnects[reason.label, default: 0] += 1
  }

  mutating func followed(_ symbols: [String], at now: Instant) {
    guard tracksSymbols else { return }
    for symbol in symbols where owed[symbol] == nil { owed[symbol] = now }
  }

  mutating func unfollowed(_ symbols: [String]) {
    guard tracksSymbols else { return }
    for symbol in symbols {
      owed[symbol] = nil
      lastPrice[symbol] = nil
      stale[symbol] = nil
    }
  }

  /// Subscribed quotes (`quotes[start...]`) arrived at `now`, each symbol's price is noted, and
  /// the symbols that were stale and are not now reported.
  mutating func track(_ quotes: [Quote], from start: Int, at now: Instant, into actions: inout [FeedAction]) {
    var previous: String?
    for quote in quotes[start...] where quote.symbol != previous {
      previous = quote.symbol
      lastPrice[quote.symbol] = now
      owed[quote.symbol] = now
      if !stale.isEmpty, let since = stale.removeValue(forKey: quote.symbol) {
        actions.append(.report(.recovered(symbol: quote.symbol, after: since.duration(to: now))))
      }
    }
  }

  /// Reports the symbols that have been owed a price for `staleAfter` while the venue is connected
  /// and sending, once each.
  mutating func check(at now: Instant, into actions: inout [FeedAction]) {
    guard let staleAfter, let due = nextCheck, due <= now else { return }
    nextCheck = now.advanced(by: Self.checkInterval(staleAfter))
    guard connected else { return }
    if messages != messagesAtCheck {
      messagesAtCheck = messages
      lastHeard = now
    }
    guard let lastHeard, lastHeard.duration(to: now) < staleAfter else { return }
    for (symbol, since) in owed.sorted(by: { $0.key < $1.key })
    where stale[symbol] == nil && since.duration(to: now) >= staleAfter {
      stale[symbol] = since
      actions.append(.report(.stale(symbol: symbol, after: since.duration(to: now))))
    }
  }

  private mutating func armCheck(at now: Instant) {
    guard let staleAfter, nextCheck == nil else { return }
    nextCheck = now.advanced(by: Self.checkInterval(staleAfter))
  }

  /// A quarter of the limit, between 50 ms and a second: a stale symbol is reported at most that
  /// late, and the check (a pass over the followed symbols) runs at most four times a limit.
  static func checkInterval(_ staleAfter: Duration) -> Duration {
    min(max(staleAfter / 4, .milliseconds(50)), .seconds(1))
  }

  /// The figures as of `now` (`wall`: the wall clock's milliseconds then).
  public func statistics(at now: Instant, wall: Int64, subscribed: Int) -> FeedStatistics {
    let symbols = owed.keys.sorted().map { symbol in
      FeedStatistics.Symbol(
        symbol: symbol, sinceLastPrice: lastPrice[symbol].map { $0.duration(to: now) },
        stale: stale[symbol] != nil)
    }
    return FeedStatistics(
      connected: connected, everConnected: everConnected,
      sinceLastMessage: lastMessageWall == 0 ? nil : .milliseconds(max(0, wall - lastMessageWall)),
      messages: messages,
      pricesReceived: pricesReceived, pricesOutput: pricesOutput, reconnects: reconnects,
      subscribed: subscribed, symbols: symbols, staleAfter: staleAfter)
  }
}

extension DisconnectReason {
  /// A short, fixed name for the kind of disconnect (a metric's label: a bounded set).
  public var label: String {
    switch self {
    case .failed: "error"
    case .peerClosed: "closed"
    case .pongTimeout: "pong_timeout"
    case .silence: "silence"
    case .requested: "requested"
    }
  }
}
