import JSON
import Recording
import TickerSupport
import Venues
import WebSocketServer

/// What Coinbase Exchange's feed does with a connection, as a pure state machine (docs/protocols.md §4):
///
/// - A successful `subscribe` must arrive within `subscribeDeadline` of the upgrade, or the
///   connection is dropped without a close frame (as clients report it: 1006, unexpected EOF).
///   A failed subscribe does not count.
/// - `{"type":"subscribe"|"unsubscribe","product_ids":[…],"channels":[…]}`, channels as names or
///   `{"name":…,"product_ids":[…]}` objects (top-level products apply to names and to objects
///   without their own): answered with `{"type":"subscriptions","channels":[…]}`, the whole
///   current subscription. A request with any invalid part changes nothing and is answered
///   `{"type":"error","message":"Failed to subscribe","reason":…}` (`X is not a valid product`,
///   `No channels provided`, …); the connection stays open, as the venue's clients observe.
/// - Products are upper-case `BASE-QUOTE` pairs the venue lists: those the script trades and a
///   built-in list of common ones (`knownProducts`); anything else is not a valid product. With
///   `acceptAnySymbol` (the demo) every product of that shape is valid.
/// - Ticker messages go out only for products subscribed on the `ticker` channel. They carry the
///   best bid and ask too (the top of book, `--bid-ask`, subscribes to the same channel).
/// - Other messages (malformed JSON, an unknown `type`, a binary frame) get an error too.
struct CoinbaseEmulator: VenueEmulator {
  let rules: CoinbaseRules
  /// Channel name → products, in subscription order.
  private(set) var channels: [(name: String, products: [String])] = []
  private(set) var requestCount = 0
  private var subscribedOnce = false
  private var closed = false
  private var afterScriptedError = false
  private let products: Set<String>
  /// Whether every well-formed product (`ProductCode`) is valid, not only the listed ones.
  private let acceptAnySymbol: Bool
  /// The latest ticker per product (the synthetic stream continues from it).
  private var latest: [String: JSONObject] = [:]
  private var scriptLatest: [String: JSONObject] = [:]
  private var sequence: Int64 = 1
  private var tradeID: Int64 = 1

  /// Products accepted besides those the script trades.
  static let knownProducts: Set<String> = [
    "BTC-USD", "ETH-USD", "SOL-USD", "LTC-USD", "DOGE-USD", "XRP-USD", "ADA-USD", "AVAX-USD", "LINK-USD",
    "DOT-USD", "BCH-USD", "USDT-USD", "BTC-EUR", "ETH-EUR", "BTC-GBP", "ETH-GBP", "ETH-BTC", "BTC-USDT",
    "ETH-USDT",
  ]
  /// Channels of the Exchange feed.
  static let knownChannels: Set<String> = [
    "ticker", "ticker_batch", "heartbeat", "status", "level2", "level2_batch", "matches", "full", "user",
    "auctionfeed", "rfq_matches", "balance",
  ]

  init(script: SessionScript, rules: CoinbaseRules, acceptAnySymbol: Bool = false) {
    self.rules = rules
    self.acceptAnySymbol = acceptAnySymbol
    var products = Self.knownProducts
    for step in script.steps where step.direction == .server && (step.kind == .text || step.kind == .binary) {
      guard let value = try? JSONParser().parse(step.body), let ticker = value.objectValue,
        value["type"]?.stringValue == "ticker", let product = value["product_id"]?.stringValue
      else { continue }
      products.insert(product)
      scriptLatest[product] = ticker
      if let number = value["sequence"]?.numberText.flatMap({ Int64($0) }) {
        sequence = max(sequence, number + 1)
      }
      if let number = value["trade_id"]?.numberText.flatMap({ Int64($0) }) {
        tradeID = max(tradeID, number + 1)
      }
    }
    self.products = products
  }

  static func error(_ message: String, reason: String) -> String {
    #"{"type":"error","message":\#(JSONEscaping.quoted(message)),"reason":\#(JSONEscaping.quoted(reason))}"#
  }

  /// The products of the `ticker` channel.
  var tickerProducts: [String] { channels.first { $0.name == "ticker" }?.products ?? [] }

