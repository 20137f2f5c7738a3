import JSON

/// A client's request to Bybit, as the emulation reads it:
/// `{"req_id":"1","op":"subscribe","args":["publicTrade.BTCUSDT"]}`. `req_id` is optional (echoed
/// in the answer), `op` names the operation, `args` lists the topics.
struct BybitRequest: Sendable, Equatable {
  var requestID: String?
  var op: String
  /// The `args` array as sent (checked when the request is answered).
  var args: [JSONValue]?

  /// Why a message is no request: Bybit's answer, and the `req_id` to echo in it.
  struct Failure: Error, Equatable {
    var refusal: BybitWire.Refusal
    var requestID: String?
  }

  /// The request in `text`, or the refusal Bybit answers a message it cannot read with.
  static func parse(_ text: String) -> Result<BybitRequest, Failure> {
    guard let value = try? JSONParser().parse(text), case .object(let object) = value else {
      return .failure(Failure(refusal: .undecodable(text)))
    }
    let requestID: String? =
      switch object["req_id"] {
      case .string(let id)?, .number(let id)?: id
      default: nil
      }
    guard case .string(let op)? = object["op"] else {
      return .failure(Failure(refusal: .invalidOp, requestID: requestID))
    }
    return .success(BybitRequest(requestID: requestID, op: op, args: object["args"]?.arrayValue))
  }

  /// The topics of `args`, when it is a non-empty array of strings; nil otherwise.
  var topics: [String]? {
    guard let args, !args.isEmpty else { return nil }
    let topics = args.compactMap(\.stringValue)
    return topics.count == args.count ? topics : nil
  }
}
