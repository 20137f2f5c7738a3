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
  /// Per followed symbol (server spelling), by the wall clock (milliseconds since the epoch, the
  /// stamp the shell gives each batch): since when it has been owed a price (when it was followed,
  /// or its connection opened), and its last price.
  private var owedSince: [String: Int64] = [:]
  private var lastPrice: [String: Int64] = [:]
  /// The symbol last noted and when: another price of it within `resolution` is not noted again
  /// (a firehose of one symbol costs a comparison a price, not a table update).
  private var recent: (symbol: String, wall: Int64)?
  /// Symbols reported stale and not yet recovered, with when their silence began.
  public private(set) var stale: [String: Int64] = [:]
  private var nextCheck: Instant?

  /// How finely a symbol's last price is kept, in milliseconds.
  static var resolution: Int64 { 100 }

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
    // Not a message: a new connection to a server that sends nothing stays silent (/healthz and
    // the watchdog judge the last message, whichever connection brought it).
    lastHeard = now
    messagesAtCheck = messages
    guard tracksSymbols else { return }
    for symbol in symbols { owedSince[symbol] = max(owedSince[symbol] ?? wall, wall) }
    armCheck(at: now)
  }

  mutating func disconnected(_ reason: DisconnectReason) {
    connected = false
    reconnects[reason.label, default: 0] += 1
  }

  mutating func followed(_ symbols: [String], wall: Int64) {
    guard tracksSymbols else { return }
    for symbol in symbols where owedSince[symbol] == nil { owedSince[symbol] = wall }
  }

  mutating func unfollowed(_ symbols: [String]) {
    guard tracksSymbols else { return }
    for symbol in symbols {
      owedSince[symbol] = nil
      lastPrice[symbol] = nil
      stale[symbol] = nil
      if recent?.symbol == symbol { recent = nil }
    }
  }

  /// Subscribed quotes (`quotes[start...]`) arrived at `wall`: each symbol's price is noted, and
  /// the symbols that were stale and are not now reported.
  mutating func track(_ quotes: [Quote], from start: Int, wall: Int64, into actions: inout [FeedAction]) {
    for quote in quotes[start...] {
      if stale.isEmpty, let recent, wall &- recent.wall < Self.resolution, recent.symbol == quote.symbol {
        continue
      }
      recent = (quote.symbol, wall)
      lastPrice[quote.symbol] = wall
      if !stale.isEmpty, let since = stale.removeValue(forKey: quote.symbol) {
        actions.append(.report(.recovered(symbol: quote.symbol, after: .milliseconds(max(0, wall - since)))))
      }
    }
  }

  /// Reports the symbols that have been owed a price for `staleAfter` while the venue is connected
  /// and sending, once each.
  mutating func check(at now: Instant, wall: Int64, into actions: inout [FeedAction]) {
    guard let staleAfter, let due = nextCheck, due <= now else { return }
    nextCheck = now.advanced(by: Self.checkInterval(staleAfter))
    guard connected else { return }
    if messages != messagesAtCheck {
      messagesAtCheck = messages
      lastHeard = now
    }
    guard let lastHeard, lastHeard.duration(to: now) < staleAfter else { return }
    let limit = Self.milliseconds(staleAfter)
    for (symbol, owed) in owedSince.sorted(by: { $0.key < $1.key }) where stale[symbol] == nil {
      let since = max(owed, lastPrice[symbol] ?? owed)
      guard wall - since >= limit else { continue }
      stale[symbol] = since
      actions.append(.report(.stale(symbol: symbol, after: .milliseconds(wall - since))))
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

  static func milliseconds(_ duration: Duration) -> Int64 {
    let (seconds, attoseconds) = duration.components
    return seconds * 1000 + attoseconds / 1_000_000_000_000_000
  }

  /// The figures as of `now` (`wall`: the wall clock's milliseconds then).
  public func statistics(at now: Instant, wall: Int64, subscribed: Int) -> FeedStatistics {
    let symbols = owedSince.keys.sorted().map { symbol in
      FeedStatistics.Symbol(
        symbol: symbol, sinceLastPrice: lastPrice[symbol].map { .milliseconds(max(0, wall - $0)) },
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
