import JSON

/// What one Bithumb message means (docs/protocols.md §12), in this order of precedence: an error
/// (`{"error":{"name":…,"message":…}}`, which the venue follows with a close), a status (the
/// answer to `PING`, `{"status":"UP"}`), or a typed message (`trade`; `orderbook`, the top of
/// book, read as Upbit's, `UpbitOrderbook`; `ticker` is ignored). Unknown keys are ignored.
enum BithumbMessage {
  static func event(json: JSONValue) -> ProviderEvent {
    guard case .object(let object) = json else {
      return .malformed("message must be a JSON object, not \(json.kindDescription)")
    }
    if let error = object["error"] {
      switch error {
      case .object(let details):
        let name = details["name"]?.stringValue
        let message = details["message"]?.stringValue ?? name ?? "unspecified error"
        // A request Bithumb cannot read: it closes next, and the same request would fail again.
        return .error(VenueError(name: name, message: message, fatal: true))
      case .string(let message):
        return .error(VenueError(message: message, fatal: true))
      default:
        return .malformed(#""error" must be an object, not "# + error.kindDescription)
      }
    }
    if let status = object["status"] {
      guard case .string(let text) = status else {
        return .malformed(#""status" must be a string, not "# + status.kindDescription)
      }
      return text == "UP" ? .keepalive : .ignored("status \(text)")
    }
    guard case .string(let type)? = object["type"] else {
      return .malformed(#"message has no string "type", and no "status" or "error""#)
    }
    do throws(ShapeError) {
      switch type {
      case "trade": return .quotes([try BithumbTrade(object: object).quote])
      case "orderbook":
        guard let top = try UpbitOrderbook.top(of: object) else {
          return .ignored("orderbook with an empty side")
        }
        return .quotes([top.quote])
      default: return .ignored(type)
      }
    } catch {
      return .malformed(error.message)
    }
  }
}
