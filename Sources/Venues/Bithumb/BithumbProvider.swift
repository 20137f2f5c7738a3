import JSON
import WebSocketWire

/// Bithumb's public feed, `wss://ws-api.bithumb.com/websocket/v1`, its `trade` type, no key
/// (docs/protocols.md §12). Upbit's message model: a request is one JSON array (ticket, type and
/// codes, format), and a new request replaces the whole previous one.
///
/// Nothing acknowledges a request: the first message per code is a `SNAPSHOT`, the latest trade
/// before the request, printed once as the starting price. Because a request replaces the whole
/// subscription, a change is two requests: a snapshot of the codes added alone, then every code
/// in real time only, so that a code already flowing never gets its last trade again. Server
/// frames are binary frames holding UTF-8 JSON (text frames are read too). Bithumb never pings
/// and closes idle connections: the client sends the text `PING`, answered by `{"status":"UP"}`.
/// A request it cannot read is answered with `{"error":{"name":…,"message":…}}` and a close.
/// Codes it does not know are accepted without a word and get nothing.
///
/// The top of book is the `orderbook` type, Upbit's message (`UpbitOrderbook`): the same
/// requests with `"type":"orderbook"`, each message the whole book, its first unit the top.
public struct BithumbProvider: Provider {
  public let parser: JSONParser
  /// What the venue's timings below are multiplied by (1; tests shorten them: `scaled(by:)`).
  public let timeScale: Double
  /// Trades (`trade`) or the best bid and ask (`orderbook`).
  public let stream: MarketStream

  public init(parser: JSONParser = JSONParser(), timeScale: Double = 1, stream: MarketStream = .trades) {
    self.parser = parser
    self.timeScale = timeScale
    self.stream = stream
  }

  public func scaled(by factor: Double) -> any Provider {
    BithumbProvider(parser: parser, timeScale: timeScale * factor, stream: stream)
  }

  /// `orderbook`: the whole book after every change, its first unit the top.
  public var topOfBook: (any Provider)? {
    BithumbProvider(parser: parser, timeScale: timeScale, stream: .topOfBook)
  }

  public var name: String { "bithumb" }
  public var displayName: String { "Bithumb" }

  public var defaultURL: WebSocketURL {
    WebSocketURL(isSecure: true, host: "ws-api.bithumb.com", port: 443, target: "/websocket/v1")
  }

  public var exampleSymbol: String { "KRW-BTC" }
  /// `QUOTE-BASE`, the market first: `KRW-BTC` is BTC in won, `BTC-ETH` ETH in bitcoin.
  public func market(of symbol: String) -> Market? { Market.splitting(symbol, at: "-", quoteFirst: true) }
  /// Against the won, Bithumb's main market.
  public func mainMarket(for asset: String) -> String? { "KRW-" + asset.uppercased() }
  /// `KRW-USDT`: the won's rate against USDT on Bithumb itself, for the KRW premium.
  public func conversionPair(for currency: String) -> String? { currency == "KRW" ? "KRW-USDT" : nil }

  public func handshakeAdvice(status: Int) -> String? {
    guard status == 429 else { return nil }
    return "Bithumb limits new connections to 10 a second per address, and blocks an address that keeps "
      + "going over it for 10 minutes: wait before connecting again"
  }

  // MARK: Symbols

  /// A code is QUOTE-BASE in ASCII letters and digits (`KRW-BTC`), upper-cased (`krw-btc` →
  /// `KRW-BTC`: the venue wants codes in upper case).
  public func canonicalSymbol(_ symbol: String) -> Result<String, SymbolError> {
    if let code = VenueJSON.upperCaseSymbol(symbol, parts: 2) { return .success(code) }
    let shown = symbol.isEmpty ? "an empty symbol" : JSONEscaping.quoted(symbol)
    return .failure(
      SymbolError(
        "\(shown) is not a Bithumb market code: a code is QUOTE-BASE in letters and digits, such as KRW-BTC"))
  }

