import JSON
import TickerSupport
import Venues

/// The texts the Hyperliquid emulation writes, in the venue's shapes (docs/protocols.md §7): the
/// greeting, answers, errors, the pong and `trades` messages.
enum HyperliquidWire {
  /// The text a connection gets first, before any request (not JSON).
  static let greeting = "Websocket connection established."
  static let pong = #"{"channel":"pong"}"#

  /// `{"type":"trades","coin":"BTC"}` (or `"type":"bbo"`), as the venue echoes a subscription.
  static func subscription(coin: String, type: String = "trades") -> String {
    #"{"type":\#(JSONEscaping.quoted(type)),"coin":\#(JSONEscaping.quoted(coin))}"#
  }

  /// `{"channel":"subscriptionResponse","data":{"method":"subscribe","subscription":{…}}}`.
  static func answer(_ method: String, coin: String, type: String = "trades") -> String {
    #"{"channel":"subscriptionResponse","data":{"method":\#(JSONEscaping.quoted(method)),"subscription":"#
      + subscription(coin: coin, type: type) + "}}"
  }

  /// `{"channel":"bbo","data":{"coin":"BTC","time":…,"bbo":[{"px":…,"sz":…,"n":…},{…}]}}`: the
  /// best bid and offer around a trade, prices and sizes as fills write them.
  static func bbo(coin: String, book: SyntheticBook, time: Int64) -> String {
    func level(_ cents: Int64, _ size: Int, _ orders: Int) -> String {
      #"{"px":"\#(price(cents: cents))","sz":"\#(trimmed(SyntheticTrades.format(volume: size, places: 5)))","n":\#(orders)}"#
    }
    let bid = level(book.bidCents, book.bidSize, 1 + book.bidSize % 7)
    let ask = level(book.askCents, book.askSize, 1 + book.askSize % 5)
    return
      #"{"channel":"bbo","data":{"coin":\#(JSONEscaping.quoted(coin)),"time":\#(time),"bbo":[\#(bid),\#(ask)]}}"#
  }

  /// `{"channel":"error","data":"…"}`.
  static func error(_ text: String) -> String { #"{"channel":"error","data":\#(JSONEscaping.quoted(text))}"# }

  /// Why Hyperliquid refuses a request, in its words (each quoting what it refuses).
  enum Refusal: Error, Sendable, Equatable {
    /// A message that is no request: it quotes it.
    case unreadable(String)
    /// A subscription it cannot serve (a coin it does not list, another type than `trades` and
    /// `bbo` here).
    case invalid(subscription: String)
    case alreadySubscribed(subscription: String)
    case alreadyUnsubscribed(subscription: String)
    /// Over the subscription limit (the wording is not documented).
    case tooManySubscriptions(subscription: String)
    /// Over the message rate (the wording is not documented).
    case tooManyMessages

    var message: String {
      switch self {
      case .unreadable(let text): "Error parsing JSON into valid websocket request: \(text)"
      case .invalid(let subscription): "Invalid subscription: \(subscription)"
      case .alreadySubscribed(let subscription): "Already subscribed: \(subscription)"
      case .alreadyUnsubscribed(let subscription): "Already unsubscribed: \(subscription)"
      case .tooManySubscriptions(let subscription): "Too many subscriptions: \(subscription)"
      case .tooManyMessages: "Too many messages"
      }
    }
  }

  /// A `trades` message of these fills (one coin's, one block's).
  static func trades(_ fills: [JSONObject]) -> String {
    #"{"channel":"trades","data":["# + fills.map { JSONValue.object($0).serialized }.joined(separator: ",")
      + "]}"
  }

  /// The fills of a `trades` message, in order; empty for any other message.
  static func fills(_ text: String) -> [JSONObject] {
    guard let value = try? JSONParser().parse(text), value["channel"]?.stringValue == "trades" else {
      return []
    }
    return value["data"]?.arrayValue?.compactMap(\.objectValue) ?? []
  }

  /// A synthetic trade as a Hyperliquid fill: the venue's fields in its order, the taker's side
  /// (buying when the price went up), a price with at least one decimal (`97432.0`), a size
  /// without trailing zeros, and a block hash and trade id made from the trade.
  static func fill(_ trade: SyntheticTrade) -> JSONObject {
    let mix = FNV1a.hash("\(trade.symbol) \(trade.time) \(trade.cents) \(trade.volume)")
    let hex = Hex.string(mix, digits: 16)
    return JSONObject([
      ("coin", .string(trade.symbol)), ("side", .string(trade.up ? "B" : "A")),
      ("px", .string(price(cents: trade.cents))),
      ("sz", .string(trimmed(SyntheticTrades.format(volume: trade.volume, places: 5)))),
      ("time", .number(String(trade.time))), ("hash", .string("0x" + String(repeating: hex, count: 4))),
      ("tid", .number(String(mix >> 14))), ("users", .array([.string(buyer), .string(seller)])),
    ])
  }

  static let buyer = "0x9b54264d7502f80163ea949038aad771eae67e38"
  static let seller = "0x706bb519b05b7dc01d048af9a5e29d1ef5d6d9e3"

  /// 9743200 → "97432.0", 9743250 → "97432.5", 9743217 → "97432.17".
  static func price(cents: Int64) -> String {
    let text = SyntheticTrades.format(cents: cents)
    return text.utf8.contains(UInt8(ascii: ".")) ? text : text + ".0"
  }

  /// A decimal without trailing zeros after its point (`0.01000` → `0.01`).
  static func trimmed(_ decimal: String) -> String {
    guard decimal.utf8.contains(UInt8(ascii: ".")) else { return decimal }
    var text = Substring(decimal)
    while text.hasSuffix("0") { text = text.dropLast() }
    if text.hasSuffix(".") { text = text.dropLast() }
    return String(text)
  }
}
