import JSON
import Venues

/// One Upbit subscription request, validated as strictly as the venue documents it:
/// `[{"ticket":"…"},{"type":"ticker","codes":[…]},{"format":"SIMPLE"}]` — a JSON array of
/// objects, the ticket first, one or more type objects with their codes, and an optional
/// format last.
struct UpbitRequest: Sendable, Equatable {
  var ticket: String
  /// The codes of the `ticker` type objects, in order, without repeats. Not checked: Upbit
  /// accepts unknown and lower-case codes without a word (and sends nothing for them).
  var tickerCodes: [String]
  /// The codes of the `orderbook` type objects, in order, without repeats, a unit count
  /// (`KRW-BTC.15`) taken off: the book's messages name the code alone.
  var orderbookCodes: [String] = []
  /// Every type asked for (`ticker`, `trade`, `orderbook`, …); tickers and order books are
  /// emulated.
  var types: [String]
  var format: UpbitTicker.Format
  /// `isOnlySnapshot` / `isOnlyRealtime` of the ticker type object.
  var onlySnapshot = false
  var onlyRealtime = false
  /// `isOnlySnapshot` / `isOnlyRealtime` of the orderbook type object.
  var orderbookOnlySnapshot = false
  var orderbookOnlyRealtime = false

  /// An error as Upbit names it (`{"error":{"name":…,"message":…}}`). The names are Upbit's;
  /// the messages are ours, but for `WRONG_FORMAT`'s, which is the recorded one.
  struct Failure: Error, Sendable, Equatable {
    var name: String
    var message: String

    static let wrongFormat = Failure(name: "WRONG_FORMAT", message: "Format 이 맞지 않습니다.")
    static let noTicket = Failure(name: "NO_TICKET", message: "No ticket")
    static let noType = Failure(name: "NO_TYPE", message: "No type")
    static let noCodes = Failure(name: "NO_CODES", message: "No codes")
    static func invalidParameter(_ what: String) -> Failure {
      Failure(name: "INVALID_PARAM", message: "Invalid parameter: \(what)")
    }
  }

  /// The types a request may name (Upbit's public and private ones).
  static let knownTypes: Set<String> = ["ticker", "trade", "orderbook", "candle.1s", "myOrder", "myAsset"]

  static func parse(_ text: String) -> Result<UpbitRequest, Failure> {
    guard let value = try? JSONParser().parse(text), let items = value.arrayValue, !items.isEmpty else {
      return .failure(.wrongFormat)
    }
    let objects = items.compactMap(\.objectValue)
    guard objects.count == items.count else { return .failure(.wrongFormat) }
    guard let ticket = objects[0]["ticket"]?.stringValue, !ticket.isEmpty else { return .failure(.noTicket) }
    var request = UpbitRequest(
      ticket: ticket, tickerCodes: [], orderbookCodes: [], types: [], format: .default)
    for (index, object) in objects.enumerated().dropFirst() {
      if let format = object["format"] {
        // The format object comes last.
        guard index == objects.count - 1, object.count == 1 else { return .failure(.wrongFormat) }
        guard let name = format.stringValue, let parsed = UpbitTicker.Format(rawValue: name) else {
          return .failure(.invalidParameter("format"))
        }
        request.format = parsed
        continue
      }
      guard let typeValue = object["type"] else {
        return .failure(object["ticket"] != nil ? .wrongFormat : .noType)
      }
      guard let type = typeValue.stringValue, knownTypes.contains(type) else {
        return .failure(.invalidParameter("type"))
      }
      request.types.append(type)
      if type == "myOrder" || type == "myAsset" { continue }
      guard let codes = object["codes"]?.arrayValue, !codes.isEmpty else { return .failure(.noCodes) }
      let names = codes.compactMap(\.stringValue)
      guard names.count == codes.count else { return .failure(.invalidParameter("codes")) }
      for flag in ["isOnlySnapshot", "isOnlyRealtime"]
      where object[flag] != nil && object[flag]?.boolValue == nil {
        return .failure(.invalidParameter(flag))
      }
      if type == "ticker" {
        for name in names where !request.tickerCodes.contains(name) { request.tickerCodes.append(name) }
        request.onlySnapshot = object["isOnlySnapshot"]?.boolValue ?? false
        request.onlyRealtime = object["isOnlyRealtime"]?.boolValue ?? false
      }
      if type == "orderbook" {
        for name in names.map(Self.orderbookCode) where !request.orderbookCodes.contains(name) {
          request.orderbookCodes.append(name)
        }
        request.orderbookOnlySnapshot = object["isOnlySnapshot"]?.boolValue ?? false
        request.orderbookOnlyRealtime = object["isOnlyRealtime"]?.boolValue ?? false
      }
    }
    if request.types.isEmpty { return .failure(.noType) }
    if request.onlySnapshot && request.onlyRealtime
      || request.orderbookOnlySnapshot && request.orderbookOnlyRealtime
    {
      return .failure(.invalidParameter("isOnlySnapshot and isOnlyRealtime"))
    }
    return .success(request)
  }

  /// An orderbook code without its unit count: `KRW-BTC.15` → `KRW-BTC`.
  static func orderbookCode(_ name: String) -> String {
    guard let dot = name.firstIndex(of: ".") else { return name }
    return String(name[..<dot])
  }
}
