import JSON
import WebSocketWire

/// Gemini's market data v2, `wss://api.gemini.com/v2/marketdata`, its `l2` subscription, no key
/// (docs/protocols.md §10).
///
/// `{"type":"subscribe","subscriptions":[{"name":"l2","symbols":["BTCUSD"]}]}` is answered by
/// the symbol's first `l2_updates`: its whole book and its last trades, which are history (at
/// most the newest is printed, once). Then every trade comes as a `trade` message, and the book's
/// changes as further `l2_updates`, which are ignored. A symbol Gemini does not list is answered
/// `{"reason":"NoValidTradingPairs","result":"error"}`, which names no symbol: the ticker sends one
/// request per symbol, and takes the refusal for the one subscription still waiting for its book
/// (`decode(_:context:)`). Gemini sends `{"type":"heartbeat",…}` every 5 s; the client owes it
/// nothing. Prices are decimal strings, kept as sent.
///
/// The top of book comes from the same `l2` subscription (v2 has no other book channel): the first
/// `l2_updates` of a symbol is its whole book, the later ones its changes, kept per symbol in the
/// connection's `DecodingContext`; trades are then not printed.
public struct GeminiProvider: Provider {
  public let parser: JSONParser
  /// Trades, or the best bid and ask of the book the same `l2` subscription carries.
  public let stream: MarketStream

  public init(parser: JSONParser = JSONParser(), stream: MarketStream = .trades) {
    self.parser = parser
    self.stream = stream
  }

  /// The book of `l2` (the subscription is the one trades use): a quote after each `l2_updates`
  /// that moves the best bid or ask.
  public var topOfBook: (any Provider)? { GeminiProvider(parser: parser, stream: .topOfBook) }

  public var name: String { "gemini" }
  public var displayName: String { "Gemini" }

  public var defaultURL: WebSocketURL {
    WebSocketURL(isSecure: true, host: "api.gemini.com", port: 443, target: "/v2/marketdata")
  }

  public var exampleSymbol: String { "BTCUSD" }

  /// Gemini's public API takes 120 requests a minute from an address and answers more with 429;
  /// whether it counts WebSocket upgrades is not documented.
  public func handshakeAdvice(status: Int) -> String? {
    guard status == 429 else { return nil }
    return "Gemini limits its public API to 120 requests a minute per address: wait a minute before "
      + "connecting again"
  }

  // MARK: Symbols

  /// A symbol is the base and quote currencies run together in ASCII letters and digits,
  /// upper-cased (`btcusd` → `BTCUSD`): v2 refuses lower case.
  public func canonicalSymbol(_ symbol: String) -> Result<String, SymbolError> {
    if let pair = VenueJSON.upperCaseSymbol(symbol, parts: 1) { return .success(pair) }
    let shown = symbol.isEmpty ? "an empty symbol" : JSONEscaping.quoted(symbol)
    return .failure(
      SymbolError(
        "\(shown) is not a Gemini symbol: a symbol is the base and quote currencies run together in "
          + "letters and digits, such as BTCUSD"))
  }

  /// Gemini's quote currencies, longest first where one ends another (`GUSD` before `USD`).
  static let quoteCurrencies = [
    "GUSD", "USDT", "USDC", "DAI", "USD", "BTC", "ETH", "BCH", "EUR", "GBP", "SGD",
  ]
  /// Assets whose name ends like a quote currency (PAX Gold: `PAXGUSD` is PAXG in USD, not PAX
  /// in GUSD).
  static let assetsEndingInAQuote = ["PAXG"]

  /// Base and quote run together, split at a known quote currency (`BTCUSD` is BTC in USD,
  /// `ETHBTC` ETH in BTC, `BTCUSDT` BTC in USDT); nil for a perpetual (`BTCGUSDPERP`) and a symbol
  /// that ends in no known quote currency.
  public func market(of symbol: String) -> Market? {
    if symbol.hasSuffix("PERP") { return nil }
    for asset in Self.assetsEndingInAQuote where symbol.hasPrefix(asset) {
      let quote = String(symbol.dropFirst(asset.count))
      if Self.quoteCurrencies.contains(quote) { return Market(base: asset, quote: quote) }
    }
    for quote in Self.quoteCurrencies where symbol.hasSuffix(quote) && symbol.count > quote.count {
      return Market(base: String(symbol.dropLast(quote.count)), quote: quote)
    }
    return nil
  }

  /// Against the US dollar, Gemini's deepest quote currency.
  public func mainMarket(for asset: String) -> String? { asset.uppercased() + "USD" }

  // MARK: Subscriptions

  public var subscriptionStyle: SubscriptionStyle { .incremental }
  /// Each symbol's subscription is answered on its own: by its first book, or by an error that
  /// `decode(_:context:)` names it in.
  public var acknowledgement: Acknowledgement { .perSymbol }

