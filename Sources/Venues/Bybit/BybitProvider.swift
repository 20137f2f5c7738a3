import JSON
import WebSocketWire

/// Bybit's v5 public spot feed, `wss://stream.bybit.com/v5/public/spot`, its `publicTrade`
/// topics (or, for the top of book, its `orderbook.1` ones), no key (docs/protocols.md §9).
///
/// Requests are `{"req_id":"1","op":"subscribe","args":["publicTrade.BTCUSDT"]}`, answered once
/// each, echoing `req_id`: `"success":true`, or `"success":false` with the reason in `ret_msg`
/// (`Invalid symbol :[publicTrade.NOPEUSDT]` names the symbol refused). Each trade message
/// carries one or more trades of one symbol, all printed. Bybit cuts a connection that has seen
/// no ping-pong and no data for 10 minutes: the client keeps it with `{"op":"ping"}`.
public struct BybitProvider: Provider {
  public let parser: JSONParser
  /// What the venue's timings below are multiplied by (1; tests shorten them: `scaled(by:)`).
  public let timeScale: Double
  /// Trades (`publicTrade.<symbol>`) or the best bid and ask (`orderbook.1.<symbol>`).
  public let stream: MarketStream

  public init(parser: JSONParser = JSONParser(), timeScale: Double = 1, stream: MarketStream = .trades) {
    self.parser = parser
    self.timeScale = timeScale
    self.stream = stream
  }

  public func scaled(by factor: Double) -> any Provider {
    BybitProvider(parser: parser, timeScale: timeScale * factor, stream: stream)
  }

  /// `orderbook.1.<symbol>`: the level-1 book, a snapshot then deltas, kept per symbol in the
  /// connection's `DecodingContext` (spot's `tickers` carry no bid and ask).
  public var topOfBook: (any Provider)? {
    BybitProvider(parser: parser, timeScale: timeScale, stream: .topOfBook)
  }

  public var name: String { "bybit" }
  public var displayName: String { "Bybit" }

  public var defaultURL: WebSocketURL {
    WebSocketURL(isSecure: true, host: "stream.bybit.com", port: 443, target: "/v5/public/spot")
  }

  public var exampleSymbol: String { "BTCUSDT" }
  /// Run together, the quote currency last: `BTCUSDT` is BTC in USDT.
  public func market(of symbol: String) -> Market? { Market.splittingRunTogether(symbol) }
  /// Against USDT, Bybit's deepest quote currency.
  public func mainMarket(for asset: String) -> String? { asset.uppercased() + "USDT" }

  /// Bybit answers 403 at the handshake to addresses in places it does not serve (observed for
  /// United States addresses).
  public func handshakeAdvice(status: Int) -> String? {
    guard status == 403 else { return nil }
    return "Bybit refuses connections from some locations, the United States among them (HTTP 403 "
      + "Forbidden); retrying will not help"
  }

  // MARK: Symbols

  /// Letters and digits, either case (`btcusdt`, `BTCUSDT`) → upper case, as Bybit spells them
  /// (its topics are case sensitive).
  public func canonicalSymbol(_ symbol: String) -> Result<String, SymbolError> {
    if let upper = VenueJSON.upperCaseSymbol(symbol, parts: 1) { return .success(upper) }
    let shown = symbol.isEmpty ? "an empty symbol" : JSONEscaping.quoted(symbol)
    return .failure(
      SymbolError("\(shown) is not a Bybit spot symbol: a symbol is letters and digits, such as BTCUSDT"))
  }

  // MARK: Subscriptions

  public var subscriptionStyle: SubscriptionStyle { .incremental }
  /// Bybit echoes a request's `req_id` in its answer, success or refusal.
  public var acknowledgement: Acknowledgement { .byID }

  /// One `unsubscribe` per symbol removed, then one `subscribe` per symbol added, each with the
  /// next id from `ids`; nothing when the sets agree. Spot takes up to 10 topics a request;
  /// whether a topic it refuses takes the others of its request down with it is not known, so
  /// each request carries one topic and each answer says what became of exactly one symbol.
  public func subscriptionMessages(from old: [String], to new: [String], ids: inout RequestIDs)
    -> [WebSocketMessage]
  {
    let removed = VenueJSON.missing(from: new, in: old)
    let added = VenueJSON.missing(from: old, in: new)
    return removed.map { Self.request("unsubscribe", symbol: $0, stream: stream, id: ids.next()) }
      + added.map { Self.request("subscribe", symbol: $0, stream: stream, id: ids.next()) }
  }

  /// `{"req_id":"1","op":"subscribe","args":["publicTrade.BTCUSDT"]}`; of the top of book,
  /// `…"args":["orderbook.1.BTCUSDT"]}`.
  static func request(_ op: String, symbol: String, stream: MarketStream = .trades, id: Int)
    -> WebSocketMessage
  {
    var out: [UInt8] = Array(#"{"req_id":"\#(id)","op":"#.utf8)
    JSONEscaping.appendQuoted(op, to: &out)
    out += Array(#","args":["#.utf8)
    JSONEscaping.appendQuoted(
      (stream == .trades ? BybitMessage.tradeTopic : BybitOrderBook.topic) + symbol, to: &out)
    out += Array("]}".utf8)
    return .text(String(decoding: out, as: UTF8.self))
  }

  // MARK: Staying connected

  /// `{"req_id":"ping","op":"ping"}` every 20 s, as Bybit recommends: it cuts a connection that
  /// has seen no ping-pong and no data for 10 minutes, and a quiet symbol sends nothing. The
  /// `req_id` is no number, so the pong is never taken for a subscription's answer.
  public var keepalive: KeepaliveDuty? {
    KeepaliveDuty(message: .text(#"{"req_id":"ping","op":"ping"}"#), interval: .seconds(20 * timeScale))
  }

  /// None worth pacing for. Bybit documents for public connections: at most 10 topics a spot
  /// request (each request here carries one), at most 21,000 characters of topics a connection
  /// (about 900 symbols), and at most 500 new connections in 5 minutes per address (the
  /// reconnect backoff opens far fewer). No message rate is documented.
  public var limits: VenueLimits { VenueLimits() }

  /// None: Bybit refuses a symbol it does not list, naming it.
  public var firstQuoteDeadline: Duration? { nil }

  // MARK: Reading

  /// A trade message batches one symbol's trades of a moment: the model path is fast enough for
  /// them, so there is no specialised one. Without a connection's books, a book snapshot is read
  /// on its own and a delta is ignored (`decode(_:context:)` keeps them).
  public func decode(_ message: WebSocketMessage) -> ProviderEvent {
    var context = DecodingContext()
    return decode(message, context: &context)
  }

  /// The level-1 book is a snapshot and then deltas: decoding keeps each symbol's book.
  public var usesDecodingContext: Bool { stream == .topOfBook }

  public func decode(_ message: WebSocketMessage, context: inout DecodingContext) -> ProviderEvent {
    switch VenueJSON.parse(message, with: parser) {
    case .success(let json): BybitMessage.event(json: json, context: &context)
    case .failure(let error): .malformed("invalid JSON: \(error)")
    }
  }
}
