import JSON
import TickerSupport

/// The texts the Bitfinex emulation writes, in the venue's shapes (docs/protocols.md §11): events
/// (objects named by `event`) and channel messages (arrays that start with the channel id).
enum BitfinexWire {
  /// The server id of the `info` event (one per server on the venue; the recorded session's).
  static let serverID = "5b73a436-19ca-4a06-8472-5c9a5a3d4d47"

  /// One trade as the `trades` channel writes it: `[ID,MTS,AMOUNT,PRICE]`, the numbers' texts as
  /// Bitfinex wrote them (a float's digits, a minus for a taker's sell).
  struct Trade: Sendable, Equatable {
    var id: Int64
    var time: Int64
    var amount: String
    var price: String

    var json: String { "[\(id),\(time),\(amount),\(price)]" }

    /// `[ID,MTS,AMOUNT,PRICE,…]` read back, the texts kept; nil for anything else.
    init?(_ value: JSONValue) {
      guard let fields = value.arrayValue, fields.count >= 4,
        let id = fields[0].numberText.flatMap({ Int64($0) }),
        let time = fields[1].numberText.flatMap({ Int64($0) }),
        let amount = fields[2].numberText, let price = fields[3].numberText
      else { return nil }
      self.init(id: id, time: time, amount: amount, price: price)
    }

    init(id: Int64, time: Int64, amount: String, price: String) {
      self.id = id
      self.time = time
      self.amount = amount
      self.price = price
    }
  }

  /// `{"event":"info","version":2,"serverId":…,"platform":{"status":1}}`, on connecting.
  static var info: String {
    #"{"event":"info","version":2,"serverId":"\#(serverID)","platform":{"status":1}}"#
  }

  /// `{"event":"subscribed","channel":"trades","chanId":17470,"symbol":"tBTCUSD","pair":"BTCUSD"}`
  /// (`"channel":"ticker"` alike).
  static func subscribed(channel: Int64, symbol: String, kind: String = "trades") -> String {
    #"{"event":"subscribed","channel":\#(JSONEscaping.quoted(kind)),"chanId":\#(channel),"#
      + #""symbol":\#(JSONEscaping.quoted(symbol)),"#
      + #""pair":\#(JSONEscaping.quoted(pair(of: symbol)))}"#
  }

  /// `{"event":"unsubscribed","status":"OK","chanId":17470}`.
  static func unsubscribed(channel: Int64) -> String {
    #"{"event":"unsubscribed","status":"OK","chanId":\#(channel)}"#
  }

