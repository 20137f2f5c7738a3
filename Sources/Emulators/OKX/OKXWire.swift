import JSON
import Venues
import WebSocketWire

/// The texts the OKX emulation writes, in the venue's shapes (docs/protocols.md §6): answers to
/// requests, errors, and `tickers` pushes.
enum OKXWire {
  /// The connection id OKX puts in every answer (one per connection on the venue; the emulation
  /// does not tell its connections apart, and uses the recorded session's).
  static let connID = "3b7f0e1c"

  /// `{"id":"1","event":"subscribe","arg":{"channel":"tickers","instId":"BTC-USDT"},"connId":"…"}`;
  /// no `id` when the request had none.
  static func answer(_ event: String, id: String?, channel: String, instrument: String) -> String {
    let arg = #"{"channel":\#(JSONEscaping.quoted(channel)),"instId":\#(JSONEscaping.quoted(instrument))}"#
    return "{" + idMember(id)
      + #""event":\#(JSONEscaping.quoted(event)),"arg":\#(arg),"connId":"\#(connID)"}"#
  }

  /// `{"id":"2","event":"error","code":"60018","msg":"…","connId":"…"}`; no `id` when the
  /// request had none (or could not be read).
  static func error(id: String?, _ refusal: Refusal) -> String {
    "{" + idMember(id)
      + #""event":"error","code":"\#(refusal.code)","msg":\#(JSONEscaping.quoted(refusal.message)),"connId":"\#(connID)"}"#
  }

  private static func idMember(_ id: String?) -> String {
    id.map { #""id":\#(JSONEscaping.quoted($0)),"# } ?? ""
  }

  /// A `tickers` push of one entry.
  static func push(instrument: String, entry: JSONObject) -> String {
    #"{"arg":{"channel":"tickers","instId":\#(JSONEscaping.quoted(instrument))},"data":["#
      + JSONValue.object(entry).serialized + "]}"
  }

  /// A `bbo-tbt` push of the synthetic book around `trade`: one level a side,
  /// `[price, size, "0", orders]`, decimal strings as OKX writes them, `ts` the trade's time.
  static func bookPush(instrument: String, _ trade: SyntheticTrade, sequence: Int64) -> String {
    let book = trade.book
    let bid = SyntheticTrades.format(cents: book.bidCents)
    let ask = SyntheticTrades.format(cents: book.askCents)
    let bidSize = trimmed(SyntheticTrades.format(volume: book.bidSize, places: 5))
    let askSize = trimmed(SyntheticTrades.format(volume: book.askSize, places: 5))
    let orders = (1 + book.bidSize % 7, 1 + book.askSize % 5)
    return #"{"arg":{"channel":"bbo-tbt","instId":\#(JSONEscaping.quoted(instrument))},"data":[{"#
      + #""asks":[["\#(ask)","\#(askSize)","0","\#(orders.1)"]],"bids":[["\#(bid)","\#(bidSize)","0","\#(orders.0)"]],"#
      + #""ts":"\#(trade.time)","seqId":\#(sequence)}]}"#
  }

  /// Why OKX refuses a request (or one of its instruments): its code and message.
  struct Refusal: Error, Sendable, Equatable {
    var code: String
    var message: String

    static func invalidRequest(_ text: String) -> Refusal {
      Refusal(code: "60012", message: "Invalid request: \(text)")
    }
    static var invalidArgs: Refusal { Refusal(code: "60013", message: "Invalid args") }
    static var tooFrequent: Refusal { Refusal(code: "60014", message: "Requests too frequent.") }
    static func invalidOp(_ op: String) -> Refusal { Refusal(code: "60019", message: "Invalid op: \(op)") }
    static func empty(_ parameter: String) -> Refusal {
      Refusal(code: "60027", message: "Parameter \(parameter) can not be empty.")
    }
    static var notOnThisURL: Refusal {
      Refusal(
        code: "60028",
        message:
          "The current operation is not supported by this URL. Please use the correct WebSocket URL for "
          + "the operation.")
    }
    /// 60018, the documented text with the channel and instrument in place of its `{0}`.
    static func doesNotExist(channel: String, instrument: String?) -> Refusal {
      let what = "channel:\(channel)" + (instrument.map { ",instId:\($0)" } ?? "")
      return Refusal(
        code: "60018",
        message: "Wrong URL or \(what) doesn't exist. Please use the correct URL, channel and parameters "
          + "referring to API document.")
    }
  }

  // MARK: Tickers

  /// The entry of an instrument the script never pushed, before its first synthetic trade: the
  /// venue's fields in the order it sends them, the day's prices at the walk's start `price`, no
  /// volume yet.
  static func firstTicker(of instrument: String, price: String) -> JSONObject {
    let start = JSONValue.string(price)
    let none = JSONValue.string("0")
    return JSONObject([
      ("instType", .string("SPOT")), ("instId", .string(instrument)), ("last", start), ("lastSz", none),
      ("askPx", start), ("askSz", none), ("bidPx", start), ("bidSz", none), ("open24h", start),
      ("high24h", start), ("low24h", start), ("sodUtc0", start), ("sodUtc8", start), ("volCcy24h", none),
      ("vol24h", none), ("ts", .string("0")),
    ])
  }

  /// `entry` moved on by `trade`: last price and size, best bid and ask around it, the day's high
  /// and low stretched to it, the time (the day's volumes are left as they were).
  static func ticker(after entry: JSONObject, _ trade: SyntheticTrade) -> JSONObject {
    var ticker = entry
    let price = SyntheticTrades.format(cents: trade.cents)
    let size = trimmed(SyntheticTrades.format(volume: trade.volume, places: 5))
    ticker["last"] = .string(price)
    ticker["lastSz"] = .string(size)
    ticker["askPx"] = .string(trade.up ? price : SyntheticTrades.format(cents: trade.cents + 1))
    ticker["bidPx"] = .string(trade.up ? SyntheticTrades.format(cents: max(1, trade.cents - 1)) : price)
    let now = Price(price)
    if let high = ticker["high24h"]?.stringValue.flatMap(Price.init), let now, now > high {
      ticker["high24h"] = .string(price)
    }
    if let low = ticker["low24h"]?.stringValue.flatMap(Price.init), let now, now < low {
      ticker["low24h"] = .string(price)
    }
    ticker["ts"] = .string(String(trade.time))
    return ticker
  }

  /// A decimal without trailing zeros after its point, as OKX writes sizes (`0.01000` → `0.01`).
  static func trimmed(_ decimal: String) -> String {
    guard decimal.utf8.contains(UInt8(ascii: ".")) else { return decimal }
    var text = Substring(decimal)
    while text.hasSuffix("0") { text = text.dropLast() }
    if text.hasSuffix(".") { text = text.dropLast() }
    return String(text)
  }
}
