import JSON
import NATS
import Venues
import WebSocketWire

/// A venue's prices as another ticker published them on NATS (`--publish`), read back with
/// `--source`: the venue's symbol rules, with subjects for subscriptions and the published JSON
/// lines for messages. Its transport is `NATSSource`, which turns the `SUB`/`UNSUB` texts
/// made here into the protocol's commands and hands over each delivered payload as a binary
/// message, and what it says about the server (a `-ERR`) as a text one.
public struct PublishedVenue: Provider {
  /// The venue whose prices the subjects carry.
  public let venue: any Provider

  public init(_ venue: any Provider) { self.venue = venue }

  /// The venue's name, so that lines, JSON and subjects name the venue, as the publisher's do.
  public var name: String { venue.name }
  public var displayName: String { venue.displayName + " (NATS)" }
  public var defaultURL: WebSocketURL { venue.defaultURL }
  public func canonicalSymbol(_ symbol: String) -> Result<String, SymbolError> {
    venue.canonicalSymbol(symbol)
  }
  public func serverSymbol(for symbol: String) -> String { venue.serverSymbol(for: symbol) }
  public var exampleSymbol: String { venue.exampleSymbol }
  public func market(of symbol: String) -> Market? { venue.market(of: symbol) }
  public func mainMarket(for asset: String) -> String? { venue.mainMarket(for: asset) }
  public var subscriptionStyle: SubscriptionStyle { .incremental }
  /// The venue's: its best bid and ask are read from their own subjects.
  public var stream: MarketStream { venue.stream }
  public var topOfBook: (any Provider)? { venue.topOfBook.map(PublishedVenue.init) }

  /// The subject `--publish` puts the venue's `symbol` (canonical) on.
  public func subject(for symbol: String) -> String {
    SubjectEscaping.subject(
      provider: venue.name, symbol: venue.serverSymbol(for: symbol), book: venue.stream == .topOfBook)
  }

  public func subscriptionMessages(from old: [String], to new: [String], ids: inout RequestIDs)
    -> [WebSocketMessage]
  {
    let before = Set(old)
    let after = Set(new)
    return old.filter { !after.contains($0) }.map { .text("UNSUB " + subject(for: $0)) }
      + new.filter { !before.contains($0) }.map { .text("SUB " + subject(for: $0)) }
  }

  public func decode(_ message: WebSocketMessage) -> ProviderEvent {
    switch message {
    case .binary(let payload): PublishedLine.decode(payload, venue: venue.name)
    case .text(let note): .error(VenueError(message: String(note.prefix(256)), fatal: false))
    }
  }
}

/// Reads one payload `--publish` sent: the `--format json` line of one price. Pure; never traps.
public enum PublishedLine {
  /// The quote, `received` being when the publisher received it (`rt`; 0 when it says null).
  public static func decode(_ payload: [UInt8], venue: String) -> ProviderEvent {
    let value: JSONValue
    do {
      value = try JSONParser(maxDepth: 4).parse(payload)
    } catch {
      return .malformed("not JSON: \(error)")
    }
    guard let object = value.objectValue else { return .malformed("not a JSON object") }
    guard let symbol = object["symbol"]?.stringValue else { return .malformed("no \"symbol\" string") }
    guard let timeText = object["t"]?.numberText, let time = Int64(timeText) else {
      return .malformed("no \"t\" whole number")
    }
    if let provider = object["provider"]?.stringValue, provider != venue {
      return .ignored("a price of \(provider)")
    }
    var received: Int64 = 0
    if let field = object["rt"], !field.isNull {
      guard let text = field.numberText, let parsed = Int64(text) else {
        return .malformed("\"rt\" is not a whole number")
      }
      received = parsed
    }
    if object["bid"] != nil {
      guard let bid = number(object, "bid"), let ask = number(object, "ask") else {
        return .malformed("no \"bid\" and \"ask\" numbers")
      }
      guard let bidSize = size(object, "bid_size"), let askSize = size(object, "ask_size") else {
        return .malformed("a size is not a number")
      }
      return .quotes([
        Quote(
          symbol: symbol, bid: bid, bidSize: bidSize, ask: ask, askSize: askSize, time: time,
          received: received)
      ])
    }
    guard let price = number(object, "price") else { return .malformed("no \"price\" number") }
    guard let volume = size(object, "volume") else {
      return .malformed("\"volume\" is not a number")
    }
    return .quotes([Quote(symbol: symbol, price: price, volume: volume, time: time, received: received)])
  }

  private static func number(_ object: JSONObject, _ key: String) -> Price? {
    object[key]?.numberText.flatMap { Price($0) }
  }

  /// An optional number: `.some(nil)` when absent or null, nil when it is not a number.
  private static func size(_ object: JSONObject, _ key: String) -> Price?? {
    guard let field = object[key], !field.isNull else { return .some(nil) }
    guard let text = field.numberText, let parsed = Price(text) else { return nil }
    return .some(parsed)
  }
}
