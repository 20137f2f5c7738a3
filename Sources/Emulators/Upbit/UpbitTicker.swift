import JSON
import Venues

/// Upbit's ticker message in both of its spellings: `SIMPLE` keys (`cd`, `tp`, `ttms`, …) and
/// `DEFAULT` ones (`code`, `trade_price`, `trade_timestamp`, …), and the numbers as Upbit's
/// servers write them.
enum UpbitTicker {
  /// The request's `format`.
  enum Format: String, Sendable, Equatable {
    case simple = "SIMPLE"
    case `default` = "DEFAULT"
  }

  /// SIMPLE key → DEFAULT key, for every ticker field Upbit documents.
  static let defaultKeys: [String: String] = [
    "ty": "type", "cd": "code", "op": "opening_price", "hp": "high_price", "lp": "low_price",
    "tp": "trade_price", "pcp": "prev_closing_price", "c": "change", "cp": "change_price",
    "scp": "signed_change_price", "cr": "change_rate", "scr": "signed_change_rate", "tv": "trade_volume",
    "atv": "acc_trade_volume", "atv24h": "acc_trade_volume_24h", "atp": "acc_trade_price",
    "atp24h": "acc_trade_price_24h", "tdt": "trade_date", "ttm": "trade_time", "ttms": "trade_timestamp",
    "ab": "ask_bid", "aav": "acc_ask_volume", "abv": "acc_bid_volume", "h52wp": "highest_52_week_price",
    "h52wdt": "highest_52_week_date", "l52wp": "lowest_52_week_price", "l52wdt": "lowest_52_week_date",
    "ts": "trade_status", "ms": "market_state", "msfi": "market_state_for_ios",
    "its": "is_trading_suspended", "dd": "delisting_date", "mw": "market_warning", "tms": "timestamp",
    "st": "stream_type",
  ]
  /// DEFAULT key → SIMPLE key.
  static let simpleKeys: [String: String] = Dictionary(uniqueKeysWithValues: defaultKeys.map { ($1, $0) })

  /// The ticker in `message`, with SIMPLE keys (whichever spelling it came in), or nil when the
  /// message is not a ticker.
  static func simple(_ message: JSONValue) -> JSONObject? {
    guard case .object(let object) = message else { return nil }
    let type = object["ty"]?.stringValue ?? object["type"]?.stringValue
    guard type == "ticker" else { return nil }
    if object["ty"] != nil { return object }
    return JSONObject(object.members.map { (simpleKeys[$0.key] ?? $0.key, $0.value) })
  }

  /// `ticker` (SIMPLE keys) as the client asked for it: in `format`, with its stream type.
  static func render(_ ticker: JSONObject, format: Format, streamType: String) -> String {
    var object = ticker
    object["st"] = .string(streamType)
    if format == .simple { return JSONValue.object(object).serialized }
    return JSONValue.object(JSONObject(object.members.map { (defaultKeys[$0.key] ?? $0.key, $0.value) }))
      .serialized
  }

  /// A whole number of won as Java's `Double.toString` writes it, as Upbit's servers do:
  /// `5123000.0` below 10⁷, `1.03156E8` from there on.
  static func javaDouble(_ value: Int64) -> String {
    guard value >= 10_000_000 else { return "\(value).0" }
    let digits = String(value)
    var mantissa = String(digits.dropFirst())
    while mantissa.hasSuffix("0") { mantissa.removeLast() }
    return "\(digits.prefix(1)).\(mantissa.isEmpty ? "0" : mantissa)E\(digits.count - 1)"
  }

  /// A JSON number's text without an exponent (`1.03156E8` → `103156000`, `4.9E-4` →
  /// `0.00049`); nil when it is not a plain decimal with an optional exponent.
  static func plainDecimal(_ text: String) -> String? {
    let lower = text.lowercased()
    let parts = lower.split(separator: "e", maxSplits: 1, omittingEmptySubsequences: false)
    guard let mantissa = parts.first, !mantissa.hasPrefix("-") else { return nil }
    let exponent = parts.count == 2 ? Int(parts[1]) : 0
    guard let exponent else { return nil }
    let pieces = mantissa.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    let whole = String(pieces[0])
    let fraction = pieces.count == 2 ? String(pieces[1]) : ""
    guard !whole.isEmpty, (whole + fraction).allSatisfy(\.isASCII), (whole + fraction).allSatisfy(\.isNumber)
    else { return nil }
    var digits = whole + fraction
    var point = whole.count + exponent
    if point <= 0 {
      digits = String(repeating: "0", count: 1 - point) + digits
      point = 1
    }
    if point > digits.count { digits += String(repeating: "0", count: point - digits.count) }
    var integer = String(digits.prefix(point).drop { $0 == "0" })
    if integer.isEmpty { integer = "0" }
    var rest = String(digits.dropFirst(point))
    while rest.hasSuffix("0") { rest.removeLast() }
    return rest.isEmpty ? integer : "\(integer).\(rest)"
  }
}
