import JSON
import TickerSupport

/// What one Bybit v5 public message means (docs/protocols.md §9): a push on a topic
/// (`{"topic":"publicTrade.BTCUSDT","ts":…,"type":"snapshot","data":[…]}`), or an answer to a
/// request, named by its `op`: `{"success":true,"ret_msg":"subscribe","conn_id":…,"req_id":"1",
/// "op":"subscribe"}`, a refusal with `"success":false` and the reason in `ret_msg`, and the
/// ping's `{"success":true,"ret_msg":"pong",…,"op":"ping"}`. The level-1 book's pushes
/// (`orderbook.1.<symbol>`, `BybitOrderBook`) change the connection's books in a
/// `DecodingContext`. Other topics and ops are ignored, unknown keys too.
enum BybitMessage {
  /// The prefix of the trade topics: `publicTrade.<symbol>`.
  static let tradeTopic = "publicTrade."

  static func event(json: JSONValue, context: inout DecodingContext) -> ProviderEvent {
    guard case .object(let object) = json else {
      return .malformed("message must be a JSON object, not \(json.kindDescription)")
    }
    if let topic = object["topic"] {
      guard case .string(let name) = topic else {
        return .malformed(#""topic" must be a string, not "# + topic.kindDescription)
      }
      if name.hasPrefix(BybitOrderBook.topic) {
        do throws(ShapeError) {
          let topicSymbol = String(name.dropFirst(BybitOrderBook.topic.count))
          return try BybitOrderBook(object: object, topicSymbol: topicSymbol).event(context: &context)
        } catch {
          return .malformed(error.message)
        }
      }
      return push(topic: name, object)
    }
    if let op = object["op"] {
      guard case .string(let name) = op else {
        return .malformed(#""op" must be a string, not "# + op.kindDescription)
      }
      return answer(op: name, object)
    }
    // An answer without `op` (what Bybit says to a message it cannot read, as observed).
    if object["success"] != nil { return answer(op: nil, object) }
    return .malformed(#"not a Bybit message: no "topic", "op" or "success""#)
  }

  /// A push: the trades of a `publicTrade` message as quotes, in order. Every such message says
  /// `"type":"snapshot"`, but its trades are new ones (Bybit sends no history on subscribing),
  /// so the type is not read. Other topics are ignored, named by their channel.
  static func push(topic: String, _ object: JSONObject) -> ProviderEvent {
    guard topic.hasPrefix(tradeTopic) else {
      return .ignored("topic " + (topic.split(separator: ".").first.map(String.init) ?? topic))
    }
    guard case .array(let entries)? = object["data"] else {
      return .malformed(#"a publicTrade message needs a "data" array"#)
    }
    let symbol = String(topic.dropFirst(tradeTopic.count))
    let time = object["ts"]?.numberText.flatMap(VenueJSON.milliseconds).flatMap { $0 >= 0 ? $0 : nil }
    var quotes: [Quote] = []
    var dropped: [String] = []
    for (index, entry) in entries.enumerated() {
      guard case .object(let fields) = entry else {
        dropped.append("data[\(index)]: must be an object, not \(entry.kindDescription)")
        continue
      }
      do throws(ShapeError) {
        quotes.append(try BybitTrade(object: fields, topicSymbol: symbol, messageTime: time).quote)
      } catch {
        dropped.append("data[\(index)]: \(error.message)")
      }
    }
    if dropped.isEmpty { return .quotes(quotes) }
    return quotes.isEmpty ? .malformed(dropped.joined(separator: "; ")) : .partial(quotes, dropped: dropped)
  }

  /// An answer to a request. `already subscribed` is Bybit's refusal of a topic the connection
  /// has: what was asked for holds, so it counts as the acknowledgement.
  static func answer(op: String?, _ object: JSONObject) -> ProviderEvent {
    if op == "ping" || op == "pong" {
      // The spot pong is `{"success":true,"ret_msg":"pong",…,"op":"ping"}`; the private
      // channels' `{"op":"pong",…}` has no `success`.
      if case .bool(false)? = object["success"] { return .error(refusal(op: op, object)) }
      return .keepalive
    }
    guard case .bool(let success)? = object["success"] else {
      return .malformed(#"an answer to "\#(op ?? "")" has no boolean "success""#)
    }
    let alreadyHeld = op == "subscribe" && (retMsg(object)?.contains(text: "already subscribed") ?? false)
    guard success || alreadyHeld else { return .error(refusal(op: op, object)) }
    guard let op, op == "subscribe" || op == "unsubscribe" else { return .ignored(op ?? "answer") }
    return .acknowledged(id: requestID(object))
  }

  /// A `success:false` answer. A refused subscription that names a trade or book topic refuses
  /// that symbol alone (`Invalid symbol :[publicTrade.NOPEUSDT]`, and the linear feed's
  /// `error:handler not found,topic:publicTrade.NOPEUSDT`): not fatal, the connection stays.
  /// A subscription refused without a name (`args size >10`) is refused as such, which sending
  /// it again would repeat; anything else (an unsubscription, an unreadable message) is
  /// reported and the run goes on.
  static func refusal(op: String?, _ object: JSONObject) -> VenueError {
    let message = retMsg(object) ?? "unspecified error"
    let symbol = op == "subscribe" ? refusedSymbol(in: message) : nil
    return VenueError(
      message: message, requestID: requestID(object), fatal: op == "subscribe" && symbol == nil,
      symbol: symbol)
  }

  /// The symbol of the first trade or level-1 book topic `message` names: the ASCII letters and
  /// digits after `publicTrade.` or `orderbook.1.`; nil when it names none.
  static func refusedSymbol(in message: String) -> String? {
    guard
      let label = message.firstRange(ofText: tradeTopic) ?? message.firstRange(ofText: BybitOrderBook.topic)
    else { return nil }
    let symbol = message[label.upperBound...].utf8.prefix {
      (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
        || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0)
        || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0)
    }
    return symbol.isEmpty ? nil : String(decoding: symbol, as: UTF8.self)
  }

  /// `ret_msg`, when it is a non-empty string.
  static func retMsg(_ object: JSONObject) -> String? {
    guard case .string(let text)? = object["ret_msg"], !text.isEmpty else { return nil }
    return text
  }

  /// The request's `req_id` as Bybit echoes it (a string: the ticker's are digits); nil for
  /// anything else (the keepalive's `ping`, none at all).
  static func requestID(_ object: JSONObject) -> Int? {
    switch object["req_id"] {
    case .string(let text)?, .number(let text)?: Int(text)
    default: nil
    }
  }
}
