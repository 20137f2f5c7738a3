import WebSocketWire

/// A price feed reached over one WebSocket — one venue's protocol facts, as pure values and
/// functions (no I/O, no state): where to connect and how, how symbols are spelt, how a
/// subscription is made and changed, what the venue needs from the client to stay connected,
/// what its limits are, and how to read what comes back. The runtime (`FeedCore`) does the rest
/// the same way for every venue.
public protocol Provider: Sendable {
  /// Short lower-case name used in configuration (`"finnhub"`).
  var name: String { get }
  /// The venue's name for people (`"Finnhub"`).
  var displayName: String { get }
  /// The endpoint used when no `--url` is given.
  var defaultURL: WebSocketURL { get }
  /// The environment variable that holds this venue's API key; nil when it needs none.
  var tokenVariable: String? { get }
  /// Whether connecting without a token is pointless (the server refuses it).
  var requiresToken: Bool { get }
  /// The URL to connect to: `base` with the token applied the way this venue wants it.
  func endpoint(base: WebSocketURL, token: String?) -> WebSocketURL
  /// Header fields for the upgrade request besides `User-Agent` (which the caller adds).
  /// `Origin` is never sent by the engine (Upbit rate-limits requests that carry one).
  var handshakeHeaders: [HTTPHead.Field] { get }
  /// Words for the user about an HTTP status at the handshake that this venue gives a special
  /// meaning (Binance's 451: refused for the region), or nil.
  func handshakeAdvice(status: Int) -> String?

  // MARK: Symbols

  /// The symbol as this venue's subscription wants it (`btcusdt` → `BTCUSDT` on Binance,
  /// `krw-btc` → `KRW-BTC` on Upbit), or why `symbol` cannot be one of this venue's symbols.
  func canonicalSymbol(_ symbol: String) -> Result<String, SymbolError>
  /// How quotes for the canonical `symbol` name it: only quotes for subscribed symbols, in
  /// this spelling, are printed.
  func serverSymbol(for symbol: String) -> String
  /// One example symbol for messages and help (`BINANCE:BTCUSDT`, `KRW-BTC`).
  var exampleSymbol: String { get }
  /// What the canonical `symbol` trades, and in which currency (Binance's run-together `BTCUSDT`
  /// is BTC in USDT; Upbit's `KRW-BTC` BTC in KRW); nil when its notation does not say (a
  /// Finnhub stock).
  func market(of symbol: String) -> Market?
  /// The venue's main market for `asset` (`BTC` → `BTCUSDT` on Binance, `KRW-BTC` on Upbit), as
  /// a canonical symbol; nil when the venue has none.
  func mainMarket(for asset: String) -> String?
  /// The venue's market that converts `currency` to USDT (Upbit's `KRW-USDT` for KRW), as a
  /// canonical symbol: followed beside a market quoted in `currency` so that a board can compare
  /// it with USDT markets elsewhere (the KRW premium). nil where the venue has none that matters.
  func conversionPair(for currency: String) -> String?

  // MARK: Top of book

  /// What this provider's subscriptions follow: trades, or the best bid and ask.
  var stream: MarketStream { get }
  /// The same venue following each symbol's best bid and ask instead of its trades
  /// (`--bid-ask`): its subscriptions on the channel the venue made for that, and its decoding of
  /// that channel (quotes with `ask` set). nil when the venue has no such stream (Finnhub).
  var topOfBook: (any Provider)? { get }

  // MARK: Subscriptions

  /// How this venue changes a subscription: a message per symbol, or the whole list again.
  var subscriptionStyle: SubscriptionStyle { get }
  /// How this venue answers subscription requests: not at all (Finnhub, Upbit), by request id
  /// (Binance `{"result":null,"id":n}`), one answer per request in order (Coinbase
  /// `subscriptions`), or one per symbol (Kraken). The runtime matches answers and errors to the
  /// requests (or the symbols) that caused them.
  var acknowledgement: Acknowledgement { get }
  /// The messages that take a connection's subscription from `old` to `new` (canonical symbols,
  /// in the user's order; `old` is empty on a fresh connection, `new` is empty to unsubscribe
  /// everything before closing). Empty when nothing needs saying. Request ids for venues that
  /// acknowledge by id (Binance), and unique tickets (Upbit), come from `ids`.
  func subscriptionMessages(from old: [String], to new: [String], ids: inout RequestIDs)
    -> [WebSocketMessage]
  /// `subscriptionMessages(from:to:ids:)` knowing what the open connection's decoding remembers
  /// (Bitfinex unsubscribes by the channel id its answer assigned). The context-free one by default.
  func subscriptionMessages(
    from old: [String], to new: [String], ids: inout RequestIDs, context: DecodingContext
  ) -> [WebSocketMessage]

  // MARK: Staying connected

