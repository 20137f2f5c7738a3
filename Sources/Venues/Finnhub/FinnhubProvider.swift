import JSON
import WebSocketWire

/// Finnhub's trade feed, `wss://ws.finnhub.io?token=…` (see docs/protocols.md §1).
public struct FinnhubProvider: Provider {
  public let parser: JSONParser

  public init(parser: JSONParser = JSONParser()) {
    self.parser = parser
  }

  public var name: String { "finnhub" }
  public var displayName: String { "Finnhub" }

  public var defaultURL: WebSocketURL {
    WebSocketURL(isSecure: true, host: "ws.finnhub.io", port: 443, target: "/")
  }

  public var tokenVariable: String? { "FINNHUB_TOKEN" }
  public var requiresToken: Bool { true }
  public var exampleSymbol: String { "BINANCE:BTCUSDT" }
  /// Crypto symbols name an exchange and its symbol: `BINANCE:BTCUSDT` (run together, as on
  /// Binance), `COINBASE:BTC-USD`, `KRAKEN:XBTUSD`-style pairs are read as run together too;
  /// a stock (`AAPL`) says no currency.
  public func market(of symbol: String) -> Market? {
    guard let colon = symbol.firstIndex(of: ":") else { return nil }
    let pair = String(symbol[symbol.index(after: colon)...])
    return Market.splitting(pair, at: "-") ?? Market.splitting(pair, at: "/")
      ?? Market.splittingRunTogether(pair)
  }
  /// Binance's market through Finnhub (Finnhub's crypto trades come from the exchanges).
  public func mainMarket(for asset: String) -> String? { "BINANCE:" + asset.uppercased() + "USDT" }

  /// Sets the `token` query item (replacing one already in `base`); `base` unchanged without one.
  public func endpoint(base: WebSocketURL, token: String?) -> WebSocketURL {
    guard let token, !token.isEmpty else { return base }
    return base.settingQueryItem("token", to: token)
  }

  public func handshakeAdvice(status: Int) -> String? {
    status == 401 || status == 403 ? "check FINNHUB_TOKEN" : nil
  }

  /// Finnhub symbols are free-form (`AAPL`, `BINANCE:BTCUSDT`, `IC MARKETS:1`) and sent as typed.
  public func canonicalSymbol(_ symbol: String) -> Result<String, SymbolError> {
    symbol.isEmpty ? .failure(SymbolError("a symbol cannot be empty")) : .success(symbol)
  }

  public var subscriptionStyle: SubscriptionStyle { .incremental }

  /// One `unsubscribe` per symbol removed, then one `subscribe` per symbol added.
  public func subscriptionMessages(from old: [String], to new: [String], ids: inout RequestIDs)
    -> [WebSocketMessage]
  {
    let kept = Set(new)
    let had = Set(old)
    return old.filter { !kept.contains($0) }.map { Self.message(type: "unsubscribe", symbol: $0) }
      + new.filter { !had.contains($0) }.map { Self.message(type: "subscribe", symbol: $0) }
  }

  public func subscribeMessages(for symbols: [String]) -> [WebSocketMessage] {
    symbols.map { Self.message(type: "subscribe", symbol: $0) }
  }

  public func unsubscribeMessages(for symbols: [String]) -> [WebSocketMessage] {
    symbols.map { Self.message(type: "unsubscribe", symbol: $0) }
  }