  // MARK: Subscriptions

  public var subscriptionStyle: SubscriptionStyle { .wholeList }

  /// On a fresh connection, one request for every code of `new` (a snapshot of each, then real
  /// time). On a change, the codes added alone with `isOnlySnapshot` (their starting prices),
  /// then every code of `new` with `isOnlyRealtime`: each request replaces the one before, and
  /// without the flag the codes already flowing would get their last trade again. Each request
  /// under a fresh ticket `<prefix>-<n>`. Nothing when `new` holds the same codes as `old`, and
  /// nothing when `new` is empty: a request without codes is an error, so to stop receiving, the
  /// connection is closed.
  public func subscriptionMessages(from old: [String], to new: [String], ids: inout RequestIDs)
    -> [WebSocketMessage]
  {
    let codes = VenueJSON.missing(from: [], in: new)
    guard !codes.isEmpty, Set(codes) != Set(old) else { return [] }
    let type = stream == .trades ? "trade" : "orderbook"
    if old.isEmpty { return [Self.request(ticket: "\(ids.prefix)-\(ids.next())", type: type, codes: codes)] }
    var messages: [WebSocketMessage] = []
    let added = VenueJSON.missing(from: old, in: codes)
    if !added.isEmpty {
      messages.append(
        Self.request(ticket: "\(ids.prefix)-\(ids.next())", type: type, codes: added, only: .snapshot))
    }
    messages.append(
      Self.request(ticket: "\(ids.prefix)-\(ids.next())", type: type, codes: codes, only: .realtime))
    return messages
  }

  /// Which part of a type's data a request asks for (both when nil).
  enum Only {
    case snapshot, realtime
  }

  /// `[{"ticket":"…"},{"type":"trade","codes":[…]},{"format":"DEFAULT"}]`, with
  /// `"isOnlySnapshot":true` or `"isOnlyRealtime":true` after the codes when asked; of the top of
  /// book, `"type":"orderbook"`.
  static func request(ticket: String, type: String = "trade", codes: [String], only: Only? = nil)
    -> WebSocketMessage
  {
    var out: [UInt8] = Array(#"[{"ticket":"#.utf8)
    JSONEscaping.appendQuoted(ticket, to: &out)
    out += Array(#"},{"type":"#.utf8)
    JSONEscaping.appendQuoted(type, to: &out)
    out += Array(#","codes":["#.utf8)
    VenueJSON.appendQuotedList(codes, to: &out)
    out += Array("]".utf8)
    switch only {
    case .snapshot?: out += Array(#","isOnlySnapshot":true"#.utf8)
    case .realtime?: out += Array(#","isOnlyRealtime":true"#.utf8)
    case nil: break
    }
    out += Array(#"},{"format":"DEFAULT"}]"#.utf8)
    return .text(String(decoding: out, as: UTF8.self))
  }

  // MARK: Staying connected

  /// The text `PING` every 20 s: Bithumb closes a connection idle for about 120 s (documented;
  /// about 60 s observed) and never pings itself.
  public var keepalive: KeepaliveDuty? {
    KeepaliveDuty(message: .text("PING"), interval: .seconds(20 * timeScale))
  }

  /// 10 connection requests a second per address (documented; over that, HTTP 429). Not paced:
  /// the reconnect backoff opens far fewer. No limit on messages is documented.
  public var limits: VenueLimits { VenueLimits(connectionsPerSecond: 10) }

  /// A code Bithumb lists gets its snapshot at once; one it does not list gets nothing at all.
  public var firstQuoteDeadline: Duration? { .seconds(5 * timeScale) }

  // MARK: Reading

  /// One trade a message, a few hundred bytes: the model path is fast enough, so there is no
  /// specialised one.
  public func decode(_ message: WebSocketMessage) -> ProviderEvent {
    switch VenueJSON.parse(message, with: parser) {
    case .success(let json): BithumbMessage.event(json: json)
    case .failure(let error): .malformed("invalid JSON: \(error)")
    }
  }
}
