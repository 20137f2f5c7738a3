import JSON
import TickerSupport
import Venues

/// The texts the Bithumb emulation writes, in the venue's shapes (docs/protocols.md §12): its
/// status, its errors and its `trade` messages, in either format.
enum BithumbWire {
  /// The request's `format`: DEFAULT keys (`trade_price`), or SIMPLE ones (`tp`). The list
  /// formats (`JSON_LIST`, `SIMPLE_LIST`) are not emulated.
  enum Format: String, Sendable, Equatable {
    case `default` = "DEFAULT"
    case simple = "SIMPLE"
  }

  /// The answer to `PING`, and its repeats.
  static let status = #"{"status":"UP"}"#

  /// `{"error":{"name":…,"message":…}}`, in the documented key order.
  static func error(_ failure: BithumbRequest.Failure) -> String {
    #"{"error":{"name":\#(JSONEscaping.quoted(failure.name)),"message":\#(JSONEscaping.quoted(failure.message))}}"#
  }

  /// DEFAULT key → SIMPLE key, for every field of a trade (the short names are Upbit's, whose
  /// message model Bithumb follows; Bithumb documents only the DEFAULT ones).
  static let simpleKeys: [String: String] = [
    "type": "ty", "code": "cd", "trade_price": "tp", "trade_volume": "tv", "ask_bid": "ab",
    "prev_closing_price": "pcp", "change": "c", "change_price": "cp", "trade_date": "td", "trade_time": "ttm",
    "trade_timestamp": "ttms", "timestamp": "tms", "sequential_id": "sid", "stream_type": "st",
  ]
  /// SIMPLE key → DEFAULT key.
  static let defaultKeys: [String: String] = Dictionary(uniqueKeysWithValues: simpleKeys.map { ($1, $0) })

  /// The trade in `message`, with DEFAULT keys (whichever format it came in); nil for anything
  /// else.
  static func trade(_ message: JSONValue) -> JSONObject? {
    guard case .object(let object) = message else { return nil }
    if object["type"]?.stringValue == "trade" { return object }
    guard object["ty"]?.stringValue == "trade" else { return nil }
    return JSONObject(object.members.map { (defaultKeys[$0.key] ?? $0.key, $0.value) })
  }

  /// `trade` (DEFAULT keys) as the client asked for it: in `format`, with its stream type.
  static func render(_ trade: JSONObject, format: Format, streamType: String) -> String {
    var object = trade
    object["stream_type"] = .string(streamType)
    guard format == .simple else { return JSONValue.object(object).serialized }
    return JSONValue.object(JSONObject(object.members.map { (simpleKeys[$0.key] ?? $0.key, $0.value) }))
      .serialized
  }

  /// A number's text or a decimal string's contents as a plain decimal (`9.5539E7` → `95539000`).
  static func plainDecimal(_ value: JSONValue?) -> String? {
    switch value {
    case .number(let text)?, .string(let text)?: Price(text)?.text
    default: nil
    }
  }

  /// Epoch milliseconds from a number or a string of digits.
  static func milliseconds(_ value: JSONValue?) -> Int64? {
    switch value {
    case .number(let text)?, .string(let text)?: Int64(text)
    default: nil
    }
  }

  /// `trade_date` and `trade_time` as Bithumb writes them: the trade's Korean time (UTC+9),
  /// `2026-07-10` and `13:39:41`.
  static func koreanDateAndTime(_ milliseconds: Int64) -> (date: String, time: String) {
    let text = RFC3339.format(microseconds: max(0, milliseconds + 9 * 3_600_000) * 1000)
    return (String(text.prefix(10)), String(text.dropFirst(11).prefix(8)))
  }

  // MARK: Trades

  /// The trade of a code the script never traded, before its first synthetic trade: the fields
  /// of `template` (the script's first trade; the venue's fields in its order without one) with
  /// the code, and the walk's start `price` as the previous close.
  static func firstTrade(of code: String, price: String, like template: JSONObject?) -> JSONObject {
    var trade =
      template
      ?? JSONObject([
        ("type", .string("trade")), ("code", .string(code)), ("trade_price", .number(price)),
        ("trade_volume", .number("0")), ("ask_bid", .string("BID")), ("prev_closing_price", .number(price)),
        ("change", .string("EVEN")), ("change_price", .number("0")), ("trade_date", .string("")),
        ("trade_time", .string("")), ("trade_timestamp", .number("0")), ("sequential_id", .string("0")),
        ("timestamp", .number("0")), ("stream_type", .string("REALTIME")),
      ])
    trade["code"] = .string(code)
    trade["prev_closing_price"] = .number(price)
    return trade
  }

  /// A price in won as Bithumb's ticks allow: whole won from 1,000 won up, else as walked.
  static func won(_ cents: Int64) -> String {
    cents >= 100_000 ? String(cents / 100) : SyntheticTrades.format(cents: cents)
  }

  /// `last` moved on by `trade`: its price (a plain decimal, as Bithumb writes numbers), volume,
  /// side, the change against the previous close, its times in UTC and Korean time, and a
  /// sequence number as a string (Bithumb's exceed 2^53).
  static func trade(after last: JSONObject, _ trade: SyntheticTrade) -> JSONObject {
    var next = last
    next["trade_price"] = .number(won(trade.cents))
    next["trade_volume"] = .number(trimmed(SyntheticTrades.format(volume: trade.volume, places: 8)))
    next["ask_bid"] = .string(trade.up ? "BID" : "ASK")
    if let previous = plainDecimal(last["prev_closing_price"]).flatMap(SyntheticTrades.parseCents) {
      let change = trade.cents - previous
      next["change"] = .string(change > 0 ? "RISE" : change < 0 ? "FALL" : "EVEN")
      next["change_price"] = .number(won(abs(change)))
    }
    let (date, time) = koreanDateAndTime(trade.time)
    next["trade_date"] = .string(date)
    next["trade_time"] = .string(time)
    next["trade_timestamp"] = .number(String(trade.time))
    next["sequential_id"] = .string(String(trade.time) + String(trade.volume).leftPadded(to: 5))
    next["timestamp"] = .number(String(trade.time + 260))
    return next
  }

  /// A decimal without trailing zeros after its point, as a JSON number from a double reads
  /// (`0.00063000` → `0.00063`).
  static func trimmed(_ decimal: String) -> String {
    guard decimal.utf8.contains(UInt8(ascii: ".")) else { return decimal }
    var text = Substring(decimal)
    while text.hasSuffix("0") { text = text.dropLast() }
    if text.hasSuffix(".") { text = text.dropLast() }
    return String(text)
  }
}
