import JSON
import WebSocketWire

/// Kraken Spot's WebSocket API v2, the `ticker` channel, `wss://ws.kraken.com/v2`, no key
/// (docs/protocols.md §5).
///
/// Requests are `{"method":…,"params":{…},"req_id":n}`. Kraken answers a subscription once per
/// symbol it names, `success` true or false, and a refusal (`Currency pair not supported X`)
/// names its symbol: that symbol alone is taken back. While anything is subscribed, Kraken sends
/// `{"channel":"heartbeat"}` about once a second when nothing else is due; it closes a
/// connection that has sent it nothing for about a minute, so the client sends the
/// application-level `{"method":"ping"}`, answered by `{"method":"pong",…}`. Prices are JSON
/// numbers, kept as written.
///
/// The top of book (`--bid-ask`) is the same `ticker` channel subscribed with
/// `"event_trigger":"bbo"`: a ticker on every change of the best bid or ask (not on every trade),
/// read for its `bid`, `bid_qty`, `ask` and `ask_qty`.
public struct KrakenProvider: Provider {
  public let parser: JSONParser
  /// What the venue's timings below are multiplied by (1; tests shorten them: `scaled(by:)`).
  public let timeScale: Double
  /// Trades (tickers on each trade, their `last`) or the best bid and ask (tickers on each change
  /// of them).
  public let stream: MarketStream

  public init(parser: JSONParser = JSONParser(), timeScale: Double = 1, stream: MarketStream = .trades) {
    self.parser = parser
    self.timeScale = timeScale
    self.stream = stream
  }

  public func scaled(by factor: Double) -> any Provider {
    KrakenProvider(parser: parser, timeScale: timeScale * factor, stream: stream)
  }

  /// The `ticker` channel triggered by the best bid and ask, read for them.
  public var topOfBook: (any Provider)? {
    KrakenProvider(parser: parser, timeScale: timeScale, stream: .topOfBook)
  }

  public var name: String { "kraken" }
  public var displayName: String { "Kraken" }

  public var defaultURL: WebSocketURL {
    WebSocketURL(isSecure: true, host: "ws.kraken.com", port: 443, target: "/v2")
  }

  public var exampleSymbol: String { "BTC/USD" }
  /// `BASE/QUOTE`: `BTC/USD` is BTC in US dollars.
  public func market(of symbol: String) -> Market? { Market.splitting(symbol, at: "/") }
  /// Against the US dollar.
  public func mainMarket(for asset: String) -> String? { asset.uppercased() + "/USD" }

  /// Kraken's connections go through Cloudflare, which answers too many connection attempts from
  /// one address (about 150 in 10 minutes) by banning it for 10 minutes.
  public func handshakeAdvice(status: Int) -> String? {
    guard status == 429 else { return nil }
    return "Kraken limits connection attempts to about 150 per 10 minutes per address and bans an "
      + "address that makes more for 10 minutes: wait before connecting again"
  }

  // MARK: Symbols

  /// A pair is BASE/QUOTE in ASCII letters and digits, upper-cased (`btc/usd` → `BTC/USD`).
  public func canonicalSymbol(_ symbol: String) -> Result<String, SymbolError> {
    if let pair = Self.pair(symbol) { return .success(pair) }
    let shown = symbol.isEmpty ? "an empty symbol" : JSONEscaping.quoted(symbol)
    return .failure(
      SymbolError(
        "\(shown) is not a Kraken pair: a pair is BASE/QUOTE in letters and digits, such as BTC/USD"))
  }

  /// `symbol` in upper case when it is two groups of ASCII letters and digits joined by one `/`;
  /// nil otherwise.
  static func pair(_ symbol: String) -> String? {
    VenueJSON.upperCaseSymbol(symbol, parts: 2, separator: UInt8(ascii: "/"))
  }

  // MARK: Subscriptions

  public var subscriptionStyle: SubscriptionStyle { .incremental }
  /// Kraken answers every symbol of a request on its own; a refusal names its symbol.
  public var acknowledgement: Acknowledgement { .perSymbol }

  /// One `unsubscribe` naming every pair removed, then one `subscribe` naming every pair added,
  /// on the `ticker` channel, each numbered with the next id from `ids` (Kraken echoes it as
  /// `req_id`); nothing when the sets agree. Following the top of book, the subscribe asks for
  /// tickers on each change of the best bid and ask (`"event_trigger":"bbo"`).
  public func subscriptionMessages(from old: [String], to new: [String], ids: inout RequestIDs)
    -> [WebSocketMessage]
  {
    var messages: [WebSocketMessage] = []
    let removed = VenueJSON.missing(from: new, in: old)
    if !removed.isEmpty { messages.append(Self.request("unsubscribe", symbols: removed, id: ids.next())) }
    let added = VenueJSON.missing(from: old, in: new)
    if !added.isEmpty {
      let trigger = stream == .topOfBook ? "bbo" : nil
      messages.append(Self.request("subscribe", symbols: added, trigger: trigger, id: ids.next()))
    }
    return messages
  }

  /// `{"method":"subscribe","params":{"channel":"ticker","symbol":["BTC/USD",…]},"req_id":1}`;
  /// with a `trigger`, `"event_trigger":"bbo"` after the symbols. An unsubscribe names no trigger:
  /// Kraken documents none for it, and a pair has one ticker subscription whatever its trigger.
  static func request(_ method: String, symbols: [String], trigger: String? = nil, id: Int)
    -> WebSocketMessage
  {
    var out: [UInt8] = Array(#"{"method":"#.utf8)
    JSONEscaping.appendQuoted(method, to: &out)
    out += Array(#","params":{"channel":"ticker","symbol":["#.utf8)
    VenueJSON.appendQuotedList(symbols, to: &out)
    out += Array("]".utf8)
    if let trigger {
      out += Array(#","event_trigger":"#.utf8)
      JSONEscaping.appendQuoted(trigger, to: &out)
    }
    out += Array(#"},"req_id":\#(id)}"#.utf8)
    return .text(String(decoding: out, as: UTF8.self))
  }

  // MARK: Staying connected

  /// `{"method":"ping"}` every 25 s: Kraken closes a connection within about a minute of
  /// inactivity, and names a request such as this ping as what keeps it open (its heartbeats
  /// flow only while something is subscribed, and it does not say that WebSocket pings count).
  public var keepalive: KeepaliveDuty? {
    KeepaliveDuty(message: .text(#"{"method":"ping"}"#), interval: .seconds(25 * timeScale))
  }

  /// Kraken publishes no figure: its message rate limit depends on the load of its system, and a
  /// request over it is refused with `Exceeded msg rate`. Paced as the other venues with a limit
  /// are, which a handful of subscription changes and a ping every 25 s never come near.
  public var limits: VenueLimits { VenueLimits(messagesPerSecond: 5) }

  /// None: Kraken refuses a pair it does not know, naming it.
  public var firstQuoteDeadline: Duration? { nil }

  // MARK: Reading

  /// Ticker messages come once per trade event per pair and are ~300 bytes: the model path is
  /// fast enough, so there is no specialised one.
  public func decode(_ message: WebSocketMessage) -> ProviderEvent {
    switch VenueJSON.parse(message, with: parser) {
    case .success(let json): KrakenMessage.event(json: json, stream: stream)
    case .failure(let error): .malformed("invalid JSON: \(error)")
    }
  }
}