  /// An error answering a subscription: the request's `channel` and `symbol` first, as Bitfinex
  /// echoes a request's fields, then `event`, `msg`, `code`, the open channel's id when it is
  /// already subscribed, and `pair`.
  static func subscribeError(_ refusal: Refusal, channel: String, symbol: String, open: Int64? = nil)
    -> String
  {
    let chanID = open.map { #","chanId":\#($0)"# } ?? ""
    return #"{"channel":\#(JSONEscaping.quoted(channel)),"symbol":\#(JSONEscaping.quoted(symbol)),"#
      + #""event":"error","msg":\#(JSONEscaping.quoted(refusal.message)),"code":\#(refusal.code)\#(chanID),"#
      + #""pair":\#(JSONEscaping.quoted(pair(of: symbol)))}"#
  }

  /// An error answering anything else: `{"event":"error","msg":…,"code":…}`, with the channel id
  /// an `unsubscribe` named.
  static func error(_ refusal: Refusal, channel: Int64? = nil) -> String {
    let chanID = channel.map { #","chanId":\#($0)"# } ?? ""
    return
      #"{"event":"error","msg":\#(JSONEscaping.quoted(refusal.message)),"code":\#(refusal.code)\#(chanID)}"#
  }

  /// `{"event":"pong","ts":1791706871002,"cid":1234}`, echoing the ping's `cid` (its text).
  static func pong(at milliseconds: Int64, cid: String?) -> String {
    #"{"event":"pong","ts":\#(milliseconds)"# + (cid.map { #","cid":\#($0)"# } ?? "") + "}"
  }

  /// `{"event":"conf","status":"OK","flags":…}`.
  static func conf(flags: String) -> String { #"{"event":"conf","status":"OK","flags":\#(flags)}"# }

  /// `[17470,"te",[ID,MTS,AMOUNT,PRICE]]` (or `"tu"`).
  static func trade(channel: Int64, _ kind: String, _ trade: Trade) -> String {
    "[\(channel),\"\(kind)\",\(trade.json)]"
  }

  /// `[17470,[[…],[…]]]`: a channel's recent trades, newest first.
  static func snapshot(channel: Int64, _ trades: [Trade]) -> String {
    "[\(channel),[" + trades.map(\.json).joined(separator: ",") + "]]"
  }

  /// One message of the `ticker` channel:
  /// `[17471,[BID,BID_SIZE,ASK,ASK_SIZE,DAILY_CHANGE,DAILY_CHANGE_RELATIVE,LAST_PRICE,VOLUME,HIGH,LOW]]`,
  /// numbers as JavaScript writes them.
  static func ticker(channel: Int64, book: SyntheticBook, last cents: Int64, day: Day) -> String {
    let change = cents - day.open
    // Relative to the open, in ten-thousandths.
    let relative = day.open == 0 ? 0 : change * 10_000 / day.open
    let fields = [
      SyntheticTrades.format(cents: book.bidCents), amount(volume: book.bidSize, sell: false),
      SyntheticTrades.format(cents: book.askCents), amount(volume: book.askSize, sell: false),
      signed(change, SyntheticTrades.format(cents:)), signed(relative, { number(tenThousandths: $0) }),
      SyntheticTrades.format(cents: cents), amount(volume: day.volume, sell: false),
      SyntheticTrades.format(cents: day.high), SyntheticTrades.format(cents: day.low),
    ]
    return "[\(channel),[" + fields.joined(separator: ",") + "]]"
  }

  /// A pair's day as its ticker shows it: the opening price, high and low in hundredths, the
  /// volume in hundred-thousandths.
  struct Day: Sendable, Equatable {
    var open: Int64
    var high: Int64
    var low: Int64
    var volume: Int

    init(open: Int64) {
      self.open = open
      high = open
      low = open
      volume = 0
    }

    mutating func trade(cents: Int64, volume: Int) {
      high = max(high, cents)
      low = min(low, cents)
      self.volume += volume
    }
  }

  /// `format(magnitude)` with a minus before it when `value` is negative.
  private static func signed(_ value: Int64, _ format: (Int64) -> String) -> String {
    value < 0 ? "-" + format(-value) : format(value)
  }

  /// Ten-thousandths as JavaScript writes the number (`12` → `0.0012`, `10000` → `1`).
  private static func number(tenThousandths value: Int64) -> String {
    let fraction = String(value % 10_000).leftPadded(to: 4)
    var text = "\(value / 10_000).\(fraction)"
    while text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
    return text
  }

  /// `[17470,"hb"]`.
  static func heartbeat(channel: Int64) -> String { "[\(channel),\"hb\"]" }

  /// The pair a symbol names: without its `t`.
  static func pair(of symbol: String) -> String {
    symbol.hasPrefix("t") || symbol.hasPrefix("f") ? String(symbol.dropFirst()) : symbol
  }

  /// Why Bitfinex refuses a request: its code and message.
  struct Refusal: Error, Sendable, Equatable {
    var code: Int
    var message: String

    /// An event Bitfinex does not know (named), or a message naming none.
    static func invalidEvent(_ name: String?) -> Refusal {
      Refusal(code: 10000, message: "event: invalid" + (name.map { " (\($0))" } ?? ""))
    }
    static var invalidSymbol: Refusal { Refusal(code: 10300, message: "symbol: invalid") }
    static var unknownChannel: Refusal { Refusal(code: 10300, message: "channel: unknown") }
    static var duplicate: Refusal { Refusal(code: 10301, message: "subscribe: dup") }
    static var limit: Refusal { Refusal(code: 10305, message: "subscribe: limit") }
    static var invalidUnsubscribe: Refusal { Refusal(code: 10400, message: "unsubscribe: invalid") }
  }

  /// A JSON number as JavaScript writes a size in hundred-thousandths (`63` → `0.00063`, `5000` →
  /// `0.05`), negative for a taker's sell.
  static func amount(volume: Int, sell: Bool) -> String {
    var text = SyntheticTrades.format(volume: volume, places: 5)
    while text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
    return sell ? "-" + text : text
  }
}
