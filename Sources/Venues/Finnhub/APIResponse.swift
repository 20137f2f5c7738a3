import JSON

/// One Finnhub server message: `{"type":"trade","data":[…]}`, `{"type":"ping"}` or
/// `{"type":"error","msg":"…"}`. Unknown keys are ignored.
public struct APIResponse: Sendable, Equatable {
  public var type: String
  /// The trade entries that decoded; nil when the message had no `data` array.
  public var data: [PriceData]?
  public var msg: String?
  /// One line per `data` entry that did not decode, naming its index and why.
  public var dropped: [String]

  public init(type: String, data: [PriceData]? = nil, msg: String? = nil, dropped: [String] = []) {
    self.type = type
    self.data = data
    self.msg = msg
    self.dropped = dropped
  }

  /// Decodes a message. Throws only when the message as a whole is unusable (not an object, no
  /// `type`, `data` not an array); a bad entry inside `data` is listed in `dropped` instead.
  public init(json: JSONValue) throws(ShapeError) {
    guard case .object(let object) = json else {
      throw ShapeError("message must be a JSON object, not \(json.kindDescription)")
    }
    guard case .string(let type)? = object["type"] else {
      throw ShapeError(#"message has no string "type""#)
    }
    var msg: String? = nil
    if case .string(let text)? = object["msg"] { msg = text }
    var data: [PriceData]? = nil
    var dropped: [String] = []
    switch object["data"] {
    case nil, .null?: break
    case .array(let entries)?:
      var decoded: [PriceData] = []
      decoded.reserveCapacity(entries.count)
      for (index, entry) in entries.enumerated() {
        do throws(ShapeError) {
          decoded.append(try PriceData(json: entry))
        } catch {
          dropped.append("data[\(index)]: \(error.message)")
        }
      }
      data = decoded
    case let other?:
      throw ShapeError(#""data" must be an array, not "# + other.kindDescription)
    }
    self.init(type: type, data: data, msg: msg, dropped: dropped)
  }
}
