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

  /// The subject `--publish` puts the venue's `symbol` (canonical) on.
  public func subject(for symbol: String) -> String {
    SubjectEscaping.subject(provider: venue.name, symbol: venue.serverSymbol(for: symbol))
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
    guard let priceText = object["price"]?.numberText, let price = Price(priceText) else {
      return .malformed("no \"price\" number")
    }
    guard let timeText = object["t"]?.numberText, let time = Int64(timeText) else {
      return .malformed("no \"t\" whole number")
    }
    if let provider = object["provider"]?.stringValue, provider != venue {
      return .ignored("a price of \(provider)")
    }
    var volume: Price?
    if let field = object["volume"], !field.isNull {
      guard let text = field.numberText, let parsed = Price(text) else {
        return .malformed("\"volume\" is not a number")
      }
      volume = parsed
    }
    var received: Int64 = 0
    if let field = object["rt"], !field.isNull {
      guard let text = field.numberText, let parsed = Int64(text) else {
        return .malformed("\"rt\" is not a whole number")
      }
      received = parsed
    }
    return .quotes([Quote(symbol: symbol, price: price, volume: volume, time: time, received: received)])
  }
}
