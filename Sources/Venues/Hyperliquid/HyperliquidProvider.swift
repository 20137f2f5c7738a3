import JSON
import WebSocketWire

/// Hyperliquid's public WebSocket, `wss://api.hyperliquid.xyz/ws`, its `trades` subscription of
/// perpetual coins, no key (docs/protocols.md §7).
///
/// Each request names one subscription, `{"method":"subscribe","subscription":{"type":"trades",
/// "coin":"BTC"}}`, answered by a `subscriptionResponse` echoing it, or by an `error` quoting it
/// (a coin Hyperliquid does not list): the refused coin is taken back alone. On subscribing,
/// Hyperliquid first sends recent trades of the coin, which look like live ones: the runtime takes
/// them as history (`backFillsOnSubscribe`). Hyperliquid closes a connection it has sent nothing
/// to for 60 s; the client keeps a quiet one with `{"method":"ping"}`, answered by
/// `{"channel":"pong"}`. Prices and sizes are decimal strings, kept as sent.
///
/// The top of book is the `bbo` subscription (`{"type":"bbo","coin":"BTC"}`), acknowledged and
/// refused like trades: each message the best bid and offer after a block that changed them
/// (`HyperliquidBBO`). It has no back-fill, so its quotes are never taken as history.
public struct HyperliquidProvider: Provider {
  public let parser: JSONParser
  /// What the venue's timings below are multiplied by (1; tests shorten them: `scaled(by:)`).
  public let timeScale: Double
  /// Trades (`trades`) or the best bid and offer (`bbo`).
  public let stream: MarketStream

  public init(parser: JSONParser = JSONParser(), timeScale: Double = 1, stream: MarketStream = .trades) {
    self.parser = parser
    self.timeScale = timeScale
    self.stream = stream
  }

  public func scaled(by factor: Double) -> any Provider {
    HyperliquidProvider(parser: parser, timeScale: timeScale * factor, stream: stream)
  }

  /// `bbo`: the best bid and offer of each coin, after every block that changes them.
  public var topOfBook: (any Provider)? {
    HyperliquidProvider(parser: parser, timeScale: timeScale, stream: .topOfBook)
  }

  public var name: String { "hyperliquid" }
  public var displayName: String { "Hyperliquid" }

  public var defaultURL: WebSocketURL {
    WebSocketURL(isSecure: true, host: "api.hyperliquid.xyz", port: 443, target: "/ws")
  }

  public var exampleSymbol: String { "BTC" }
  /// A perpetual is margined and settled in USDC: `BTC` is BTC in USDC.
  public func market(of symbol: String) -> Market? {
    Self.coin(symbol) == symbol ? Market(base: symbol, quote: "USDC") : nil
  }
  /// The asset's perpetual, named by the coin alone.
  public func mainMarket(for asset: String) -> String? { Self.coin(asset) }

  // MARK: Symbols

  /// A perpetual is named by its coin: ASCII letters and digits, upper-cased (`btc` → `BTC`), as
  /// Hyperliquid spells it in every message. Coins are case-sensitive on Hyperliquid, and those
  /// counted in thousands start with a lower-case `k` (`kPEPE`): written that way, they are kept.
  public func canonicalSymbol(_ symbol: String) -> Result<String, SymbolError> {
    if let coin = Self.coin(symbol) { return .success(coin) }
    let shown = symbol.isEmpty ? "an empty symbol" : JSONEscaping.quoted(symbol)
    return .failure(
      SymbolError(
        "\(shown) is not a Hyperliquid perpetual: a perpetual is named by its coin, letters and digits, "
          + "such as BTC"))
  }

