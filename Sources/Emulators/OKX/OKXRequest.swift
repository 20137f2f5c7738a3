import JSON

/// A client's request to OKX, as the emulation reads it: `{"id":"1","op":"subscribe","args":[…]}`.
/// `id` is optional (echoed in the answers), `op` names the operation, `args` lists the channels.
struct OKXRequest: Sendable, Equatable {
  var id: String?
  var op: String
  /// The `args` array as sent (each item is checked when it is answered).
  var args: [JSONValue]?

  /// The request in `text`, or the error OKX answers a message it cannot read with.
  static func parse(_ text: String) -> Result<OKXRequest, OKXWire.Refusal> {
    guard let value = try? JSONParser().parse(text), case .object(let object) = value else {
      return .failure(.invalidRequest(text))
    }
    let id: String?
    switch object["id"] {
    case nil: id = nil
    case .string(let text)? where Self.isValidID(text): id = text
    default: return .failure(.invalidRequest(text))
    }
    guard case .string(let op)? = object["op"] else { return .failure(.invalidRequest(text)) }
    return .success(OKXRequest(id: id, op: op, args: object["args"]?.arrayValue))
  }

  /// 1 to 32 ASCII letters and digits, as OKX documents a request id.
  static func isValidID(_ id: String) -> Bool {
    (1...32).contains(id.utf8.count)
      && id.utf8.allSatisfy {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
          || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0)
          || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0)
      }
  }

  /// One item of `args`: its channel and instrument, or why OKX refuses it.
  static func channel(of arg: JSONValue) -> Result<(channel: String, instrument: String?), OKXWire.Refusal> {
    guard case .object(let object) = arg else { return .failure(.invalidArgs) }
    guard case .string(let channel)? = object["channel"], !channel.isEmpty else {
      return .failure(.empty("channel"))
    }
    switch object["instId"] {
    case nil: return .success((channel, nil))
    case .string(let instrument)?: return .success((channel, instrument.isEmpty ? nil : instrument))
    default: return .failure(.invalidArgs)
    }
  }
}
