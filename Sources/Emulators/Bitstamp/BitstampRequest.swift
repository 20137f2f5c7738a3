import JSON

/// A client message to Bitstamp, as the emulation reads it:
/// `{"event":"bts:subscribe","data":{"channel":"live_trades_btcusd"}}`, `bts:unsubscribe` alike,
/// and `{"event":"bts:heartbeat"}`.
enum BitstampRequest: Sendable, Equatable {
  case subscribe(channel: String)
  case unsubscribe(channel: String)
  case heartbeat

  /// The request in `text`, or the error Bitstamp answers it with.
  static func parse(_ text: String) -> Result<BitstampRequest, BitstampWire.Refusal> {
    guard let value = try? JSONParser().parse(text) else { return .failure(.incorrectJSON) }
    guard case .object(let object) = value, case .string(let event)? = object["event"] else {
      return .failure(.badSubscription)
    }
    switch event {
    case "bts:heartbeat":
      return .success(.heartbeat)
    case "bts:subscribe", "bts:unsubscribe":
      guard case .string(let channel)? = object["data"]?["channel"], !channel.isEmpty else {
        return .failure(.badSubscription)
      }
      guard isValid(channel: channel) else { return .failure(.invalidChannel) }
      return .success(
        event == "bts:subscribe" ? .subscribe(channel: channel) : .unsubscribe(channel: channel))
    default:
      return .failure(.badSubscription)
    }
  }

  /// The public channel families, each followed by a market.
  static let families = [
    "live_trades_", "live_orders_", "order_book_", "detail_order_book_", "diff_order_book_", "funding_rate_",
  ]

  /// Whether Bitstamp can read `channel`: a public family and a market of lower-case letters and
  /// digits, a perpetual's with `-perp` after it. Whether the market exists is another matter:
  /// Bitstamp acknowledges an unknown one all the same.
  static func isValid(channel: String) -> Bool {
    guard let family = families.first(where: { channel.hasPrefix($0) }) else { return false }
    var market = Substring(channel.dropFirst(family.count))
    if market.hasSuffix("-perp") { market = market.dropLast(5) }
    return !market.isEmpty
      && market.utf8.allSatisfy {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0)
          || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
      }
  }
}
