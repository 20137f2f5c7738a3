import JSON
import WebSocketWire

/// Binance Spot trade streams, `wss://stream.binance.com:9443/stream`, no key (docs/protocols.md §3).
///
/// The default target is the combined-stream endpoint, so every payload arrives wrapped as
/// `{"stream":"btcusdt@trade","data":{…}}`; bare payloads (from `/ws/<symbol>@trade`) are read
/// too. Streams are added and removed on the open connection with `SUBSCRIBE`/`UNSUBSCRIBE`
/// requests numbered by `id`, answered `{"result":null,"id":n}` or with an error. Binance pings
/// every 20 s and drops a client that does not pong within a minute (the engine answers), and
/// closes with 1008 a connection that sends more than 5 messages a second, pongs included.
public struct BinanceProvider: Provider {
  public let parser: JSONParser
  /// Trades (`<symbol>@trade`) or the best bid and ask (`<symbol>@bookTicker`).
  public let stream: MarketStream

  public init(parser: JSONParser = JSONParser(), stream: MarketStream = .trades) {
    self.parser = parser
    self.stream = stream
  }

  /// `<symbol>@bookTicker`: every change of the best bid or ask, with both sizes, as it happens.
  public var topOfBook: (any Provider)? { BinanceProvider(parser: parser, stream: .topOfBook) }

  public var name: String { "binance" }
  public var displayName: String { "Binance" }

  public var defaultURL: WebSocketURL {
    WebSocketURL(isSecure: true, host: "stream.binance.com", port: 9443, target: "/stream")
  }

  public var exampleSymbol: String { "BTCUSDT" }
  /// Run together, the quote currency last: `BTCUSDT` is BTC in USDT.
  public func market(of symbol: String) -> Market? { Market.splittingRunTogether(symbol) }
  /// Against USDT, Binance's deepest quote currency.
  public func mainMarket(for asset: String) -> String? { asset.uppercased() + "USDT" }

  /// Binance answers 451 at the handshake to addresses in places it does not serve.
  public func handshakeAdvice(status: Int) -> String? {
    guard status == 451 else { return nil }
    return "Binance refuses connections from this location (HTTP 451 Unavailable For Legal Reasons); "
      + "retrying will not help. Use --url with an endpoint that serves your location: in the United "
      + "States that is Binance.US, a separate exchange with its own markets and the same stream "
      + "format (--url wss://stream.binance.us:9443/stream)"
  }

  // MARK: Symbols

  /// Letters and digits, either case (`btcusdt`, `BTCUSDT`) → upper case, as trades name them.
  public func canonicalSymbol(_ symbol: String) -> Result<String, SymbolError> {
    if let upper = VenueJSON.upperCaseSymbol(symbol, parts: 1) { return .success(upper) }
    let shown = symbol.isEmpty ? "an empty symbol" : JSONEscaping.quoted(symbol)
    return .failure(
      SymbolError(
        "\(shown) is not a Binance symbol: a symbol is letters and digits, such as BTCUSDT or btcusdt"))
  }

