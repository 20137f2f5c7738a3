import JSON
import WebSocketWire

/// OKX's v5 public feed, `wss://ws.okx.com:8443/ws/v5/public`, its `tickers` channel, no key
/// (docs/protocols.md §6).
///
/// Every request names the channel and instrument it is about and is answered once per
/// instrument: `{"event":"subscribe","arg":{…}}`, or `{"event":"error","code":"60018",…}` for an
/// instrument OKX does not list. The ticker sends one request per instrument, numbered by `id`
/// (OKX echoes it), so each answer finds its request and a refused instrument is taken back
/// alone while the others flow. OKX closes a connection that has been sent nothing for 30 s: the
/// client keeps it with the text `ping`, answered by the text `pong`.
///
/// The top of book (`--bid-ask`) is the public `bbo-tbt` channel: the best bid and ask, pushed
/// on each change, on the same endpoint with the same requests and answers.
public struct OKXProvider: Provider {
  public let parser: JSONParser
  /// How often the text `ping` goes out (tests shorten it).
  public let keepaliveInterval: Duration
  /// Trades (`tickers`) or the best bid and ask (`bbo-tbt`).
  public let stream: MarketStream

  public init(
    parser: JSONParser = JSONParser(), keepaliveInterval: Duration = .seconds(20),
    stream: MarketStream = .trades
  ) {
    self.parser = parser
    self.keepaliveInterval = keepaliveInterval
    self.stream = stream
  }

  public func scaled(by factor: Double) -> any Provider {
    OKXProvider(parser: parser, keepaliveInterval: keepaliveInterval * factor, stream: stream)
  }

  /// `bbo-tbt`: the best bid and ask with their sizes, tick by tick.
  public var topOfBook: (any Provider)? {
    OKXProvider(parser: parser, keepaliveInterval: keepaliveInterval, stream: .topOfBook)
  }

  /// The channel subscribed: `tickers` for trades, `bbo-tbt` for the top of book.
  var channel: String { stream == .topOfBook ? "bbo-tbt" : "tickers" }

  public var name: String { "okx" }
  public var displayName: String { "OKX" }

  public var defaultURL: WebSocketURL {
    WebSocketURL(isSecure: true, host: "ws.okx.com", port: 8443, target: "/ws/v5/public")
  }

  public var exampleSymbol: String { "BTC-USDT" }
  /// `BASE-QUOTE`: `BTC-USDT` is BTC in USDT.
  public func market(of symbol: String) -> Market? { Market.splitting(symbol, at: "-") }
  /// Against USDT, OKX's deepest quote currency.
  public func mainMarket(for asset: String) -> String? { asset.uppercased() + "-USDT" }

  /// OKX allows 3 connection requests a second per address; what it answers past that is not
  /// documented, a 429 is what such a limit usually gives.
  public func handshakeAdvice(status: Int) -> String? {
    guard status == 429 else { return nil }
    return "OKX limits new connections to 3 a second per address: wait a moment before connecting again"
  }

  // MARK: Symbols

  /// A spot instrument id is BASE-QUOTE in ASCII letters and digits, upper-cased (`btc-usdt` →
  /// `BTC-USDT`, as OKX spells it in every message).
  public func canonicalSymbol(_ symbol: String) -> Result<String, SymbolError> {
    if let instrument = VenueJSON.upperCaseSymbol(symbol, parts: 2) { return .success(instrument) }
    let shown = symbol.isEmpty ? "an empty symbol" : JSONEscaping.quoted(symbol)
    return .failure(
      SymbolError(
        "\(shown) is not an OKX spot instrument: an instrument id is BASE-QUOTE in letters and digits, "
          + "such as BTC-USDT"))
  }

  // MARK: Subscriptions

  public var subscriptionStyle: SubscriptionStyle { .incremental }
  /// OKX echoes a request's `id` in its answer, and answers each instrument of a request on its
  /// own; with one instrument per request, each answer names exactly one request.
  public var acknowledgement: Acknowledgement { .byID }

  /// One `unsubscribe` per instrument removed, then one `subscribe` per instrument added, each
  /// with the next id from `ids`; nothing when the sets agree. One instrument a request, though
  /// OKX takes many: it answers per instrument, and the runtime matches one answer to one request.
  public func subscriptionMessages(from old: [String], to new: [String], ids: inout RequestIDs)
    -> [WebSocketMessage]
  {
    let removed = VenueJSON.missing(from: new, in: old)
    let added = VenueJSON.missing(from: old, in: new)
    return removed.map { Self.request("unsubscribe", instrument: $0, channel: channel, id: ids.next()) }
      + added.map { Self.request("subscribe", instrument: $0, channel: channel, id: ids.next()) }
  }

  /// `{"id":"1","op":"subscribe","args":[{"channel":"tickers","instId":"BTC-USDT"}]}` (or
  /// `"channel":"bbo-tbt"`).
  static func request(_ op: String, instrument: String, channel: String = "tickers", id: Int)
    -> WebSocketMessage
  {
    var out: [UInt8] = Array(#"{"id":"\#(id)","op":"#.utf8)
    JSONEscaping.appendQuoted(op, to: &out)
    out += Array(#","args":[{"channel":"#.utf8)
    JSONEscaping.appendQuoted(channel, to: &out)
    out += Array(#","instId":"#.utf8)
    JSONEscaping.appendQuoted(instrument, to: &out)
    out += Array("}]}".utf8)
    return .text(String(decoding: out, as: UTF8.self))
  }

  // MARK: Staying connected

  /// The text `ping` every `keepaliveInterval` (20 s): OKX closes a connection it has sent
  /// nothing for 30 s, and a quiet instrument sends nothing. A fixed interval, not restarted by
  /// what arrives (the runtime's keepalive has no such restart); 20 s leaves a late timer 10 s.
  public var keepalive: KeepaliveDuty? { KeepaliveDuty(message: .text("ping"), interval: keepaliveInterval) }

  /// None: OKX names an instrument it does not list in an `error` answer.
  public var firstQuoteDeadline: Duration? { nil }

  /// 480 subscribe, unsubscribe and login requests per connection per hour, 3 connection
  /// requests per second per address. Neither is paced: a run spends one request per instrument
  /// subscribed or removed, and a reconnect starts a connection's count afresh.
  public var limits: VenueLimits { VenueLimits(requestsPerHour: 480, connectionsPerSecond: 3) }

  // MARK: Reading

  /// A ticker pushes at most every 100 ms per instrument: the model path is fast enough, so
  /// there is no specialised one.
  public func decode(_ message: WebSocketMessage) -> ProviderEvent {
    if Self.isPong(message) { return .keepalive }
    switch VenueJSON.parse(message, with: parser) {
    case .success(let json): return OKXMessage.event(json: json)
    case .failure(let error): return .malformed("invalid JSON: \(error)")
    }
  }

  /// The answer to the keepalive: the four letters `pong`, not JSON.
  static func isPong(_ message: WebSocketMessage) -> Bool {
    switch message {
    case .text(let text): text == "pong"
    case .binary(let bytes): bytes.elementsEqual("pong".utf8)
    }
  }
}