  /// The `subscriptions` reply: the whole current subscription.
  var subscriptionsMessage: String {
    let list = channels.map { channel in
      let ids = channel.products.map(JSONEscaping.quoted).joined(separator: ",")
      return #"{"name":\#(JSONEscaping.quoted(channel.name)),"product_ids":[\#(ids)]}"#
    }
    return #"{"type":"subscriptions","channels":[\#(list.joined(separator: ","))]}"#
  }

  // MARK: VenueEmulator

  func admit(_ request: ServerHandshake.Request) -> Admission { .accept }

  mutating func receive(_ input: ClientInput, at now: Duration) -> [EmulatorAction] {
    if closed { return [] }
    switch input {
    case .ping, .pong: return []
    case .binary: return [.text(Self.error("Malformed JSON", reason: "expected a text message"))]
    case .text(let text):
      guard let value = try? JSONParser().parse(text), case .object(let object) = value else {
        return [.text(Self.error("Malformed JSON", reason: "not a JSON object"))]
      }
      let type = object["type"]?.stringValue ?? ""
      guard type == "subscribe" || type == "unsubscribe" else {
        return [.text(Self.error("Failed to parse message", reason: "\(type) is not a valid message type"))]
      }
      requestCount += 1
      switch change(object, subscribe: type == "subscribe") {
      case .failure(let reason):
        let message = type == "subscribe" ? "Failed to subscribe" : "Failed to unsubscribe"
        return [.text(Self.error(message, reason: reason.text)), .violation(.invalidRequest(reason.text))]
      case .success(let updated):
        channels = updated
        if type == "subscribe" { subscribedOnce = true }
        return [.text(subscriptionsMessage)]
      }
    }
  }

  struct Reason: Error, Equatable {
    var text: String
  }

  /// The subscription after `request`, or why the request is refused (then nothing changes).
  private func change(_ request: JSONObject, subscribe: Bool) -> Result<
    [(name: String, products: [String])], Reason
  > {
    let topLevel = request["product_ids"]?.arrayValue
    guard let list = request["channels"]?.arrayValue, !list.isEmpty else {
      return .failure(Reason(text: "No channels provided"))
    }
    var updated = channels
    for entry in list {
      let name: String
      var ids = topLevel
      if let text = entry.stringValue {
        name = text
      } else if let object = entry.objectValue, let text = object["name"]?.stringValue {
        name = text
        if let own = object["product_ids"]?.arrayValue { ids = own }
      } else {
        return .failure(Reason(text: "Invalid channel"))
      }
      guard Self.knownChannels.contains(name) else {
        return .failure(Reason(text: "\(name) is not a valid channel"))
      }
      let names = (ids ?? []).compactMap(\.stringValue)
      guard names.count == (ids ?? []).count else { return .failure(Reason(text: "Invalid product_ids")) }
      if let bad = names.first(where: { !isValid(product: $0) }) {
        return .failure(Reason(text: "\(bad) is not a valid product"))
      }
      let index = updated.firstIndex { $0.name == name }
      if subscribe {
        guard !names.isEmpty || name == "status" else {
          return .failure(Reason(text: "You need to specify at least one product ID for channel \(name)"))
        }
        if let index {
          for id in names where !updated[index].products.contains(id) { updated[index].products.append(id) }
        } else {
          updated.append((name, names))
        }
      } else if let index {
        if names.isEmpty {
          updated.remove(at: index)
        } else {
          updated[index].products.removeAll { names.contains($0) }
          if updated[index].products.isEmpty && name != "status" { updated.remove(at: index) }
        }
      }
    }
    return .success(updated)
  }

  private func isValid(product: String) -> Bool {
    products.contains(product) || (acceptAnySymbol && ProductCode.isWellFormed(product))
  }

  mutating func outgoing(_ step: SessionScript.Step, at now: Duration) -> [EmulatorAction] {
    if closed { return [] }
    switch step.kind {
    case .text, .binary:
      guard let value = try? JSONParser().parse(step.body), let type = value["type"]?.stringValue else {
        return [.text(step.body)]
      }
      afterScriptedError = type == "error"
      switch type {
      case "error", "subscriptions":
        return []
      case "ticker":
        guard let object = value.objectValue, let product = value["product_id"]?.stringValue else {
          return []
        }
        latest[product] = object
        return tickerProducts.contains(product) ? [.text(step.body)] : []
      default:
        return [.text(step.body)]
      }
    case .ping:
      afterScriptedError = false
      return [.ping(Array(step.body.utf8.prefix(125)))]
    case .close:
      if afterScriptedError { return [] }
      closed = true
      return [.close(SessionScript.closeStatus(step.body))]
    case .http, .raw:
      return []
    }
  }

