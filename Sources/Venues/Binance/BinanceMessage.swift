import JSON

/// What a Binance server message means, read from its `JSONValue`: the reference path that
/// `BinanceFastPath` must agree with.
///
/// In order of precedence: an `error` object (a refused request:
/// `{"error":{"code":2,"msg":"Invalid request: invalid stream"},"id":2}`), a `result` (the
/// acknowledgement of request `id`: `{"result":null,"id":1}`), a combined-stream wrapper
/// (`{"stream":"btcusdt@trade","data":{…}}`), or a bare event (`{"e":"trade",…}`). Events are
/// trades, `serverShutdown`, and others, which are ignored; a payload without `e` that has `b`
/// and `a` is a book ticker (`BinanceBookTicker`).
enum BinanceMessage {
  static func event(json: JSONValue) -> ProviderEvent {
    guard case .object(let object) = json else {
      return .malformed("message must be a JSON object, not \(json.kindDescription)")
    }
    if let error = object["error"] {
      guard case .object(let details) = error else {
        return .malformed(#""error" must be an object, not "# + error.kindDescription)
      }
      let code: String?
      switch details["code"] {
      case .number(let text)?: code = text
      case .string(let text)?: code = text
      default: code = nil
      }
      let message = details["msg"]?.stringValue ?? "unspecified error"
      return .error(VenueError(name: code, message: message, requestID: requestID(object), fatal: true))
    }
    if object["result"] != nil {
      return .acknowledged(id: requestID(object))
    }
    if object["stream"] != nil {
      guard case .object(let payload)? = object["data"] else {
        return .malformed(#"a combined-stream message needs a "data" object"#)
      }
      return event(payload: payload)
    }
    if object["e"] != nil || BinanceBookTicker.isOne(object) { return event(payload: object) }
    return .malformed(#"not a Binance message: no "e", "stream", "result" or "error""#)
  }

  /// The request id a reply names: our ids are integers; nil for null, strings and anything else.
  static func requestID(_ object: JSONObject) -> Int? {
    guard case .number(let text)? = object["id"] else { return nil }
    return Int(text)
  }

  /// One event (`{"e":"trade",…}`), bare or unwrapped from its stream.
  static func event(payload: JSONObject) -> ProviderEvent {
    if payload["e"] == nil, BinanceBookTicker.isOne(payload) {
      do throws(ShapeError) {
        return .quotes([try BinanceBookTicker(object: payload).quote])
      } catch {
        return .malformed(error.message)
      }
    }
    guard case .string(let type)? = payload["e"] else {
      return .malformed(#"event has no string "e""#)
    }
    switch type {
    case "trade":
      do throws(ShapeError) {
        return .quotes([try BinanceTrade(object: payload).quote])
      } catch {
        return .malformed(error.message)
      }
    case "serverShutdown":
      return .closingSoon("Binance announced a server shutdown")
    default:
      return .ignored(type)
    }
  }
}
