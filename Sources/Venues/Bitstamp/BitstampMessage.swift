import JSON

/// What one Bitstamp v2 message means (docs/protocols.md §8). Every message is
/// `{"event":…,"channel":…,"data":…}` (members in any order): a `trade` on a `live_trades_`
/// channel, the answers `bts:subscription_succeeded` and `bts:unsubscription_succeeded`,
/// `bts:error`, the heartbeat's answer, `bts:request_reconnect` before maintenance, and a `data`
/// on an `order_book_` channel (the top of book, `BitstampOrderBook`). Other events (other books,
/// orders) are ignored, unknown members too.
enum BitstampMessage {
  static func event(json: JSONValue) -> ProviderEvent {
    guard case .object(let object) = json else {
      return .malformed("message must be a JSON object, not \(json.kindDescription)")
    }
    guard let event = object["event"] else { return .malformed(#"message has no "event""#) }
    guard case .string(let name) = event else {
      return .malformed(#""event" must be a string, not "# + event.kindDescription)
    }
    switch name {
    case "trade":
      return trade(object)
    case "data":
      return book(object)
    case "bts:subscription_succeeded", "bts:unsubscription_succeeded":
      return .acknowledged(id: nil)
    case "bts:heartbeat":
      return .keepalive
    case "bts:error":
      return .error(error(object))
    case "bts:request_reconnect":
      // `data` is "" in older documentation, null in the current one: nothing to read there.
      return .closingSoon("bts:request_reconnect")
    default:
      // `order_created` and the other order events, whatever comes next.
      return .ignored(name)
    }
  }

  /// `{"data":{…},"channel":"live_trades_btcusd","event":"trade"}`: one trade of the market the
  /// channel names. A `trade` of another channel (a private one) is not a market's trade.
  static func trade(_ object: JSONObject) -> ProviderEvent {
    guard case .string(let channel)? = object["channel"] else {
      return .malformed(#"a trade has no string "channel""#)
    }
    guard let market = market(inChannel: channel) else { return .ignored("trade on channel \(channel)") }
    guard case .object(let data)? = object["data"] else {
      return .malformed(#"a trade's "data" must be an object"#)
    }
    do throws(ShapeError) {
      return .quotes([try BitstampTrade(object: data, market: market).quote])
    } catch {
      return .malformed(error.message)
    }
  }

  /// `{"data":{…,"bids":[…],"asks":[…]},"channel":"order_book_btcusd","event":"data"}`: the top
  /// of the market's book. The other books' channels (`detail_order_book_`, `diff_order_book_`)
  /// also send `data`, which is ignored; so is a book with an empty side (no top to show).
  static func book(_ object: JSONObject) -> ProviderEvent {
    guard case .string(let channel)? = object["channel"],
      let market = market(inChannel: channel, prefix: BitstampProvider.bookChannelPrefix)
    else { return .ignored("data") }
    guard case .object(let data)? = object["data"] else {
      return .malformed(#"an order book's "data" must be an object"#)
    }
    do throws(ShapeError) {
      guard let quote = try BitstampOrderBook(object: data, market: market).quote else {
        return .ignored("order book of \(market) with an empty side")
      }
      return .quotes([quote])
    } catch {
      return .malformed(error.message)
    }
  }

  /// The market of a `live_trades_<market>` channel (or one of `prefix`); nil for any other
  /// channel.
  static func market(inChannel channel: String, prefix: String = BitstampProvider.tradesChannelPrefix)
    -> String?
  {
    guard channel.hasPrefix(prefix), channel.utf8.count > prefix.utf8.count else { return nil }
    return String(channel.dropFirst(prefix.count))
  }

  /// `{"event":"bts:error","channel":"","data":{"code":null,"message":"Bad subscription string."}}`.
  /// Bitstamp keeps the connection open after one, so it is never fatal; `code` (null, or a
  /// number such as 4009) is its name when there is one. The channel has been empty in every
  /// error seen; should one name a `live_trades_` or `order_book_` channel, its market is the
  /// symbol refused.
  static func error(_ object: JSONObject) -> VenueError {
    var message = "unspecified error"
    var code: String? = nil
    switch object["data"] {
    case .object(let data)?:
      if case .string(let text)? = data["message"], !text.isEmpty { message = text }
      switch data["code"] {
      case .string(let text)? where !text.isEmpty: code = text
      case .number(let text)?: code = text
      default: break
      }
    case .string(let text)? where !text.isEmpty:
      message = text
    default:
      break
    }
    let channel = object["channel"]?.stringValue
    let symbol =
      channel.flatMap { market(inChannel: $0) }
      ?? channel.flatMap { market(inChannel: $0, prefix: BitstampProvider.bookChannelPrefix) }
    return VenueError(name: code, message: message, fatal: false, symbol: symbol)
  }
}
