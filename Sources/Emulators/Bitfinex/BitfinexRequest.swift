import JSON

/// A client's message to Bitfinex, as the emulation reads it: an object naming its `event`
/// (`subscribe`, `unsubscribe`, `ping`, `conf`, …) and that event's fields.
struct BitfinexRequest: Sendable, Equatable {
  var event: String
  var fields: JSONObject

  /// What `text` asks, or why Bitfinex would not read it.
  static func parse(_ text: String) -> Result<BitfinexRequest, Unreadable> {
    guard let value = try? JSONParser().parse(text) else { return .failure(.notJSON) }
    guard case .object(let object) = value else { return .failure(.notAnEvent) }
    guard case .string(let event)? = object["event"] else { return .failure(.notAnEvent) }
    return .success(BitfinexRequest(event: event, fields: object))
  }

  /// A string field's contents.
  func string(_ key: String) -> String? { fields[key]?.stringValue }

  /// `chanId` as a whole number.
  var channel: Int64? { fields["chanId"]?.numberText.flatMap { Int64($0) } }

  /// Why a message is no request.
  enum Unreadable: Error, Equatable {
    /// Not JSON: Bitfinex does not answer (observed), and the connection stays.
    case notJSON
    /// JSON without a string `event`: `event: invalid`.
    case notAnEvent
  }
}
