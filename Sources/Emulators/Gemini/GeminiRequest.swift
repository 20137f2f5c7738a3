import JSON

/// A client's request to Gemini's market data v2, as the emulation reads it:
/// `{"type":"subscribe","subscriptions":[{"name":"l2","symbols":["BTCUSD","ETHUSD"]}]}`, or the
/// same with `"type":"unsubscribe"`.
struct GeminiRequest: Sendable, Equatable {
  /// `subscribe` or `unsubscribe`.
  var type: String
  /// The symbols of its `l2` subscriptions, in order, as written.
  var symbols: [String]

  /// Why a message is no request, as the emulation answers it (`{"reason":…,"result":"error"}`).
  /// Gemini documents no such errors: these reasons are the emulation's own.
  enum Refusal: String, Error, Sendable, Equatable {
    /// Not a JSON object.
    case invalidJSON = "InvalidJson"
    /// A JSON object, but no `subscribe` or `unsubscribe` with a list of subscriptions.
    case invalidRequest = "InvalidRequest"
  }

  static func parse(_ text: String) -> Result<GeminiRequest, Refusal> {
    guard let value = try? JSONParser().parse(text), case .object(let object) = value else {
      return .failure(.invalidJSON)
    }
    guard case .string(let type)? = object["type"], type == "subscribe" || type == "unsubscribe",
      case .array(let subscriptions)? = object["subscriptions"]
    else { return .failure(.invalidRequest) }
    var symbols: [String] = []
    for subscription in subscriptions {
      guard case .object(let item) = subscription, case .string(let name)? = item["name"],
        case .array(let list)? = item["symbols"]
      else { return .failure(.invalidRequest) }
      let names = list.compactMap(\.stringValue)
      guard names.count == list.count else { return .failure(.invalidRequest) }
      // Only `l2` is emulated (candles, mark prices and funding amounts are not).
      if name == "l2" { symbols += names }
    }
    return .success(GeminiRequest(type: type, symbols: symbols))
  }
}
