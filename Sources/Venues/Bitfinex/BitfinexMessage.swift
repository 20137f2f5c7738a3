import JSON

/// What one Bitfinex message means (docs/protocols.md §11), given what the connection said before.
///
/// Events are objects named by `event`: `info`, `subscribed`, `unsubscribed`, `error`, `pong`,
/// `conf`. Channel messages are arrays that name only their channel id: `[CHANNEL_ID,
/// [[ID,MTS,AMOUNT,PRICE],…]]` (the snapshot of recent trades on subscribing), `[CHANNEL_ID,
/// "te",[…]]` (a trade executed), `[CHANNEL_ID,"tu",[…]]` (the same trade again, updated) and
/// `[CHANNEL_ID,"hb"]` (the heartbeat of a quiet channel); a `ticker` channel's are `[CHANNEL_ID,
/// [BID,BID_SIZE,ASK,ASK_SIZE,…]]` (`BitfinexTicker`), the top of book. The `subscribed` event maps
/// a channel id to its symbol in `DecodingContext.channels`, and a `ticker` channel's id also into
/// `DecodingContext.bookChannels`; `unsubscribed` removes it.
enum BitfinexMessage {
  /// The info codes that ask for a reconnect: 20051, the server is restarting; 20061, the end of a
  /// maintenance, after which Bitfinex advises subscribing again to every channel.
  static let reconnectCodes = ["20051", "20061"]
  /// Already subscribed: the answer to a subscription of a channel that is open.
  static let duplicateCode = "10301"

  static func event(json: JSONValue, context: inout DecodingContext) -> ProviderEvent {
    switch json {
    case .object(let object): event(object, context: &context)
    case .array(let fields): channel(fields, context: context)
    default: .malformed("message must be a JSON object or array, not \(json.kindDescription)")
    }
  }

  // MARK: Events

