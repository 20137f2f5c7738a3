import FeedRuntime
import Outputs
import Recording
import Venues
import WebSocketWire

/// A venue for testing the machine's handling of what venues differ in: how a subscription
/// changes, how requests are answered, limits, keepalive and first-quote deadlines. Its wire
/// format is deliberately plain text so tests can pin every message:
///
///     client: "sub A,B #1"  "unsub A #2"  "list A,B #3"   (the id or ticket after #)
///     server: "q SYMBOL PRICE TIME"  "ack N"  "ack"  "err N text"  "nosym SYMBOL"  "fatal text"  "bye text"  "up"
struct TestVenue: Provider {
  var style: SubscriptionStyle = .incremental
  var acknowledgement: Acknowledgement = .none
  var limits = VenueLimits()
  var keepalive: KeepaliveDuty? = nil
  var firstQuoteDeadline: Duration? = nil

  var name: String { "test" }
  var displayName: String { "Test" }
  var defaultURL: WebSocketURL { WebSocketURL(isSecure: false, host: "127.0.0.1", port: 9, target: "/") }
  var exampleSymbol: String { "A" }
  func market(of symbol: String) -> Market? { Market.splitting(symbol, at: "-") }
  func mainMarket(for asset: String) -> String? { asset + "-USD" }
  var subscriptionStyle: SubscriptionStyle { style }

  /// Upper case; no spaces.
  func canonicalSymbol(_ symbol: String) -> Result<String, SymbolError> {
    guard !symbol.isEmpty, !symbol.contains(" ") else { return .failure(SymbolError("no spaces")) }
    return .success(symbol.uppercased())
  }

  func subscriptionMessages(from old: [String], to new: [String], ids: inout RequestIDs) -> [WebSocketMessage]
  {
    switch style {
    case .wholeList:
      guard new != old, !new.isEmpty else { return [] }
      return [.text("list \(new.joined(separator: ",")) #\(ids.prefix)-\(ids.next())")]
    case .incremental:
      let removed = old.filter { !new.contains($0) }
      let added = new.filter { !old.contains($0) }
      var out: [WebSocketMessage] = []
      if !removed.isEmpty { out.append(.text("unsub \(removed.joined(separator: ",")) #\(ids.next())")) }
      if !added.isEmpty { out.append(.text("sub \(added.joined(separator: ",")) #\(ids.next())")) }
      return out
    }
  }

  func decode(_ message: WebSocketMessage) -> ProviderEvent {
    guard case .text(let text) = message else { return .malformed("binary") }
    let words = text.split(separator: " ", maxSplits: 3).map(String.init)
    switch words.first {
    case "q" where words.count == 4:
      guard let price = Price(words[2]), let time = Int64(words[3]) else { return .malformed(text) }
      return .quotes([Quote(symbol: words[1], price: price, time: time)])
    case "ack": return .acknowledged(id: words.count > 1 ? Int(words[1]) : nil)
    case "err":
      return .error(
        VenueError(message: words.dropFirst(2).joined(separator: " "), requestID: Int(words[1]), fatal: false)
      )
    case "nosym" where words.count == 2:
      return .error(VenueError(message: "Invalid symbol \(words[1])", fatal: false, symbol: words[1]))
    case "fatal":
      return .error(VenueError(name: "FATAL", message: words.dropFirst().joined(separator: " "), fatal: true))
    case "bye": return .closingSoon(words.dropFirst().joined(separator: " "))
    case "up": return .keepalive
    default: return .ignored(words.first ?? "")
    }
  }
}

func quote(_ symbol: String, _ price: String, _ time: Int64) -> WebSocketMessage {
  .text("q \(symbol) \(price) \(time)")
}

extension [FeedAction] {
  /// The texts of every `.send`, flattened.
  var sent: [String] {
    flatMap { action -> [String] in
      guard case .send(let messages) = action else { return [] }
      return messages.map { if case .text(let t) = $0 { t } else { "<binary>" } }
    }
  }

  /// Every published quote as "SYMBOL PRICE".
  var published: [String] {
    flatMap { action -> [String] in
      guard case .publish(let quotes) = action else { return [] }
      return quotes.map { "\($0.symbol) \($0.price.text)" }
    }
  }

  var reports: [FeedReport] {
    compactMap { if case .report(let report) = $0 { report } else { nil } }
  }
}
