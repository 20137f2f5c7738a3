import JSON

/// A client request to Kraken's v2 API as the emulator reads it:
/// `{"method":"subscribe","params":{"channel":"ticker","symbol":["BTC/USD"],"snapshot":true},"req_id":1}`
/// (with `"event_trigger":"bbo"`, tickers on each change of the best bid and ask),
/// `{"method":"unsubscribe",…}`, `{"method":"ping","req_id":2}`.
struct KrakenRequest: Sendable, Equatable {
  /// `method` (`subscribe`, `unsubscribe`, `ping`, or another, which is refused).
  var method: String
  /// `req_id` as written, echoed in every answer; nil when the request has none.
  var requestID: String?
  /// `params.channel` (subscriptions only).
  var channel: String
  /// `params.symbol` (subscriptions only).
  var symbols: [String]
  /// `params.snapshot` (subscriptions only; true unless false).
  var snapshot: Bool
  /// `params.event_trigger` is `bbo` (tickers on each change of the best bid and ask) rather
  /// than `trades`, the default.
  var onBestBidOffer = false

  /// Why a request cannot be read; the text is what the emulator answers. Kraken documents the
  /// shape of a refusal (`"success":false` and an `error` text), not these texts.
  struct Failure: Error, Equatable {
    var text: String
    /// The method, when the request names one (the refusal echoes it).
    var method: String?
    var requestID: String?
  }

  static func parse(_ text: String) -> Result<KrakenRequest, Failure> {
    guard let value = try? JSONParser().parse(text), case .object(let object) = value else {
      return .failure(Failure(text: "Malformed request"))
    }
    var requestID: String? = nil
    if let id = object["req_id"] {
      guard case .number(let digits) = id, Int64(digits) != nil else {
        return .failure(Failure(text: "req_id must be an integer"))
      }
      requestID = digits
    }
    guard case .string(let method)? = object["method"] else {
      return .failure(Failure(text: "Malformed request", requestID: requestID))
    }
    let failure = { (text: String) in Failure(text: text, method: method, requestID: requestID) }
    switch method {
    case "ping":
      return .success(
        KrakenRequest(method: method, requestID: requestID, channel: "", symbols: [], snapshot: false))
    case "subscribe", "unsubscribe":
      guard case .object(let params)? = object["params"] else { return .failure(failure("Missing params")) }
      guard case .string(let channel)? = params["channel"] else {
        return .failure(failure("Missing channel"))
      }
      guard case .array(let list)? = params["symbol"], !list.isEmpty else {
        return .failure(failure("Missing symbol"))
      }
      let symbols = list.compactMap(\.stringValue)
      guard symbols.count == list.count else { return .failure(failure("symbol must be a list of strings")) }
      var snapshot = true
      if let flag = params["snapshot"] {
        guard case .bool(let value) = flag else { return .failure(failure("snapshot must be a boolean")) }
        snapshot = value
      }
      var onBestBidOffer = false
      if let trigger = params["event_trigger"] {
        guard case .string(let name) = trigger, name == "bbo" || name == "trades" else {
          return .failure(failure("event_trigger must be bbo or trades"))
        }
        onBestBidOffer = name == "bbo"
      }
      return .success(
        KrakenRequest(
          method: method, requestID: requestID, channel: channel, symbols: symbols, snapshot: snapshot,
          onBestBidOffer: onBestBidOffer))
    default:
      return .failure(failure("Method not found"))
    }
  }
}
