import JSON
import WebSocketWire

/// Coinbase Exchange's `ticker` channel, `wss://ws-feed.exchange.coinbase.com`, no key
/// (docs/protocols.md §4).
///
/// A client must subscribe within 5 s of connecting or be disconnected; the reply is a
/// `subscriptions` message listing what the connection now has. A subscription Coinbase refuses
/// is answered `{"type":"error","message":"Failed to subscribe","reason":"… is not a valid product"}`.
/// Every message has a `type`; clients are expected to ignore types they do not use.
///
/// The top of book (`--bid-ask`) comes from the same `ticker` channel: each ticker also carries
/// `best_bid`, `best_bid_size`, `best_ask` and `best_ask_size`. The Exchange feed has no channel
/// of its own for the best bid and ask (only the full `level2` book), so both streams subscribe
/// alike, and a ticker message alone cannot say which was asked for: `stream` decides whether it
/// becomes a trade or a top-of-book quote.
public struct CoinbaseProvider: Provider {
  public let parser: JSONParser
  /// Trades (`price`, `last_size`) or the best bid and ask of the same `ticker` messages.
  public let stream: MarketStream

  public init(parser: JSONParser = JSONParser(), stream: MarketStream = .trades) {
    self.parser = parser
    self.stream = stream
  }

  /// The `ticker` channel read for its best bid and ask.
  public var topOfBook: (any Provider)? { CoinbaseProvider(parser: parser, stream: .topOfBook) }

  public var name: String { "coinbase" }
  public var displayName: String { "Coinbase" }

  public var defaultURL: WebSocketURL {
    WebSocketURL(isSecure: true, host: "ws-feed.exchange.coinbase.com", port: 443, target: "/")
  }

  public var exampleSymbol: String { "BTC-USD" }
  /// `BASE-QUOTE`: `BTC-USD` is BTC in US dollars.
  public func market(of symbol: String) -> Market? { Market.splitting(symbol, at: "-") }
  /// Against the US dollar.
  public func mainMarket(for asset: String) -> String? { asset.uppercased() + "-USD" }

  // MARK: Symbols

  /// A product id is BASE-QUOTE in ASCII letters and digits, upper-cased (`btc-usd` → `BTC-USD`).
  public func canonicalSymbol(_ symbol: String) -> Result<String, SymbolError> {
    if let product = VenueJSON.upperCaseSymbol(symbol, parts: 2) { return .success(product) }
    let shown = symbol.isEmpty ? "an empty symbol" : JSONEscaping.quoted(symbol)
    return .failure(
      SymbolError(
        "\(shown) is not a Coinbase product: a product is BASE-QUOTE in letters and digits, such as BTC-USD"))
  }

  // MARK: Subscriptions

  public var subscriptionStyle: SubscriptionStyle { .incremental }
  /// One `subscriptions` (or one `error`) per request, in order.
  public var acknowledgement: Acknowledgement { .inOrder }

  /// One `unsubscribe` naming every product removed, then one `subscribe` naming every product
  /// added, on the `ticker` channel; nothing when the sets agree. Coinbase does not number
  /// requests: each is answered with a `subscriptions` message (or an `error`). The same in both
  /// streams: the top of book is read from the `ticker` channel too.
  public func subscriptionMessages(from old: [String], to new: [String], ids: inout RequestIDs)
    -> [WebSocketMessage]
  {
    var messages: [WebSocketMessage] = []
    let removed = VenueJSON.missing(from: new, in: old)
    if !removed.isEmpty { messages.append(Self.request("unsubscribe", products: removed)) }
    let added = VenueJSON.missing(from: old, in: new)
    if !added.isEmpty { messages.append(Self.request("subscribe", products: added)) }
    return messages
  }

  /// `{"type":"subscribe","product_ids":["BTC-USD",…],"channels":["ticker"]}`.
  static func request(_ type: String, products: [String]) -> WebSocketMessage {
    var out: [UInt8] = Array(#"{"type":"#.utf8)
    JSONEscaping.appendQuoted(type, to: &out)
    out += Array(#","product_ids":["#.utf8)
    VenueJSON.appendQuotedList(products, to: &out)
    out += Array(#"],"channels":["ticker"]}"#.utf8)
    return .text(String(decoding: out, as: UTF8.self))
  }

  // MARK: Staying connected

  /// Nothing the client must send is documented, besides the subscription itself, which must go
  /// out within 5 s of connecting.
  public var keepalive: KeepaliveDuty? { nil }

  /// None: Coinbase names a product it does not know in an `error` message.
  public var firstQuoteDeadline: Duration? { nil }

  /// None worth pacing for: Coinbase documents 8 requests a second per IP (bursts to 20) and 100
  /// client messages a second per IP (docs.cdp.coinbase.com/exchange/websocket-feed/rate-limits),
  /// far above a handful of subscription changes.
  public var limits: VenueLimits { VenueLimits() }

  // MARK: Reading

  /// Ticker messages are a few dozen a second at most and ~450 bytes each: the model path is
  /// fast enough, so there is no specialised one.
  public func decode(_ message: WebSocketMessage) -> ProviderEvent {
    switch VenueJSON.parse(message, with: parser) {
    case .success(let json): decode(json: json)
    case .failure(let error): .malformed("invalid JSON: \(error)")
    }
  }

  func decode(json: JSONValue) -> ProviderEvent {
    guard case .object(let object) = json else {
      return .malformed("message must be a JSON object, not \(json.kindDescription)")
    }
    guard case .string(let type)? = object["type"] else {
      return .malformed(#"message has no string "type""#)
    }
    switch type {
    case "ticker" where stream == .topOfBook:
      // The same message as a trade's: only the stream asked for says which it is.
      do throws(ShapeError) {
        return .quotes([try CoinbaseBookTicker(object: object).quote])
      } catch {
        return .malformed(error.message)
      }
    case "ticker":
      do throws(CoinbaseTicker.Problem) {
        return .quotes([try CoinbaseTicker(object: object).quote])
      } catch {
        switch error {
        case .shape(let shape): return .malformed(shape.message)
        }
      }
    case "subscriptions":
      return .acknowledged(id: nil)
    case "error":
      let message = object["message"]?.stringValue
      guard let reason = object["reason"]?.stringValue else {
        return .error(VenueError(message: message ?? "unspecified error", fatal: true))
      }
      return .error(VenueError(name: message, message: reason, fatal: true))
    default:
      return .ignored(type)
    }
  }
}