  /// One `unsubscribe` naming every symbol removed, then one `subscribe` per symbol added; nothing
  /// when the sets agree. One symbol a subscribe: Gemini's refusal names none, and with one a
  /// request it belongs to the one subscription not answered yet.
  public func subscriptionMessages(from old: [String], to new: [String], ids: inout RequestIDs)
    -> [WebSocketMessage]
  {
    var messages: [WebSocketMessage] = []
    let removed = VenueJSON.missing(from: new, in: old)
    if !removed.isEmpty { messages.append(Self.request("unsubscribe", symbols: removed)) }
    messages += VenueJSON.missing(from: old, in: new).map { Self.request("subscribe", symbols: [$0]) }
    return messages
  }

  /// `{"type":"subscribe","subscriptions":[{"name":"l2","symbols":["BTCUSD"]}]}`, whatever the
  /// stream: `l2` carries both the trades and the book.
  static func request(_ type: String, symbols: [String]) -> WebSocketMessage {
    var out: [UInt8] = Array(#"{"type":"#.utf8)
    JSONEscaping.appendQuoted(type, to: &out)
    out += Array(#","subscriptions":[{"name":"l2","symbols":["#.utf8)
    VenueJSON.appendQuotedList(symbols, to: &out)
    out += Array("]}]}".utf8)
    return .text(String(decoding: out, as: UTF8.self))
  }

  // MARK: Staying connected

  /// None: Gemini sends a heartbeat every 5 s by itself (traffic for `--silence-timeout`), and
  /// documents nothing the client must send.
  public var keepalive: KeepaliveDuty? { nil }

  /// None: Gemini refuses a symbol it does not list.
  public var firstQuoteDeadline: Duration? { nil }

  /// Gemini documents no limit for its WebSocket feeds (the 120 requests a minute of its public
  /// API are HTTP requests).
  public var limits: VenueLimits { VenueLimits() }

  // MARK: Reading

  /// Needs the connection's subscriptions still waiting for their book, to name the symbol of a
  /// refusal; the first book's trades are history.
  public var usesDecodingContext: Bool { true }
  /// A subscribed symbol's first message (its first `l2_updates`) is history: the runtime notes
  /// each new subscription in `DecodingContext.historyDue`, which tells which wait for their book.
  public var backFillsOnSubscribe: Bool { true }

  /// Without a connection's books, a whole book reads on its own and a change is ignored
  /// (`decode(_:context:)` keeps them).
  public func decode(_ message: WebSocketMessage) -> ProviderEvent {
    guard stream == .topOfBook else { return reading(message).event }
    var context = DecodingContext()
    return decode(message, context: &context)
  }

  /// `decode(_:)`, knowing the subscriptions still waiting for their first book
  /// (`context.historyDue`, the runtime's): a book answers its symbol's, and a
  /// `NoValidTradingPairs` refusal names the symbol when exactly one is waiting. With several
  /// waiting (a refused symbol among others subscribed at the same moment) it names none: the
  /// error is reported, and the symbol stays without quotes.
  public func decode(_ message: WebSocketMessage, context: inout DecodingContext) -> ProviderEvent {
    let reading = reading(message)
    if let book = reading.book {
      let waiting = context.historyDue.remove(book) != nil
      guard stream == .topOfBook else { return reading.event }
      return GeminiBookChanges.event(
        message, symbol: book, isWholeBook: reading.isFirstBook || waiting, context: &context, parser: parser)
    }
    if stream == .topOfBook, case .quotes = reading.event { return .ignored("trade") }
    guard case .error(var error) = reading.event, error.name == "NoValidTradingPairs", error.symbol == nil,
      context.historyDue.count == 1, let waiting = context.historyDue.first
    else { return reading.event }
    context.historyDue.remove(waiting)
    error.symbol = waiting
    return .error(error)
  }

  /// Book updates (most of the traffic) are recognised from the bytes (`GeminiFastPath`); the
  /// rest goes through the model.
  func reading(_ message: WebSocketMessage) -> GeminiMessage.Reading {
    if let symbol = Self.bookUpdate(message) {
      return GeminiMessage.Reading(event: .ignored("l2_updates"), book: symbol)
    }
    return modelReading(message)
  }

  func modelReading(_ message: WebSocketMessage) -> GeminiMessage.Reading {
    switch GeminiMessage.parse(message, with: parser) {
    case .success(let json): GeminiMessage.reading(json: json)
    case .failure(let error): GeminiMessage.Reading(event: .malformed("invalid JSON: \(error)"))
    }
  }

  static func bookUpdate(_ message: WebSocketMessage) -> String? {
    switch message {
    case .text(var text): text.withUTF8 { GeminiFastPath.bookUpdate(UnsafeRawBufferPointer($0)) }
    case .binary(let bytes): bytes.withUnsafeBytes(GeminiFastPath.bookUpdate)
    }
  }

  /// Declines for the top of book, whose book updates are what it follows.
  public func fastDecode(_ message: WebSocketMessage) -> ProviderEvent? {
    guard stream == .trades else { return nil }
    return Self.bookUpdate(message).map { _ in .ignored("l2_updates") }
  }

  public func decodeThroughModel(_ message: WebSocketMessage) -> ProviderEvent {
    stream == .trades ? modelReading(message).event : decode(message)
  }
}