  mutating func tick(at now: Duration) -> [EmulatorAction] {
    guard !closed, let deadline = subscribeDeadline, deadline <= now else { return [] }
    closed = true
    return [.violation(.noSubscription), .drop]
  }

  private var subscribeDeadline: Duration? {
    subscribedOnce ? nil : rules.subscribeDeadline.map { .seconds(fractional: $0) }
  }

  var nextDeadline: Duration? { closed ? nil : subscribeDeadline }

  var isClosing: Bool { closed }

  func isReady(awaiting: Int) -> Bool {
    tickerProducts.count >= max(1, awaiting) || requestCount >= max(1, awaiting)
  }

  var subscribed: [String] { tickerProducts }

  var lastPrices: [String: (price: String, time: Int64)] {
    var prices: [String: (price: String, time: Int64)] = [:]
    for (product, ticker) in scriptLatest.merging(latest, uniquingKeysWith: { $1 }) {
      guard let price = ticker["price"]?.stringValue,
        let time = ticker["time"]?.stringValue.flatMap(RFC3339.milliseconds)
      else { continue }
      prices[product] = (price, time)
    }
    return prices
  }

  mutating func synthetic(_ trades: [SyntheticTrade]) -> [EmulatorAction] {
    if closed { return [] }
    return trades.flatMap { trade -> [EmulatorAction] in
      guard tickerProducts.contains(trade.symbol) else { return [] }
      let price = SyntheticTrades.format(cents: trade.cents, places: 2)
      var ticker =
        latest[trade.symbol] ?? scriptLatest[trade.symbol] ?? Self.firstTicker(of: trade.symbol, price: price)
      ticker["type"] = .string("ticker")
      ticker["sequence"] = .number(String(sequence))
      ticker["product_id"] = .string(trade.symbol)
      ticker["price"] = .string(price)
      // The book around the trade (`--bid-ask` reads these fields of the same message).
      let book = trade.book
      ticker["best_bid"] = .string(SyntheticTrades.format(cents: book.bidCents, places: 2))
      ticker["best_bid_size"] = .string(SyntheticTrades.format(volume: book.bidSize, places: 8))
      ticker["best_ask"] = .string(SyntheticTrades.format(cents: book.askCents, places: 2))
      ticker["best_ask_size"] = .string(SyntheticTrades.format(volume: book.askSize, places: 8))
      ticker["side"] = .string(trade.up ? "buy" : "sell")
      ticker["time"] = .string(RFC3339.format(microseconds: trade.time * 1000 + Int64(trade.volume % 1000)))
      ticker["trade_id"] = .number(String(tradeID))
      ticker["last_size"] = .string(SyntheticTrades.format(volume: trade.volume, places: 8))
      sequence += 1
      tradeID += 1
      latest[trade.symbol] = ticker
      return [.text(JSONValue.object(ticker).serialized)]
    }
  }

  var syntheticKeepalive: (action: EmulatorAction, seconds: Double)? { nil }

  /// Any product of the venue's shape (`ETH-EUR`).
  func walkStart(for symbol: String) -> WalkStart? { ProductCode.isWellFormed(symbol) ? .dollars : nil }

  /// The ticker of a product the script never traded, before its first synthetic trade: the
  /// venue's fields in its order, the day's open, low and high at the walk's start `price`, no
  /// volume yet.
  static func firstTicker(of product: String, price: String) -> JSONObject {
    let none = JSONValue.string("0.00000000")
    let start = JSONValue.string(price)
    return JSONObject([
      ("type", .string("ticker")), ("sequence", .number("0")), ("product_id", .string(product)),
      ("price", start), ("open_24h", start), ("volume_24h", none), ("low_24h", start), ("high_24h", start),
      ("volume_30d", none), ("best_bid", start), ("best_bid_size", none), ("best_ask", start),
      ("best_ask_size", none), ("side", .string("buy")), ("time", .string("")), ("trade_id", .number("0")),
      ("last_size", none),
    ])
  }
}
