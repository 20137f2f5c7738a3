import JSON
import WebSocketWire

/// Bitfinex's public WebSocket API v2, `wss://api-pub.bitfinex.com/ws/2`, its `trades` channel
/// (or, for the top of book, its `ticker` channel), no key (docs/protocols.md §11).
///
/// One `subscribe` per symbol, answered `subscribed` with the channel id that the channel's
/// messages carry instead of the symbol, or by an `error` echoing the symbol: the decoder maps
/// the channel ids of the connection (`DecodingContext`), and a refusal takes back its symbol
/// alone. The first message of a channel is a snapshot of its recent trades (history, never
/// printed as new trades); then each trade comes twice, `te` then `tu`, and is printed once,
/// from the `te`. A quiet channel gets a heartbeat every 15 s: the client owes nothing to keep
/// the connection. Prices and sizes are JSON numbers, kept as written.
public struct BitfinexProvider: Provider {
  public let parser: JSONParser
  /// Trades (the `trades` channel) or the best bid and ask (the `ticker` channel).
  public let stream: MarketStream

  public init(parser: JSONParser = JSONParser(), stream: MarketStream = .trades) {
    self.parser = parser
    self.stream = stream
  }

  /// The `ticker` channel: the best bid and ask with their sizes (and the day's figures, not
  /// read), on subscribing and as they change; no time, so each is timed on arrival.
  public var topOfBook: (any Provider)? { BitfinexProvider(parser: parser, stream: .topOfBook) }

  public var name: String { "bitfinex" }
  public var displayName: String { "Bitfinex" }

  public var defaultURL: WebSocketURL {
    WebSocketURL(isSecure: true, host: "api-pub.bitfinex.com", port: 443, target: "/ws/2")
  }

  public var exampleSymbol: String { "tBTCUSD" }
  /// `tBTCUSD` is BTC in US dollars, `tBTCUST` BTC in USDT (Bitfinex's `UST`).
  public func market(of symbol: String) -> Market? { BitfinexSymbol.market(of: symbol) }
  /// Against the US dollar, Bitfinex's deepest quote: `tBTCUSD`, `tDOGE:USD`.
  public func mainMarket(for asset: String) -> String? { BitfinexSymbol.mainMarket(for: asset) }

  /// Bitfinex allows 20 connections a minute to its public endpoint; what it answers past that
  /// is not documented, a 429 is what such a limit usually gives.
  public func handshakeAdvice(status: Int) -> String? {
    guard status == 429 else { return nil }
    return
      "Bitfinex allows 20 connections a minute to its public endpoint: wait a minute before connecting again"
  }

  // MARK: Symbols

  /// `t` and the pair in upper case (`btcusd` → `tBTCUSD`), as Bitfinex spells it everywhere.
  public func canonicalSymbol(_ symbol: String) -> Result<String, SymbolError> {
    BitfinexSymbol.canonical(symbol)
  }

  // MARK: Subscriptions

  public var subscriptionStyle: SubscriptionStyle { .incremental }
  /// Each subscription is answered on its own, an error echoing the symbol it refuses.
  public var acknowledgement: Acknowledgement { .perSymbol }

  /// One `subscribe` per symbol added. Nothing for a symbol removed: Bitfinex unsubscribes only by
  /// the channel id its answer assigned (`{"event":"unsubscribe","chanId":…}`), which this
  /// function, given no context, cannot know. The removed symbol's channel goes on until the
  /// connection ends; the runtime drops its trades (it is no longer followed), and asking for it
  /// again is answered "already subscribed", which names the channel: no reconnect either way.
  /// `subscriptionMessages(from:to:ids:context:)` unsubscribes properly where the runtime gives
  /// the connection's context.
  public func subscriptionMessages(from old: [String], to new: [String], ids: inout RequestIDs)
    -> [WebSocketMessage]
  {
    VenueJSON.missing(from: old, in: new).map { Self.subscribe($0, stream: stream) }
  }

  /// `subscriptionMessages(from:to:ids:)` knowing the connection's channels: one `unsubscribe`
  /// per channel of a symbol removed, first, then one `subscribe` per symbol added. A symbol
  /// whose answer has not come yet has no channel to name, and is left to the runtime's filter.
  public func subscriptionMessages(
    from old: [String], to new: [String], ids: inout RequestIDs, context: DecodingContext
  ) -> [WebSocketMessage] {
    let removed = Set(VenueJSON.missing(from: new, in: old).map(serverSymbol(for:)))
    let channels = context.channels.filter { removed.contains($0.value) }.keys
      .compactMap { Int64($0) }.sorted()
    return channels.map(Self.unsubscribe) + subscriptionMessages(from: old, to: new, ids: &ids)
  }

  /// `{"event":"subscribe","channel":"trades","symbol":"tBTCUSD"}` (`"channel":"ticker"` for the
  /// top of book).
  static func subscribe(_ symbol: String, stream: MarketStream = .trades) -> WebSocketMessage {
    let channel = stream == .trades ? "trades" : "ticker"
    var out: [UInt8] = Array(#"{"event":"subscribe","channel":"\#(channel)","symbol":"#.utf8)
    JSONEscaping.appendQuoted(symbol, to: &out)
    out.append(UInt8(ascii: "}"))
    return .text(String(decoding: out, as: UTF8.self))
  }

  /// `{"event":"unsubscribe","chanId":17470}`.
  static func unsubscribe(_ channel: Int64) -> WebSocketMessage {
    .text(#"{"event":"unsubscribe","chanId":\#(channel)}"#)
  }

  // MARK: Staying connected

  /// 25 channels per connection (Bitfinex's public channels page; its general page says 30, and
  /// more were observed accepted). Not enforced by the client: a symbol over the limit is refused
  /// by name (10305, `subscribe: limit`), and the others go on.
  public var limits: VenueLimits { VenueLimits(symbolsPerConnection: 25) }

  /// None: Bitfinex refuses a symbol it does not list, naming it.
  public var firstQuoteDeadline: Duration? { nil }

  // MARK: Reading

  /// Channel messages name only their channel id: decoding needs the connection's `subscribed`
  /// events.
  public var usesDecodingContext: Bool { true }
  /// The snapshot on subscribing is history.
  public var sendsHistory: Bool { true }

  /// A message read on a connection of its own, which has mapped no channel: events decode, a
  /// channel's trades are ignored (`decode(_:context:)` is what the runtime uses).
  public func decode(_ message: WebSocketMessage) -> ProviderEvent {
    var context = DecodingContext()
    return decode(message, context: &context)
  }

  /// Trades are ~60 bytes and come one per message, plus a snapshot per subscription: the model
  /// path is fast enough, and a context-bound decoder has no fast path in the runtime anyway.
  public func decode(_ message: WebSocketMessage, context: inout DecodingContext) -> ProviderEvent {
    switch VenueJSON.parse(message, with: parser) {
    case .success(let json): BitfinexMessage.event(json: json, context: &context)
    case .failure(let error): .malformed("invalid JSON: \(error)")
    }
  }
}