  /// What the venue needs from the client to keep the connection (Upbit: a text `PING` every
  /// 25 s); nil when the WebSocket pings of the session are enough, or nothing is needed.
  var keepalive: KeepaliveDuty? { get }
  /// The venue's limits that the client must respect.
  var limits: VenueLimits { get }
  /// Upbit accepts codes it does not know without a word: a subscribed symbol that gave no quote
  /// within this long is worth one warning. nil when the venue says so itself.
  var firstQuoteDeadline: Duration? { get }
  /// The same venue with every duty and deadline of the client (its keepalive interval, its
  /// first-quote deadline) multiplied by `factor`: tests run against emulations whose rules are
  /// scaled alike, so that no test waits on a venue's real timers. The venue itself by default
  /// (nothing to scale).
  func scaled(by factor: Double) -> any Provider

  // MARK: Reading

  /// Interprets one server message. Never traps, whatever the input.
  func decode(_ message: WebSocketMessage) -> ProviderEvent
  /// The hot path: appends the quotes of a plain price message to `quotes` and returns nil;
  /// returns the event for anything else (partial, keepalive, error, …) and leaves `quotes` as
  /// it was. The default implementation goes through `decode(_:)`.
  func decode(_ message: WebSocketMessage, appendingQuotesTo quotes: inout [Quote]) -> ProviderEvent?
  /// The hot path given the subscribed symbols (as the server spells them): the same result as
  /// `decode(_:appendingQuotesTo:)`, but a quote for a subscribed symbol may take its symbol
  /// string from `symbols` instead of a new one. The default ignores `symbols`.
  func decode(
    _ message: WebSocketMessage, appendingQuotesTo quotes: inout [Quote], symbols: SymbolTable
  ) -> ProviderEvent?
  /// `decode(_:appendingQuotesTo:symbols:)`, also setting `allInTable` to whether every quote it
  /// appended is for a symbol of `symbols` (true only when it knows: the caller may then skip
  /// filtering them again). The default sets false.
  func decode(
    _ message: WebSocketMessage, appendingQuotesTo quotes: inout [Quote], symbols: SymbolTable,
    allInTable: inout Bool
  ) -> ProviderEvent?
  /// Whether decoding needs what the connection said before (`DecodingContext`: Bitfinex's
  /// channel ids, Hyperliquid's back-fill): then the runtime decodes through
  /// `decode(_:context:)` and skips the fast path. False by default.
  var usesDecodingContext: Bool { get }
  /// `decode(_:)` for a venue whose messages mean something only with what came before on the
  /// connection: it may read and update `context`. `decode(_:)` by default.
  func decode(_ message: WebSocketMessage, context: inout DecodingContext) -> ProviderEvent
  /// Whether the venue, on each subscription, first sends recent trades that look like live ones
  /// (Hyperliquid's back-fill): the runtime then takes the first quotes of each newly subscribed
  /// symbol on a connection as history (`ProviderEvent.history`). False by default.
  var backFillsOnSubscribe: Bool { get }
  /// Whether the venue sends trades of the past (`ProviderEvent.history`, or a back-fill): the
  /// runtime then remembers each symbol's newest trade time, so that history never prints a
  /// price older than one already printed. Implied by `backFillsOnSubscribe`; false by default.
  var sendsHistory: Bool { get }
  /// A message of at least `LargeMessage.threshold` bytes, decoded a chunk at a time; nil when
  /// this provider has no such path (then `decode` is used). The default is nil.
  func decodeLarge(_ message: WebSocketMessage) -> LargeMessage?
  /// The specialised decoder alone: its answer where it has one, nil where it declines (then
  /// `decodeThroughModel` answers). nil by default (a venue with one decoder).
  func fastDecode(_ message: WebSocketMessage) -> ProviderEvent?
  /// The reference decoder, through the venue's message models: what `decode` must agree with
  /// wherever the fast path answers (tests and the fuzz harness check it). `decode` by default.
  func decodeThroughModel(_ message: WebSocketMessage) -> ProviderEvent
}

extension Provider {
  public var tokenVariable: String? { nil }
  public var requiresToken: Bool { false }
  public func endpoint(base: WebSocketURL, token: String?) -> WebSocketURL { base }
  public var handshakeHeaders: [HTTPHead.Field] { [] }
  public func handshakeAdvice(status: Int) -> String? { nil }
  public func serverSymbol(for symbol: String) -> String { symbol }
  public var keepalive: KeepaliveDuty? { nil }
  public var limits: VenueLimits { VenueLimits() }
  public var firstQuoteDeadline: Duration? { nil }
  public func scaled(by factor: Double) -> any Provider { self }
  public var acknowledgement: Acknowledgement { .none }
  public func conversionPair(for currency: String) -> String? { nil }
  public var stream: MarketStream { .trades }
  public var topOfBook: (any Provider)? { nil }

