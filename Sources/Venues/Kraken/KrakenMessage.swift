import JSON

/// What a Kraken v2 server message means, read from its `JSONValue`.
///
/// Data comes on a channel: `{"channel":"ticker","type":"snapshot"|"update","data":[…]}`, the
/// heartbeat `{"channel":"heartbeat"}`, and `{"channel":"status",…}` when a connection opens.
/// Answers to requests name their method: `{"method":"subscribe","req_id":1,"result":{…},
/// "success":true,…}`, a refusal `{"error":"Currency pair not supported X","method":"subscribe",
/// "req_id":1,"success":false,"symbol":"X",…}`, and the ping's `{"method":"pong",…}`. Other
/// channels and unknown keys are ignored. A ticker is read for its last trade or, following the
/// top of book, for its best bid and ask: the message is the same either way, so `stream` says.
enum KrakenMessage {
  static func event(json: JSONValue, stream: MarketStream = .trades) -> ProviderEvent {
    guard case .object(let object) = json else {
      return .malformed("message must be a JSON object, not \(json.kindDescription)")
    }
    if let channel = object["channel"] {
      guard case .string(let name) = channel else {
        return .malformed(#""channel" must be a string, not "# + channel.kindDescription)
      }
      switch name {
      case "ticker": return stream == .topOfBook ? book(object) : ticker(object)
      case "heartbeat": return .keepalive
      default: return .ignored(name)
      }
    }
    if let method = object["method"] {
      guard case .string(let name) = method else {
        return .malformed(#""method" must be a string, not "# + method.kindDescription)
      }
      if name == "pong" { return .keepalive }
      guard case .bool(let success)? = object["success"] else {
        return .malformed(#"an answer to "\#(name)" has no boolean "success""#)
      }
      return success ? .acknowledged(id: requestID(object)) : .error(refusal(object, method: name))
    }
    if object["error"] != nil { return .error(refusal(object, method: nil)) }
    return .malformed(#"not a Kraken message: no "channel", "method" or "error""#)
  }

  /// The request id an answer echoes (`req_id`): our ids are integers; nil for anything else.
  static func requestID(_ object: JSONObject) -> Int? {
    guard case .number(let text)? = object["req_id"] else { return nil }
    return Int(text)
  }

  /// A `success:false` answer. It names the symbol it refuses when it answers a `subscribe`:
  /// that pair alone is refused, and the connection stays open, so it is never fatal.
  static func refusal(_ object: JSONObject, method: String?) -> VenueError {
    let message = object["error"]?.stringValue ?? "unspecified error"
    var symbol: String? = nil
    if method == "subscribe", case .string(let refused)? = object["symbol"], !refused.isEmpty {
      symbol = refused
    }
    return VenueError(message: message, requestID: requestID(object), fatal: false, symbol: symbol)
  }

  /// A ticker snapshot or update: one quote per entry of `data`. Entries without a last price
  /// (a pair that has not traded for a day) are skipped; one without a time (2024's updates) is
  /// a quote received now; malformed ones are dropped and described.
  static func ticker(_ object: JSONObject) -> ProviderEvent {
    entries(object, skipped: #"ticker without "last""#) { fields throws(ShapeError) -> Quote? in
      do throws(KrakenTicker.Problem) {
        return try KrakenTicker(object: fields).quote
      } catch {
        switch error {
        case .shape(let shape): throw shape
        case .noPrice: return nil
        }
      }
    }
  }

  /// A ticker read for its best bid and ask (`--bid-ask`): one top-of-book quote per entry of
  /// `data`. Entries with a side of the book empty (no `bid` or no `ask`) are skipped.
  static func book(_ object: JSONObject) -> ProviderEvent {
    entries(object, skipped: #"ticker without "bid" or "ask""#) { fields throws(ShapeError) -> Quote? in
      do throws(KrakenBookTicker.Problem) {
        return try KrakenBookTicker(object: fields).quote
      } catch {
        switch error {
        case .shape(let shape): throw shape
        case .emptySide: return nil
        }
      }
    }
  }

  /// The quotes `read` makes of the entries of a ticker's `data`: nil from `read` skips an entry
  /// (`skipped` says why, when nothing else came); malformed ones are dropped and described.
  private static func entries(
    _ object: JSONObject, skipped why: String, _ read: (JSONObject) throws(ShapeError) -> Quote?
  ) -> ProviderEvent {
    guard case .array(let entries)? = object["data"] else {
      return .malformed(#"a ticker message needs a "data" array"#)
    }
    var quotes: [Quote] = []
    var dropped: [String] = []
    var skipped: String? = nil
    for (index, entry) in entries.enumerated() {
      guard case .object(let fields) = entry else {
        dropped.append("data[\(index)]: must be an object, not \(entry.kindDescription)")
        continue
      }
      do throws(ShapeError) {
        if let quote = try read(fields) { quotes.append(quote) } else { skipped = why }
      } catch {
        dropped.append("data[\(index)]: \(error.message)")
      }
    }
    if dropped.isEmpty {
      if quotes.isEmpty { return .ignored(skipped ?? "ticker without data") }
      return .quotes(quotes)
    }
    if quotes.isEmpty {
      return .malformed("every ticker entry was invalid: " + dropped.joined(separator: "; "))
    }
    return .partial(quotes, dropped: dropped)
  }
}
