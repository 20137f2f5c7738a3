import JSON
import Venues

/// The texts the Gemini emulation writes, in the venue's shapes (docs/protocols.md §10): a
/// subscription's first book, trades, heartbeats and errors.
enum GeminiWire {
  /// `{"type":"heartbeat","timestamp":1791469270310}`.
  static func heartbeat(at milliseconds: Int64) -> String {
    #"{"type":"heartbeat","timestamp":\#(milliseconds)}"#
  }

  /// `{"reason":"NoValidTradingPairs","result":"error"}`: the one error shape Gemini is known to
  /// send; other reasons are the emulation's own.
  static func error(_ reason: String) -> String {
    #"{"reason":\#(JSONEscaping.quoted(reason)),"result":"error"}"#
  }

  /// A request naming no pair Gemini lists.
  static let noValidTradingPairs = "NoValidTradingPairs"

  /// A symbol's first `l2_updates`: its whole book, its last trades (newest first) and its
  /// auction events.
  static func firstBook(symbol: String, book: GeminiBook, trades: [JSONObject], auctionEvents: [JSONValue])
    -> String
  {
    let members: [(String, JSONValue)] = [
      ("type", .string("l2_updates")), ("symbol", .string(symbol)), ("changes", book.changes),
      ("trades", .array(trades.map(JSONValue.object))), ("auction_events", .array(auctionEvents)),
    ]
    return JSONValue.object(JSONObject(members)).serialized
  }

  /// `{"type":"l2_updates","symbol":"BTCUSD","changes":[["buy","97412.58","0"],…]}`: changes of a
  /// book after its first.
  static func bookChanges(symbol: String, changes: JSONValue) -> String {
    JSONValue.object(
      JSONObject([("type", .string("l2_updates")), ("symbol", .string(symbol)), ("changes", changes)])
    ).serialized
  }

  /// `{"type":"trade","symbol":"BTCUSD","event_id":…,"timestamp":…,"price":"97412.61","quantity":"0.00021","side":"buy"}`.
  static func trade(
    symbol: String, eventID: Int64, time: Int64, price: String, quantity: String, side: String
  )
    -> JSONObject
  {
    JSONObject([
      ("type", .string("trade")), ("symbol", .string(symbol)), ("event_id", .number(String(eventID))),
      ("timestamp", .number(String(time))), ("price", .string(price)), ("quantity", .string(quantity)),
      ("side", .string(side)),
    ])
  }

  /// A decimal without trailing zeros after its point, as Gemini writes quantities (`0.01000` →
  /// `0.01`).
  static func trimmed(_ decimal: String) -> String {
    guard decimal.utf8.contains(UInt8(ascii: ".")) else { return decimal }
    var text = Substring(decimal)
    while text.hasSuffix("0") { text = text.dropLast() }
    if text.hasSuffix(".") { text = text.dropLast() }
    return String(text)
  }
}