  public func decodeLarge(_ message: WebSocketMessage) -> LargeMessage? { nil }
  public func fastDecode(_ message: WebSocketMessage) -> ProviderEvent? { nil }
  public var usesDecodingContext: Bool { false }
  public func subscriptionMessages(
    from old: [String], to new: [String], ids: inout RequestIDs, context: DecodingContext
  ) -> [WebSocketMessage] {
    subscriptionMessages(from: old, to: new, ids: &ids)
  }
  public var backFillsOnSubscribe: Bool { false }
  public var sendsHistory: Bool { backFillsOnSubscribe }
  public func decode(_ message: WebSocketMessage, context: inout DecodingContext) -> ProviderEvent {
    decode(message)
  }
  public func decodeThroughModel(_ message: WebSocketMessage) -> ProviderEvent { decode(message) }

  public func decode(
    _ message: WebSocketMessage, appendingQuotesTo quotes: inout [Quote], symbols: SymbolTable
  ) -> ProviderEvent? {
    decode(message, appendingQuotesTo: &quotes)
  }

  public func decode(
    _ message: WebSocketMessage, appendingQuotesTo quotes: inout [Quote], symbols: SymbolTable,
    allInTable: inout Bool
  ) -> ProviderEvent? {
    allInTable = false
    return decode(message, appendingQuotesTo: &quotes, symbols: symbols)
  }

  public func decode(_ message: WebSocketMessage, appendingQuotesTo quotes: inout [Quote]) -> ProviderEvent? {
    let event = decode(message)
    if case .quotes(let decoded) = event {
      quotes.append(contentsOf: decoded)
      return nil
    }
    return event
  }
}

/// How a venue changes a subscription.
public enum SubscriptionStyle: Sendable, Equatable {
  /// A message per change (Finnhub: one per symbol; Binance and Coinbase: one listing the
  /// symbols added, one listing those removed).
  case incremental
  /// A new request replaces the whole previous one (Upbit): every change re-sends the full list.
  case wholeList
}

/// How a venue answers subscription requests.
public enum Acknowledgement: Sendable, Equatable {
  /// It does not (success shows as quotes arriving).
  case none
  /// Each answer names the request's id (`ProviderEvent.acknowledged(id:)`, `VenueError.requestID`).
  case byID
  /// One answer per request, in the order the requests were sent.
  case inOrder
  /// One answer per symbol of each request (Kraken): a refusal names the symbol it refuses
  /// (`VenueError.symbol`), and only that symbol is taken back.
  case perSymbol
}

/// What a venue needs the client to send to keep a connection.
public struct KeepaliveDuty: Sendable, Equatable {
  /// The message to send.
  public var message: WebSocketMessage
  /// How often.
  public var interval: Duration

  public init(message: WebSocketMessage, interval: Duration) {
    self.message = message
    self.interval = interval
  }
}

/// Limits a venue enforces on a connection.
public struct VenueLimits: Sendable, Equatable {
  /// Client messages allowed per second (Binance: 5, pongs included; over that it closes with
  /// 1008). nil: no limit worth pacing for.
  public var messagesPerSecond: Int?
  /// Symbols one connection may carry (Binance: 1024 streams); nil: no known limit.
  public var symbolsPerConnection: Int?
  /// Subscription requests one connection may send in any hour (OKX: 480 subscribe, unsubscribe
  /// and login requests); nil: no known limit. Known, not paced: see the venue's notes.
  public var requestsPerHour: Int?
  /// New connections one address may open in any second (OKX: 3); nil: no known limit. Known,
  /// not enforced by the client: the reconnect backoff (0.25 s, then 0.5 s, 1 s, … apart, with
  /// the default `--max-backoff`) opens at most three in any second.
  public var connectionsPerSecond: Int?

  public init(
    messagesPerSecond: Int? = nil, symbolsPerConnection: Int? = nil, requestsPerHour: Int? = nil,
    connectionsPerSecond: Int? = nil
  ) {
    self.messagesPerSecond = messagesPerSecond
    self.symbolsPerConnection = symbolsPerConnection
    self.requestsPerHour = requestsPerHour
    self.connectionsPerSecond = connectionsPerSecond
  }
}

/// Ids for requests a venue acknowledges (Binance's `id`), and tickets that must be unique per
/// request (Upbit). Owned by the runtime, one per feed; `prefix` comes from injected randomness
/// so tests pin exact messages.
public struct RequestIDs: Sendable, Equatable {
  /// Makes tickets unique across runs (e.g. `"ticker-3f9a"`).
  public var prefix: String
  public private(set) var last = 0

  public init(prefix: String) { self.prefix = prefix }

  /// The next id: 1, 2, 3, …
  public mutating func next() -> Int {
    last += 1
    return last
  }
}

/// Why a symbol cannot be one of a venue's.
public struct SymbolError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What is wrong, in the venue's terms (`"a Binance symbol is letters and digits, such as BTCUSDT"`).
  public var message: String

  public init(_ message: String) { self.message = message }

  public var description: String { message }
}