  /// The trade stream of a canonical symbol: `BTCUSDT` → `btcusdt@trade` (stream names are lower
  /// case); of the top of book, `btcusdt@bookTicker`.
  public static func streamName(for symbol: String, stream: MarketStream = .trades) -> String {
    String(decoding: symbol.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
      + (stream == .trades ? "@trade" : "@bookTicker")
  }

  // MARK: Subscriptions

  public var subscriptionStyle: SubscriptionStyle { .incremental }
  /// `{"result":null,"id":n}` and `{"error":{…},"id":n}` name the request they answer.
  public var acknowledgement: Acknowledgement { .byID }

  /// One `UNSUBSCRIBE` naming every stream removed, then one `SUBSCRIBE` naming every stream
  /// added, each with the next id from `ids` (Binance answers by id); nothing when the sets agree.
  public func subscriptionMessages(from old: [String], to new: [String], ids: inout RequestIDs)
    -> [WebSocketMessage]
  {
    var messages: [WebSocketMessage] = []
    let removed = VenueJSON.missing(from: new, in: old)
    if !removed.isEmpty {
      messages.append(Self.request("UNSUBSCRIBE", symbols: removed, stream: stream, id: ids.next()))
    }
    let added = VenueJSON.missing(from: old, in: new)
    if !added.isEmpty {
      messages.append(Self.request("SUBSCRIBE", symbols: added, stream: stream, id: ids.next()))
    }
    return messages
  }

  /// `{"method":"SUBSCRIBE","params":["btcusdt@trade",…],"id":1}`.
  static func request(_ method: String, symbols: [String], stream: MarketStream = .trades, id: Int)
    -> WebSocketMessage
  {
    var out: [UInt8] = Array(#"{"method":"#.utf8)
    JSONEscaping.appendQuoted(method, to: &out)
    out += Array(#","params":["#.utf8)
    VenueJSON.appendQuotedList(symbols.map { Self.streamName(for: $0, stream: stream) }, to: &out)
    out += Array(#"],"id":\#(id)}"#.utf8)
    return .text(String(decoding: out, as: UTF8.self))
  }

  // MARK: Staying connected

  /// Nothing from the client: Binance pings every 20 s and the engine answers each ping with a
  /// pong echoing its payload (which counts towards the 5 messages a second).
  public var keepalive: KeepaliveDuty? { nil }

  /// None: a trade stream says nothing until a trade happens, so a quiet market and an unknown
  /// symbol (acknowledged, then silent) look alike, and a deadline would warn about quiet markets.
  public var firstQuoteDeadline: Duration? { nil }

  /// 5 messages a second per connection, pongs included (over that: close 1008); 1024 streams.
  public var limits: VenueLimits { VenueLimits(messagesPerSecond: 5, symbolsPerConnection: 1024) }

  // MARK: Reading

  public func decode(_ message: WebSocketMessage) -> ProviderEvent {
    if let event = fastDecode(message) { return event }
    return decodeThroughModel(message)
  }

  public func decode(_ message: WebSocketMessage, appendingQuotesTo quotes: inout [Quote]) -> ProviderEvent? {
    var inTable = false
    if let quote = Self.fast(message, table: nil, inTable: &inTable) {
      quotes.append(quote)
      return nil
    }
    let event = decodeThroughModel(message)
    if case .quotes(let decoded) = event {
      quotes.append(contentsOf: decoded)
      return nil
    }
    return event
  }

  /// The hot path with the subscribed symbols: a quote's symbol is the table's own string
  /// where it is there, and `allInTable` says so (no second look-up by the filter).
  public func decode(
    _ message: WebSocketMessage, appendingQuotesTo quotes: inout [Quote], symbols: SymbolTable,
    allInTable: inout Bool
  ) -> ProviderEvent? {
    var inTable = false
    if let quote = Self.fast(message, table: symbols, inTable: &inTable) {
      quotes.append(quote)
      allInTable = inTable
      return nil
    }
    allInTable = false
    let event = decodeThroughModel(message)
    if case .quotes(let decoded) = event {
      quotes.append(contentsOf: decoded)
      return nil
    }
    return event
  }

  /// The specialised decoder's verdict, or nil when the model path must decide.
  public func fastDecode(_ message: WebSocketMessage) -> ProviderEvent? {
    var inTable = false
    return Self.fast(message, table: nil, inTable: &inTable).map { .quotes([$0]) }
  }

  /// `BinanceFastPath` on the message's bytes where they are.
  private static func fast(_ message: WebSocketMessage, table: SymbolTable?, inTable: inout Bool) -> Quote? {
    switch message {
    case .text(var text):
      text.withUTF8 { BinanceFastPath.trade(UnsafeRawBufferPointer($0), table: table, inTable: &inTable) }
    case .binary(let bytes):
      bytes.withUnsafeBytes { BinanceFastPath.trade($0, table: table, inTable: &inTable) }
    }
  }

  /// Decodes through `JSONValue` and `BinanceMessage`: the reference path.
  public func decodeThroughModel(_ message: WebSocketMessage) -> ProviderEvent {
    switch VenueJSON.parse(message, with: parser) {
    case .success(let json): BinanceMessage.event(json: json)
    case .failure(let error): .malformed("invalid JSON: \(error)")
    }
  }
}
