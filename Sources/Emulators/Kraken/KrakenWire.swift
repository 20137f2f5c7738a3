import JSON
import TickerSupport

/// The messages Kraken's v2 API writes, as the emulator writes them: answers with their members
/// in Kraken's (alphabetical) order and its RFC 3339 microsecond times, and channel messages in
/// the order its documentation shows them.
enum KrakenWire {
  /// `{"method":"subscribe","req_id":1,"result":{"channel":"ticker","snapshot":true,"symbol":"BTC/USD"},"success":true,…}`:
  /// one symbol accepted (unsubscribing, the result has no `snapshot`).
  static func accepted(
    _ method: String, symbol: String, snapshot: Bool?, requestID: String?, at microseconds: Int64
  ) -> String {
    let flag = snapshot.map { #""snapshot":\#($0),"# } ?? ""
    return #"{"method":\#(JSONEscaping.quoted(method)),\#(id(requestID))"#
      + #""result":{"channel":"ticker",\#(flag)"symbol":\#(JSONEscaping.quoted(symbol))},"#
      + #""success":true,\#(times(microseconds))}"#
  }

  /// `{"error":"Currency pair not supported X","method":"subscribe","req_id":1,"success":false,"symbol":"X",…}`:
  /// a refusal, of one symbol when `symbol` is given.
  static func refused(
    _ error: String, method: String?, symbol: String?, requestID: String?, at microseconds: Int64
  ) -> String {
    var out = #"{"error":\#(JSONEscaping.quoted(error)),"#
    if let method { out += #""method":\#(JSONEscaping.quoted(method)),"# }
    out += id(requestID) + #""success":false,"#
    if let symbol { out += #""symbol":\#(JSONEscaping.quoted(symbol)),"# }
    return out + times(microseconds) + "}"
  }

  /// `{"method":"pong","req_id":2,"time_in":…,"time_out":…}`.
  static func pong(requestID: String?, at microseconds: Int64) -> String {
    #"{"method":"pong",\#(id(requestID))\#(times(microseconds))}"#
  }

  static let heartbeat = #"{"channel":"heartbeat"}"#

  /// The status update every connection gets when it opens.
  static let status =
    #"{"channel":"status","data":[{"api_version":"v2","connection_id":12393906104898154338,"#
    + #""system":"online","version":"2.0.10"}],"type":"update"}"#

  /// `{"channel":"ticker","type":"snapshot"|"update","data":[entry]}`.
  static func ticker(_ entry: JSONObject, snapshot: Bool) -> String {
    #"{"channel":"ticker","type":"\#(snapshot ? "snapshot" : "update")","data":[\#(JSONValue.object(entry).serialized)]}"#
  }

  /// A price in hundredths as Kraken writes its numbers: the shortest decimal, with at least one
  /// digit after the point (8091240 → `80912.4`, 8091200 → `80912.0`, 8091245 → `80912.45`).
  static func number(cents: Int64) -> String {
    let fraction = cents % 100
    if fraction % 10 == 0 { return "\(cents / 100).\(fraction / 10)" }
    return "\(cents / 100).\(fraction < 10 ? "0" : "")\(fraction)"
  }

  private static func id(_ requestID: String?) -> String {
    requestID.map { #""req_id":\#($0),"# } ?? ""
  }

  /// `"time_in":…,"time_out":…`: received at `microseconds`, answered 17 µs later.
  private static func times(_ microseconds: Int64) -> String {
    #""time_in":"\#(RFC3339.format(microseconds: microseconds))","#
      + #""time_out":"\#(RFC3339.format(microseconds: microseconds + 17))""#
  }
}
