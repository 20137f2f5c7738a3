import JSON

/// A client's message to Hyperliquid, as the emulation reads it:
/// `{"method":"subscribe"|"unsubscribe","subscription":{"type":…,"coin":…}}` or `{"method":"ping"}`.
enum HyperliquidRequest: Sendable, Equatable {
  case ping
  /// A subscribe or unsubscribe: the subscription's `type` and `coin` (nil when it has none),
  /// and the subscription as the venue echoes it.
  case subscription(method: String, type: String, coin: String?, echo: String)

  /// The request in `text`, or the refusal of a message Hyperliquid cannot read as one.
  static func parse(_ text: String) -> Result<HyperliquidRequest, HyperliquidWire.Refusal> {
    guard let value = try? JSONParser().parse(text), case .object(let object) = value,
      case .string(let method)? = object["method"]
    else { return .failure(.unreadable(text)) }
    switch method {
    case "ping": return .success(.ping)
    case "subscribe", "unsubscribe":
      guard case .object(let subscription)? = object["subscription"],
        case .string(let type)? = subscription["type"]
      else { return .failure(.unreadable(text)) }
      let coin = subscription["coin"]?.stringValue
      // Echoed as the venue writes a trades or bbo subscription; anything else as it came.
      let echo: String
      if type == "trades" || type == "bbo", let coin {
        echo = HyperliquidWire.subscription(coin: coin, type: type)
      } else {
        echo = JSONValue.object(subscription).serialized
      }
      return .success(.subscription(method: method, type: type, coin: coin, echo: echo))
    default:
      // `post` (info and actions over the socket) is not emulated.
      return .failure(.unreadable(text))
    }
  }
}