  static func message(type: String, symbol: String) -> WebSocketMessage {
    var out: [UInt8] = Array(#"{"type":"#.utf8)
    JSONEscaping.appendQuoted(type, to: &out)
    out += Array(#","symbol":"#.utf8)
    JSONEscaping.appendQuoted(symbol, to: &out)
    out.append(UInt8(ascii: "}"))
    return .text(String(decoding: out, as: UTF8.self))
  }

  /// Text frames and binary frames holding UTF-8 JSON are both accepted.
  public func decode(_ message: WebSocketMessage) -> ProviderEvent {
    // Trade batches and pings, the bulk of the traffic, take the specialised path; everything
    // else (and anything it is unsure of) goes through JSONValue and the APIResponse model.
    if let event = fastDecode(message) { return event }
    return decodeThroughModel(message)
  }

  public func decode(_ message: WebSocketMessage, appendingQuotesTo quotes: inout [Quote]) -> ProviderEvent? {
    var allInTable = false
    return decode(message, appendingQuotesTo: &quotes, table: nil, allInTable: &allInTable)
  }

  public func decode(
    _ message: WebSocketMessage, appendingQuotesTo quotes: inout [Quote], symbols: SymbolTable
  ) -> ProviderEvent? {
    var allInTable = false
    return decode(message, appendingQuotesTo: &quotes, table: symbols, allInTable: &allInTable)
  }

  public func decode(
    _ message: WebSocketMessage, appendingQuotesTo quotes: inout [Quote], symbols: SymbolTable,
    allInTable: inout Bool
  ) -> ProviderEvent? {
    decode(message, appendingQuotesTo: &quotes, table: symbols, allInTable: &allInTable)
  }

  private func decode(
    _ message: WebSocketMessage, appendingQuotesTo quotes: inout [Quote], table: SymbolTable?,
    allInTable: inout Bool
  ) -> ProviderEvent? {
    var unmatched = 0
    let verdict = message.withBytes {
      FinnhubFastPath.decode($0, appendingTo: &quotes, symbols: table, unmatched: &unmatched)
    }
    // The fast path's quotes take their symbols from the table when it has them.
    allInTable = verdict == .trades && table != nil && unmatched == 0
    switch verdict {
    case .trades: return nil
    case .keepalive: return .keepalive
    case .undecided:
      let event = decodeThroughModel(message)
      if case .quotes(let decoded) = event {
        quotes.append(contentsOf: decoded)
        return nil
      }
      return event
    }
  }

  public func decodeLarge(_ message: WebSocketMessage) -> LargeMessage? {
    FinnhubLargeMessage(parser: parser).decode(message)
  }

  /// The specialised decoder's verdict, or nil when the model path must decide.
  public func fastDecode(_ message: WebSocketMessage) -> ProviderEvent? {
    switch message {
    case .text(var text):
      return text.withUTF8 { FinnhubFastPath.decode(UnsafeRawBufferPointer($0)) }
    case .binary(let bytes):
      return bytes.withUnsafeBytes { FinnhubFastPath.decode($0) }
    }
  }

  /// Decodes through `JSONValue` and the `APIResponse`/`PriceData` models: the reference path.
  public func decodeThroughModel(_ message: WebSocketMessage) -> ProviderEvent {
    let json: JSONValue
    do throws(JSONError) {
      switch message {
      case .text(let text): json = try parser.parse(text)
      case .binary(let bytes): json = try parser.parse(bytes)
      }
    } catch {
      return .malformed("invalid JSON: \(error)")
    }
    return decode(json: json)
  }

  func decode(json: JSONValue) -> ProviderEvent {
    let response: APIResponse
    do throws(ShapeError) {
      response = try APIResponse(json: json)
    } catch {
      return .malformed(error.message)
    }
    switch response.type {
    case "trade":
      guard let data = response.data else { return .malformed(#"trade message without "data""#) }
      let quotes = data.map(\.quote)
      if response.dropped.isEmpty { return .quotes(quotes) }
      if quotes.isEmpty {
        return .malformed("every trade entry was invalid: " + response.dropped.joined(separator: "; "))
      }
      return .partial(quotes, dropped: response.dropped)
    case "ping":
      return .keepalive
    case "error":
      return .error(FinnhubProvider.error(response.msg))
    default:
      return .ignored(response.type)
    }
  }
}

extension FinnhubProvider {
  /// A Finnhub `{"type":"error","msg":…}`; `Invalid symbol X` names the symbol it refuses (the
  /// others still flow, so it is not fatal by itself).
  static func error(_ message: String?) -> VenueError {
    let text = message ?? "unspecified error"
    let prefix = "Invalid symbol "
    let symbol = text.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)) : nil
    return VenueError(message: text, fatal: false, symbol: symbol?.isEmpty == false ? symbol : nil)
  }
}