  /// `symbol` as a coin: upper case, or `k` and upper case; nil unless it is ASCII letters and
  /// digits.
  static func coin(_ symbol: String) -> String? {
    let bytes = Array(symbol.utf8)
    guard !bytes.isEmpty, bytes.count <= 32 else { return nil }
    var lower = 0
    for byte in bytes {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"): break
      case UInt8(ascii: "a")...UInt8(ascii: "z"): lower += 1
      default: return nil
      }
    }
    // `kPEPE`: the thousands prefix before an upper-case coin.
    if bytes.count > 1, bytes[0] == UInt8(ascii: "k"), lower == 1 { return symbol }
    return lower == 0 ? symbol : symbol.uppercased()
  }

  // MARK: Subscriptions

  public var subscriptionStyle: SubscriptionStyle { .incremental }
  /// Hyperliquid answers each request, which names one coin: an error quoting the subscription
  /// names the coin it refuses.
  public var acknowledgement: Acknowledgement { .perSymbol }

  /// One `unsubscribe` per coin removed, then one `subscribe` per coin added (a request carries
  /// one subscription); nothing when the sets agree.
  public func subscriptionMessages(from old: [String], to new: [String], ids: inout RequestIDs)
    -> [WebSocketMessage]
  {
    VenueJSON.missing(from: new, in: old).map { Self.request("unsubscribe", coin: $0, stream: stream) }
      + VenueJSON.missing(from: old, in: new).map { Self.request("subscribe", coin: $0, stream: stream) }
  }

  /// `{"method":"subscribe","subscription":{"type":"trades","coin":"BTC"}}`; of the top of book,
  /// `"type":"bbo"`.
  static func request(_ method: String, coin: String, stream: MarketStream = .trades) -> WebSocketMessage {
    var out: [UInt8] = Array(#"{"method":"#.utf8)
    JSONEscaping.appendQuoted(method, to: &out)
    out += Array(
      (stream == .trades
        ? #","subscription":{"type":"trades","coin":"# : #","subscription":{"type":"bbo","coin":"#).utf8)
    JSONEscaping.appendQuoted(coin, to: &out)
    out += Array("}}".utf8)
    return .text(String(decoding: out, as: UTF8.self))
  }

  // MARK: Staying connected

  /// `{"method":"ping"}` every 30 s, on a fixed interval: Hyperliquid closes a connection it has
  /// sent nothing to for 60 s, and a quiet coin sends nothing; the `pong` resets its timer. A
  /// timer late by 30 s is still in time.
  public var keepalive: KeepaliveDuty? {
    KeepaliveDuty(message: .text(#"{"method":"ping"}"#), interval: .seconds(30 * timeScale))
  }

  /// 2,000 messages a minute to Hyperliquid from one address, paced as 33 a second (the runtime
  /// sends at most 32 in any 1.5 s, about 1,300 a minute); 1,000 subscriptions an address
  /// (known, not enforced: one coin is one subscription).
  public var limits: VenueLimits { VenueLimits(messagesPerSecond: 33, symbolsPerConnection: 1000) }

  /// None: Hyperliquid answers a coin it does not list with an error quoting it.
  public var firstQuoteDeadline: Duration? { nil }

  /// The recent trades sent on each subscription are history, not news. `bbo` sends no history:
  /// its first quotes are live.
  public var backFillsOnSubscribe: Bool { stream == .trades }

  // MARK: Reading

  /// A frame carries the fills of one block for one coin (a few per second at most): the model
  /// path is fast enough, so there is no specialised one.
  public func decode(_ message: WebSocketMessage) -> ProviderEvent {
    if Self.isGreeting(message) { return .ignored("connection established") }
    switch VenueJSON.parse(message, with: parser) {
    case .success(let json): return HyperliquidMessage.event(json: json)
    case .failure(let error): return .malformed("invalid JSON: \(error)")
    }
  }

  /// The text Hyperliquid sends when a connection opens, before any request; not JSON.
  static let greeting = "Websocket connection established."

  static func isGreeting(_ message: WebSocketMessage) -> Bool {
    switch message {
    case .text(let text): text == greeting
    case .binary(let bytes): bytes.elementsEqual(greeting.utf8)
    }
  }
}
