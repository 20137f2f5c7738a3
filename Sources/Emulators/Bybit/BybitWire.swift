import JSON
import Venues

/// The texts the Bybit emulation writes, in the venue's shapes (docs/protocols.md §9): answers
/// to requests, refusals, the pong, and `publicTrade` messages.
enum BybitWire {
  /// The connection id Bybit puts in every answer (one per connection on the venue; the emulation
  /// does not tell its connections apart, and uses the recorded session's).
  static let connID = "d3kq8v6f1lq9eoj0c2ng-5zvw1"

  /// `{"success":true,"ret_msg":"subscribe","conn_id":"…","req_id":"1","op":"subscribe"}`; no
  /// `req_id` when the request had none.
  static func answer(op: String, requestID: String?) -> String {
    #"{"success":true,"ret_msg":\#(JSONEscaping.quoted(op)),"conn_id":"\#(connID)""#
      + requestIDMember(requestID) + #","op":\#(JSONEscaping.quoted(op))}"#
  }

  /// `{"success":false,"ret_msg":"Invalid symbol :[publicTrade.NOPEUSDT]","conn_id":"…","req_id":"2","op":"subscribe"}`;
  /// no `req_id` when the request had none, no `op` when it could not be read.
  static func refusal(_ refusal: Refusal, op: String?, requestID: String?) -> String {
    #"{"success":false,"ret_msg":\#(JSONEscaping.quoted(refusal.message)),"conn_id":"\#(connID)""#
      + requestIDMember(requestID) + (op.map { #","op":\#(JSONEscaping.quoted($0))"# } ?? "") + "}"
  }

  /// The spot pong, which names no `req_id` whatever the ping said.
  static var pong: String { #"{"success":true,"ret_msg":"pong","conn_id":"\#(connID)","op":"ping"}"# }

  private static func requestIDMember(_ id: String?) -> String {
    id.map { #","req_id":\#(JSONEscaping.quoted($0))"# } ?? ""
  }

  /// Why Bybit refuses a request: its `ret_msg`. The texts of an unknown symbol, an unknown
  /// topic, a topic held already, too many topics, an unknown `op` and an unreadable message are
  /// Bybit's (observed); the others are the emulation's own words.
  struct Refusal: Error, Sendable, Equatable {
    var message: String

    static func invalidSymbol(topic: String) -> Refusal { Refusal(message: "Invalid symbol :[\(topic)]") }
    static func handlerNotFound(topic: String) -> Refusal {
      Refusal(message: "error:handler not found,topic:\(topic)")
    }
    static func alreadySubscribed(topic: String) -> Refusal {
      Refusal(message: "error:already subscribed,topic:\(topic)")
    }
    static func argsSize(limit: Int) -> Refusal { Refusal(message: "args size >\(limit)") }
    static var invalidOp: Refusal { Refusal(message: "error:invalid op") }
    static var invalidArgs: Refusal { Refusal(message: "error:invalid args") }
    /// What Bybit's JSON reader says of a message that is no JSON object.
    static func undecodable(_ text: String) -> Refusal {
      let found = text.first.map { String($0) } ?? "EOF"
      return Refusal(
        message: "Failed to decode incoming data:readObjectStart: expect { or n, but found \(found)")
    }
  }

  // MARK: Trades

  /// The prefix of the trade topics.
  static let tradeTopic = "publicTrade."

  /// The topic of `symbol`'s trades.
  static func topic(_ symbol: String) -> String { tradeTopic + symbol }

  /// A `publicTrade` message of `entries` (each already in its wire text), sent at `ts`.
  static func trades(symbol: String, ts: Int64, entries: [String]) -> String {
    #"{"topic":\#(JSONEscaping.quoted(topic(symbol))),"ts":\#(ts),"type":"snapshot","data":["#
      + entries.joined(separator: ",") + "]}"
  }

  /// One trade as spot writes it: id, time, price, size, taker side, cross sequence, symbol, and
  /// the block-trade and RPI flags.
  static func entry(
    id: Int64, time: Int64, price: String, size: String, buy: Bool, seq: Int64, symbol: String
  ) -> String {
    #"{"i":"\#(id)","T":\#(time),"p":"\#(price)","v":"\#(size)","S":"\#(buy ? "Buy" : "Sell")","#
      + #""seq":\#(seq),"s":\#(JSONEscaping.quoted(symbol)),"BT":false,"RPI":false}"#
  }

  // MARK: The level-1 book

  /// The prefix of the level-1 book topics.
  static let bookTopic = "orderbook.1."

  /// An `orderbook.1` message of `symbol`: a snapshot of `book` when there is no `previous` or
  /// neither side changed (Bybit re-sends an unchanged level-1 book as a snapshot), else a delta
  /// from `previous`. Prices as spot writes them, sizes to 6 places without trailing zeros.
  static func book(
    symbol: String, book: SyntheticBook, previous: SyntheticBook?, u: Int64, seq: Int64, ts: Int64, cts: Int64
  ) -> String {
    let bid = (
      SyntheticTrades.format(cents: book.bidCents),
      trimmed(SyntheticTrades.format(volume: book.bidSize, places: 6))
    )
    let ask = (
      SyntheticTrades.format(cents: book.askCents),
      trimmed(SyntheticTrades.format(volume: book.askSize, places: 6))
    )
    var bids = [bid]
    var asks = [ask]
    var snapshot = true
    if let previous {
      bids = side(
        bid, previous: previous.bidCents, previousSize: previous.bidSize, now: book.bidCents,
        size: book.bidSize)
      asks = side(
        ask, previous: previous.askCents, previousSize: previous.askSize, now: book.askCents,
        size: book.askSize)
      snapshot = bids.isEmpty && asks.isEmpty
      if snapshot { (bids, asks) = ([bid], [ask]) }
    }
    func levels(_ pairs: [(String, String)]) -> String {
      "[" + pairs.map { #"["\#($0.0)","\#($0.1)"]"# }.joined(separator: ",") + "]"
    }
    return
      #"{"topic":\#(JSONEscaping.quoted(bookTopic + symbol)),"ts":\#(ts),"type":"\#(snapshot ? "snapshot" : "delta")","#
      + #""data":{"s":\#(JSONEscaping.quoted(symbol)),"b":\#(levels(bids)),"a":\#(levels(asks)),"u":\#(u),"seq":\#(seq)},"#
      + #""cts":\#(cts)}"#
  }

  /// One side of a delta: nothing when it is unchanged, the new size at an unchanged price, or
  /// the old price removed and the new one.
  private static func side(
    _ level: (String, String), previous: Int64, previousSize: Int, now: Int64, size: Int
  ) -> [(String, String)] {
    if previous == now { return previousSize == size ? [] : [level] }
    return [(SyntheticTrades.format(cents: previous), "0"), level]
  }

  /// A decimal without trailing zeros after its point, as spot writes prices and sizes
  /// (`0.01000` → `0.01`).
  static func trimmed(_ decimal: String) -> String {
    guard decimal.utf8.contains(UInt8(ascii: ".")) else { return decimal }
    var text = Substring(decimal)
    while text.hasSuffix("0") { text = text.dropLast() }
    if text.hasSuffix(".") { text = text.dropLast() }
    return String(text)
  }
}
