import JSON
import TickerSupport

/// What one Hyperliquid message means (docs/protocols.md §7), by its `channel`: `trades` (fills),
/// `bbo` (the best bid and offer, `HyperliquidBBO`), `subscriptionResponse` (a request taken), `pong`, `error` (a request refused, in words).
/// Other channels are ignored, unknown keys too.
enum HyperliquidMessage {
  static func event(json: JSONValue) -> ProviderEvent {
    guard case .object(let object) = json else {
      return .malformed("message must be a JSON object, not \(json.kindDescription)")
    }
    guard let channel = object["channel"] else { return .malformed(#"message has no "channel""#) }
    guard case .string(let name) = channel else {
      return .malformed(#""channel" must be a string, not "# + channel.kindDescription)
    }
    switch name {
    case "trades": return trades(object["data"])
    case "bbo": return bbo(object["data"])
    case "subscriptionResponse": return .acknowledged(id: nil)
    case "pong": return .keepalive
    case "error": return .error(error(object["data"]))
    default: return .ignored(name)
    }
  }

  /// The fills of a `trades` message, in order; malformed ones are dropped and said, the others
  /// kept. An empty list is nothing to print.
  static func trades(_ data: JSONValue?) -> ProviderEvent {
    guard case .array(let entries)? = data else {
      return .malformed(#"a trades message needs a "data" array"#)
    }
    var quotes: [Quote] = []
    var dropped: [String] = []
    for (index, entry) in entries.enumerated() {
      guard case .object(let fields) = entry else {
        dropped.append("data[\(index)]: must be an object, not \(entry.kindDescription)")
        continue
      }
      do throws(ShapeError) {
        quotes.append(try HyperliquidTrade(object: fields).quote)
      } catch {
        dropped.append("data[\(index)]: \(error.message)")
      }
    }
    if dropped.isEmpty { return .quotes(quotes) }
    return quotes.isEmpty ? .malformed(dropped.joined(separator: "; ")) : .partial(quotes, dropped: dropped)
  }

  /// A `bbo` message's quote; nothing while a side is empty.
  static func bbo(_ data: JSONValue?) -> ProviderEvent {
    guard case .object(let object)? = data else { return .malformed(#"a bbo message needs a "data" object"#) }
    do throws(ShapeError) {
      guard let quote = try HyperliquidBBO(object: object).quote else {
        return .ignored("bbo with an empty side")
      }
      return .quotes([quote])
    } catch {
      return .malformed(error.message)
    }
  }

  /// `{"channel":"error","data":"Invalid subscription: {\"type\":\"trades\",\"coin\":\"NOPE\"}"}`:
  /// the text says what was refused and quotes it. A subscription to a coin refused names that
  /// coin, taken back alone; `Already subscribed`, `Already unsubscribed` and anything else are
  /// reported, the connection and the other coins going on.
  static func error(_ data: JSONValue?) -> VenueError {
    let message: String
    switch data {
    case .string(let text)? where !text.isEmpty: message = text
    default: message = "unspecified error"
    }
    let already = message.hasPrefix("Already subscribed") || message.hasPrefix("Already unsubscribed")
    return VenueError(message: message, fatal: false, symbol: already ? nil : refusedCoin(in: message))
  }

  /// The coin of the `trades` or `bbo` subscription an error quotes: the JSON from its first `{`
  /// to its last `}`, a subscription (`{"type":"trades","coin":…}`) or a whole subscribe request
  /// (`{"method":"subscribe","subscription":{…}}`); nil when it quotes none, or an unsubscribe.
  static func refusedCoin(in message: String) -> String? {
    guard let open = message.firstIndex(of: "{"), let close = message.lastIndex(of: "}"), open < close,
      case .object(var quoted)? = try? JSONParser(maxDepth: 8).parse(String(message[open...close]))
    else { return nil }
    if case .object(let subscription)? = quoted["subscription"] {
      guard quoted["method"]?.stringValue != "unsubscribe" else { return nil }
      quoted = subscription
    }
    guard let type = quoted["type"]?.stringValue, type == "trades" || type == "bbo",
      case .string(let coin)? = quoted["coin"], !coin.isEmpty
    else { return nil }
    return coin
  }
}
