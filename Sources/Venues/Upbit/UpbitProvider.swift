import JSON
import WebSocketWire

/// Upbit's ticker feed, `wss://api.upbit.com/websocket/v1`, no key (docs/protocols.md §2).
///
/// A request is one JSON array — ticket, type and codes, format — and a new request replaces the
/// whole previous one, so every change re-sends the full list. Server frames are binary frames
/// holding UTF-8 JSON (text frames are accepted too). Upbit never pings: the client sends the
/// text `PING`, answered by `{"status":"UP"}`. A request Upbit cannot read is answered with
/// `{"error":{"name":…,"message":…}}` and a close (1000) about 150 ms later.
///
/// The top of book is the `orderbook` type: the same request with `"type":"orderbook"`, each
/// message the whole book (`UpbitOrderbook`), its first unit the best bid and ask.
public struct UpbitProvider: Provider {
  public let parser: JSONParser
  /// What the venue's timings below are multiplied by (1; tests shorten them: `scaled(by:)`).
  public let timeScale: Double
  /// Tickers (`ticker`) or the best bid and ask (`orderbook`).
  public let stream: MarketStream

  public init(parser: JSONParser = JSONParser(), timeScale: Double = 1, stream: MarketStream = .trades) {
    self.parser = parser
    self.timeScale = timeScale
    self.stream = stream
  }

  public func scaled(by factor: Double) -> any Provider {
    UpbitProvider(parser: parser, timeScale: timeScale * factor, stream: stream)
  }

  /// `orderbook`: the whole book after every change, its first unit the top.
  public var topOfBook: (any Provider)? {
    UpbitProvider(parser: parser, timeScale: timeScale, stream: .topOfBook)
  }

  public var name: String { "upbit" }
  public var displayName: String { "Upbit" }

  public var defaultURL: WebSocketURL {
    WebSocketURL(isSecure: true, host: "api.upbit.com", port: 443, target: "/websocket/v1")
  }

  public var exampleSymbol: String { "KRW-BTC" }
  /// `QUOTE-BASE`, the market first: `KRW-BTC` is BTC in won, `USDT-BTC` BTC in USDT.
  public func market(of symbol: String) -> Market? { Market.splitting(symbol, at: "-", quoteFirst: true) }
  /// Against the won, Upbit's main market.
  public func mainMarket(for asset: String) -> String? { "KRW-" + asset.uppercased() }
  /// `KRW-USDT`: the won's rate against USDT, for the KRW premium.
  public func conversionPair(for currency: String) -> String? { currency == "KRW" ? "KRW-USDT" : nil }

  /// No header: in particular never `Origin` (Upbit limits requests that carry one to 1 per 10 s).
  public var handshakeHeaders: [HTTPHead.Field] { [] }

  public func handshakeAdvice(status: Int) -> String? {
    switch status {
    case 429:
      "Upbit limits this address (5 connections per second; 5 requests per second and 100 per "
        + "minute per connection): wait a while before connecting again"
    case 418:
      "Upbit has banned this address for a while after too many requests (HTTP 418): "
        + "wait before connecting again"
    default: nil
    }
  }

  // MARK: Symbols

  /// A code is QUOTE-BASE in ASCII letters and digits (`KRW-BTC`, `BTC-ETH`), upper-cased
  /// (`krw-btc` → `KRW-BTC`: Upbit silently ignores lower-case codes).
  public func canonicalSymbol(_ symbol: String) -> Result<String, SymbolError> {
    if let code = VenueJSON.upperCaseSymbol(symbol, parts: 2) { return .success(code) }
    let shown = symbol.isEmpty ? "an empty symbol" : JSONEscaping.quoted(symbol)
    return .failure(
      SymbolError(
        "\(shown) is not an Upbit market code: a code is QUOTE-BASE in letters and digits, such as KRW-BTC"))
  }

  // MARK: Subscriptions

  public var subscriptionStyle: SubscriptionStyle { .wholeList }

  /// One request listing every code of `new`, under a fresh ticket `<prefix>-<n>` — Upbit
  /// replaces the whole previous subscription with it. Nothing when `new` holds the same codes
  /// as `old` (order aside), and nothing when `new` is empty: Upbit has no unsubscribe, and a
  /// request without codes is refused (its error names include `NO_CODES`). To stop receiving,
  /// close the connection.
  public func subscriptionMessages(from old: [String], to new: [String], ids: inout RequestIDs)
    -> [WebSocketMessage]
  {
    let codes = VenueJSON.missing(from: [], in: new)
    guard !codes.isEmpty, Set(codes) != Set(old) else { return [] }
    return [Self.request(ticket: "\(ids.prefix)-\(ids.next())", codes: codes, stream: stream)]
  }