  static func event(_ object: JSONObject, context: inout DecodingContext) -> ProviderEvent {
    guard let value = object["event"] else { return .malformed(#"an object without "event""#) }
    guard case .string(let name) = value else {
      return .malformed(#""event" must be a string, not "# + value.kindDescription)
    }
    switch name {
    case "info": return info(object)
    case "subscribed": return subscribed(object, context: &context)
    case "unsubscribed":
      guard let channel = channelID(object["chanId"]) else {
        return .malformed(#"an "unsubscribed" event needs a whole-number "chanId""#)
      }
      context.channels[channel] = nil
      context.bookChannels.remove(channel)
      return .acknowledged(id: nil)
    case "error": return error(object, context: &context)
    case "pong": return .keepalive
    default:
      // `conf` and `auth` answer requests the ticker does not make; what Bitfinex adds is named.
      return .ignored(name)
    }
  }

  /// `{"event":"info","version":2,"serverId":…,"platform":{"status":1}}` on connecting (a
  /// status: proof of life), or `{"event":"info","code":20051,"msg":…}` and its kind.
  static func info(_ object: JSONObject) -> ProviderEvent {
    guard let code = text(object["code"]) else {
      return object["version"] == nil ? .ignored("info") : .keepalive
    }
    guard reconnectCodes.contains(code) else { return .ignored("info \(code)") }
    let message = object["msg"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
    return .closingSoon(message ?? "info \(code)")
  }

  /// `{"event":"subscribed","channel":"trades","chanId":17470,"symbol":"tBTCUSD","pair":"BTCUSD"}`
  /// (or `"channel":"ticker"`): the channel id now means the symbol, and its trades or its top of
  /// book.
  static func subscribed(_ object: JSONObject, context: inout DecodingContext) -> ProviderEvent {
    guard case .string(let channelName)? = object["channel"] else {
      return .malformed(#"a "subscribed" event needs a string "channel""#)
    }
    guard channelName == "trades" || channelName == "ticker" else {
      return .ignored("subscribed to \(channelName)")
    }
    guard let channel = channelID(object["chanId"]) else {
      return .malformed(#"a "subscribed" event needs a whole-number "chanId""#)
    }
    guard case .string(let symbol)? = object["symbol"], !symbol.isEmpty else {
      return .malformed(#"a "subscribed" event needs a non-empty string "symbol""#)
    }
    map(channel, to: symbol, kind: channelName, in: &context)
    return .acknowledged(id: nil)
  }

  /// Channel `id` carries `symbol`'s trades, or its top of book when `kind` is `ticker`.
  static func map(_ id: String, to symbol: String, kind: String?, in context: inout DecodingContext) {
    context.channels[id] = symbol
    if kind == "ticker" { context.bookChannels.insert(id) } else { context.bookChannels.remove(id) }
  }

  /// `{"event":"error","msg":"symbol: invalid","code":10300,"channel":"trades","symbol":"tNOPE",…}`:
  /// an answer to a request, echoing its fields, so a refused subscription names its symbol; the
  /// socket stays open. Already subscribed (10301) is no refusal: the channel it names (`chanId`)
  /// carries the symbol as asked.
  static func error(_ object: JSONObject, context: inout DecodingContext) -> ProviderEvent {
    let code = text(object["code"])
    var symbol: String? = nil
    if case .string(let named)? = object["symbol"], !named.isEmpty { symbol = named }
    if code == duplicateCode, let symbol, let channel = channelID(object["chanId"]) {
      map(channel, to: symbol, kind: object["channel"]?.stringValue, in: &context)
      return .acknowledged(id: nil)
    }
    let message = object["msg"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 } ?? "unspecified error"
    return .error(VenueError(name: code, message: message, fatal: false, symbol: symbol))
  }

  // MARK: Channels

  /// A channel message: a trade, a heartbeat, a snapshot or a ticker of the channel its id names.
  static func channel(_ fields: [JSONValue], context: DecodingContext) -> ProviderEvent {
    guard fields.count >= 2 else {
      return .malformed("a channel message needs a channel id and a payload, not \(fields.count) fields")
    }
    guard let channel = channelID(fields[0]) else {
      return .malformed("a channel message must start with a whole-number channel id")
    }
    switch fields[1] {
    case .string("hb"):
      return .keepalive
    case .string("te"):
      return executed(fields, channel: channel, context: context)
    case .string("tu"):
      // The trade of the `te` before it, again: printed once, from the `te` (which comes first).
      guard fields.count >= 3 else { return .malformed(#"a "tu" message needs its trade"#) }
      do throws(ShapeError) {
        _ = try BitfinexTrade(fields[2])
        return .keepalive
      } catch {
        return .malformed(#""tu": \#(error.message)"#)
      }
    case .string(let kind):
      // Funding trades (`fte`, `ftu`), book checksums (`cs`): channels the ticker does not follow.
      return .ignored("channel message \(kind)")
    case .array(let entries):
      if context.bookChannels.contains(channel) || BitfinexTicker.isOne(entries) {
        return ticker(entries, channel: channel, context: context)
      }
      return snapshot(entries, channel: channel, context: context)
    default:
      return .malformed(
        "a channel message's payload must be a string or an array, not \(fields[1].kindDescription)")
    }
  }

  /// `[CHANNEL_ID,"te",[ID,MTS,AMOUNT,PRICE],…]`: one live trade.
  static func executed(_ fields: [JSONValue], channel: String, context: DecodingContext) -> ProviderEvent {
    guard fields.count >= 3 else { return .malformed(#"a "te" message needs its trade"#) }
    let trade: BitfinexTrade
    do throws(ShapeError) {
      trade = try BitfinexTrade(fields[2])
    } catch {
      return .malformed(#""te": \#(error.message)"#)
    }
    guard let symbol = context.channels[channel] else { return unknown(channel) }
    return .quotes([trade.quote(symbol: symbol)])
  }

  /// `[CHANNEL_ID,[[ID,MTS,AMOUNT,PRICE],…]]`: the channel's recent trades, newest first, sent
  /// once on subscribing. History, in time order: never printed as new trades. A snapshot with
  /// a malformed trade is reported whole rather than read in part.
  static func snapshot(_ entries: [JSONValue], channel: String, context: DecodingContext) -> ProviderEvent {
    var trades: [BitfinexTrade] = []
    var dropped: [String] = []
    for (index, entry) in entries.enumerated() {
      do throws(ShapeError) {
        trades.append(try BitfinexTrade(entry))
      } catch {
        dropped.append("snapshot[\(index)]: \(error.message)")
      }
    }
    guard dropped.isEmpty else { return .malformed(dropped.prefix(3).joined(separator: "; ")) }
    guard let symbol = context.channels[channel] else { return unknown(channel) }
    return .history(trades.reversed().map { $0.quote(symbol: symbol) })
  }

  /// `[CHANNEL_ID,[BID,BID_SIZE,ASK,ASK_SIZE,…]]`: the pair's best bid and ask, on subscribing and
  /// as they change. A ticker's shape on a trades channel is malformed.
  static func ticker(_ fields: [JSONValue], channel: String, context: DecodingContext) -> ProviderEvent {
    let ticker: BitfinexTicker
    do throws(ShapeError) {
      ticker = try BitfinexTicker(fields)
    } catch {
      return .malformed("ticker: \(error.message)")
    }
    guard let symbol = context.channels[channel] else {
      return .ignored("ticker of channel \(channel), not subscribed on this connection")
    }
    guard context.bookChannels.contains(channel) else {
      return .malformed("a ticker on channel \(channel), which carries trades")
    }
    return .quotes([ticker.quote(symbol: symbol)])
  }

  /// Trades of a channel no `subscribed` event of this connection named.
  static func unknown(_ channel: String) -> ProviderEvent {
    .ignored("trades of channel \(channel), not subscribed on this connection")
  }

  // MARK: Fields

  /// A channel id as the context keys it: the decimal text of a whole number.
  static func channelID(_ value: JSONValue?) -> String? {
    guard case .number(let text)? = value, let id = Int64(text) else { return nil }
    return String(id)
  }

  /// A number's text or a string's contents (Bitfinex's codes are numbers).
  static func text(_ value: JSONValue?) -> String? {
    switch value {
    case .number(let text)?, .string(let text)?: text
    default: nil
    }
  }
}
