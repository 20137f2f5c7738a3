import JSON
import WebSocketWire

/// Bitstamp's WebSocket API v2, `wss://ws.bitstamp.net`, its `live_trades_<market>` channels (or,
/// for the top of book, its `order_book_<market>` ones), no key (docs/protocols.md §8).
///
/// A request names one channel: `{"event":"bts:subscribe","data":{"channel":"live_trades_btcusd"}}`,
/// answered `bts:subscription_succeeded` naming the channel, or `bts:error` naming nothing. The
/// ticker sends one request per market, and Bitstamp answers each, so the answers come one per
/// request, in order. A market Bitstamp does not list is acknowledged like any other and then
/// stays silent. Bitstamp pings every connection itself (the engine answers), so the client owes
/// it nothing; its `bts:heartbeat` is optional. Prices are read from `price_str`, the exact
/// decimal: the JSON number `price` beside it carries binary artefacts (`3651.3000000000002`).
public struct BitstampProvider: Provider {
  public let parser: JSONParser
  /// Trades (`live_trades_<market>`) or the best bid and ask (`order_book_<market>`).
  public let stream: MarketStream

  public init(parser: JSONParser = JSONParser(), stream: MarketStream = .trades) {
    self.parser = parser
    self.stream = stream
  }

  /// `order_book_<market>`: the top 100 levels a side, the whole snapshot on every change, so
  /// each message's first bid and ask are the top (no local book to keep).
  public var topOfBook: (any Provider)? { BitstampProvider(parser: parser, stream: .topOfBook) }

  public var name: String { "bitstamp" }
  public var displayName: String { "Bitstamp" }

  public var defaultURL: WebSocketURL {
    WebSocketURL(isSecure: true, host: "ws.bitstamp.net", port: 443, target: "/")
  }

  public var exampleSymbol: String { "btcusd" }

  /// The market's quote currency is the longest of Bitstamp's quote currencies it ends in
  /// (`btcusdt` is BTC in USDT, `btcusd` BTC in USD, `usdcusd` USDC in USD); nil when it ends in
  /// none of them, or in nothing else.
  public func market(of symbol: String) -> Market? {
    let lower = symbol.lowercased()
    for quote in Self.quoteCurrencies where lower.hasSuffix(quote) && lower.count > quote.count {
      return Market(base: String(lower.dropLast(quote.count)).uppercased(), quote: quote.uppercased())
    }
    return nil
  }

  /// Against the US dollar, Bitstamp's main market.
  public func mainMarket(for asset: String) -> String? { asset.lowercased() + "usd" }

  /// The currencies Bitstamp quotes its spot markets in, longest first so that `usdt` is found
  /// before `usd`.
  static let quoteCurrencies = ["usdt", "usdc", "usd", "eur", "gbp", "btc", "eth"]

  // MARK: Symbols

  /// The longest market the ticker takes: a channel name far inside Bitstamp's 512-byte limit on
  /// a client frame (a longer frame closes the connection with 1009).
  static let longestMarket = 32

  /// A spot market is lower-case ASCII letters and digits run together, base then quote
  /// (`BTCUSD` → `btcusd`, as the channel name spells it).
  public func canonicalSymbol(_ symbol: String) -> Result<String, SymbolError> {
    if let market = Self.market(symbol) { return .success(market) }
    let shown = symbol.isEmpty ? "an empty symbol" : JSONEscaping.quoted(symbol)
    return .failure(
      SymbolError(
        "\(shown) is not a Bitstamp market: a market is up to \(Self.longestMarket) letters and digits, "
          + "base then quote run together, such as btcusd"))
  }

  /// `symbol` in lower case when it is 1 to `longestMarket` ASCII letters and digits; nil
  /// otherwise.
  static func market(_ symbol: String) -> String? {
    guard (1...longestMarket).contains(symbol.utf8.count) else { return nil }
    var out: [UInt8] = []
    out.reserveCapacity(symbol.utf8.count)
    for b in symbol.utf8 {
      switch b {
      case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"): out.append(b)
      case UInt8(ascii: "A")...UInt8(ascii: "Z"): out.append(b + 0x20)
      default: return nil
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  // MARK: Subscriptions

  public var subscriptionStyle: SubscriptionStyle { .incremental }
  /// Each request names one channel and gets one answer, in the order sent:
  /// `bts:subscription_succeeded` (or `bts:unsubscription_succeeded`), or a `bts:error` that
  /// names no channel, which only its place in the order ties to its request.
  public var acknowledgement: Acknowledgement { .inOrder }

  /// One `bts:unsubscribe` per market removed, then one `bts:subscribe` per market added, each
  /// naming its `live_trades_` channel (`order_book_` for the top of book); nothing when the sets
  /// agree. One channel a request, as
  /// the documentation shows it (and a request stays far under 512 bytes).
  public func subscriptionMessages(from old: [String], to new: [String], ids: inout RequestIDs)
    -> [WebSocketMessage]
  {
    let removed = VenueJSON.missing(from: new, in: old)
    let added = VenueJSON.missing(from: old, in: new)
    return removed.map { Self.request("bts:unsubscribe", market: $0, stream: stream) }
      + added.map { Self.request("bts:subscribe", market: $0, stream: stream) }
  }

  /// The prefix of the channel that carries a market's trades.
  static let tradesChannelPrefix = "live_trades_"
  /// The prefix of the channel that carries a market's book, top 100 levels a side.
  static let bookChannelPrefix = "order_book_"

  /// `{"event":"bts:subscribe","data":{"channel":"live_trades_btcusd"}}` (`order_book_btcusd`
  /// for the top of book).
  static func request(_ event: String, market: String, stream: MarketStream = .trades) -> WebSocketMessage {
    var out: [UInt8] = Array(#"{"event":"#.utf8)
    JSONEscaping.appendQuoted(event, to: &out)
    out += Array(#","data":{"channel":"#.utf8)
    let prefix = stream == .trades ? tradesChannelPrefix : bookChannelPrefix
    JSONEscaping.appendQuoted(prefix + market, to: &out)
    out += Array("}}".utf8)
    return .text(String(decoding: out, as: UTF8.self))
  }

  // MARK: Staying connected

  /// None: Bitstamp sends a WebSocket ping about every 54 s, which the engine answers, and keeps
  /// a connection that sends nothing else (observed for 201 s without a subscription). Its
  /// `bts:heartbeat` is documented as a way to check the connection, not as a duty.
  public var keepalive: KeepaliveDuty? { nil }

  /// 1,024 channels a connection (a 1,025th subscription closes it, documented). No message rate
  /// is published.
  public var limits: VenueLimits { VenueLimits(symbolsPerConnection: 1024) }

  /// None: an unknown market is acknowledged and silent, as is a real one nobody trades, and
  /// `live_trades` sends nothing on subscribing, so silence after a while says nothing.
  public var firstQuoteDeadline: Duration? { nil }

  // MARK: Reading

  /// One trade a message, each a few hundred bytes: the model path is fast enough, so there is
  /// no specialised one.
  public func decode(_ message: WebSocketMessage) -> ProviderEvent {
    switch VenueJSON.parse(message, with: parser) {
    case .success(let json): BitstampMessage.event(json: json)
    case .failure(let error): .malformed("invalid JSON: \(error)")
    }
  }
}