  /// `[{"ticket":"…"},{"type":"ticker","codes":[…]},{"format":"SIMPLE"}]`; of the top of book,
  /// `"type":"orderbook"`.
  static func request(ticket: String, codes: [String], stream: MarketStream = .trades) -> WebSocketMessage {
    var out: [UInt8] = Array(#"[{"ticket":"#.utf8)
    JSONEscaping.appendQuoted(ticket, to: &out)
    out += Array(
      (stream == .trades ? #"},{"type":"ticker","codes":["# : #"},{"type":"orderbook","codes":["#).utf8)
    VenueJSON.appendQuotedList(codes, to: &out)
    out += Array(#"]},{"format":"SIMPLE"}]"#.utf8)
    return .text(String(decoding: out, as: UTF8.self))
  }

  // MARK: Staying connected

  /// The text `PING` every 25 s (Upbit drops sockets idle for 60–120 s and never pings itself).
  public var keepalive: KeepaliveDuty? {
    KeepaliveDuty(message: .text("PING"), interval: .seconds(25 * timeScale))
  }

  /// 5 requests per second per connection (and 100 per minute).
  public var limits: VenueLimits { VenueLimits(messagesPerSecond: 5) }

  /// Upbit sends a SNAPSHOT for every code it knows at once, and nothing at all for a code it
  /// does not know.
  public var firstQuoteDeadline: Duration? { .seconds(5 * timeScale) }

  // MARK: Reading

  public func decode(_ message: WebSocketMessage) -> ProviderEvent {
    if let event = fastDecode(message) { return event }
    return decodeThroughModel(message)
  }

  public func decode(_ message: WebSocketMessage, appendingQuotesTo quotes: inout [Quote]) -> ProviderEvent? {
    let verdict: UpbitFastPath.Verdict
    switch message {
    case .text(var text):
      verdict = text.withUTF8 { UpbitFastPath.decode(UnsafeRawBufferPointer($0), appendingTo: &quotes) }
    case .binary(let bytes):
      verdict = bytes.withUnsafeBytes { UpbitFastPath.decode($0, appendingTo: &quotes) }
    }
    if verdict == .ticker { return nil }
    let event = decodeThroughModel(message)
    if case .quotes(let decoded) = event {
      quotes.append(contentsOf: decoded)
      return nil
    }
    return event
  }

  /// The specialised decoder's verdict, or nil when the model path must decide. It reads tickers
  /// only: an `orderbook` (another type, nested units) is always left to the model path.
  public func fastDecode(_ message: WebSocketMessage) -> ProviderEvent? {
    var quotes: [Quote] = []
    let verdict: UpbitFastPath.Verdict
    switch message {
    case .text(var text):
      verdict = text.withUTF8 { UpbitFastPath.decode(UnsafeRawBufferPointer($0), appendingTo: &quotes) }
    case .binary(let bytes):
      verdict = bytes.withUnsafeBytes { UpbitFastPath.decode($0, appendingTo: &quotes) }
    }
    return verdict == .ticker ? .quotes(quotes) : nil
  }

  /// Decodes through `JSONValue` and `UpbitTicker`: the reference path.
  public func decodeThroughModel(_ message: WebSocketMessage) -> ProviderEvent {
    switch VenueJSON.parse(message, with: parser) {
    case .success(let json): decode(json: json)
    case .failure(let error): .malformed("invalid JSON: \(error)")
    }
  }

  /// An error, then a status, then a typed message: what Upbit sends, in that order of precedence.
  func decode(json: JSONValue) -> ProviderEvent {
    guard case .object(let object) = json else {
      return .malformed("message must be a JSON object, not \(json.kindDescription)")
    }
    if let error = object["error"] {
      switch error {
      case .object(let details):
        let name = details["name"]?.stringValue
        let message = details["message"]?.stringValue ?? name ?? "unspecified error"
        return .error(VenueError(name: name, message: message, fatal: true))
      case .string(let message):
        return .error(VenueError(message: message, fatal: true))
      default:
        return .malformed(#""error" must be an object, not "# + error.kindDescription)
      }
    }
    if let status = object["status"] {
      guard case .string(let text) = status else {
        return .malformed(#""status" must be a string, not "# + status.kindDescription)
      }
      return text == "UP" ? .keepalive : .ignored("status \(text)")
    }
    guard case .string(let type)? = object["ty"] ?? object["type"] else {
      return .malformed(#"message has no string "ty"/"type", and no "status" or "error""#)
    }
    do throws(ShapeError) {
      switch type {
      case "ticker": return .quotes([try UpbitTicker(object: object).quote])
      case "orderbook":
        guard let top = try UpbitOrderbook.top(of: object) else {
          return .ignored("orderbook with an empty side")
        }
        return .quotes([top.quote])
      default: return .ignored(type)
      }
    } catch {
      return .malformed(error.message)
    }
  }
}
