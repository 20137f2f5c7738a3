import JSON
import Venues

/// One Bithumb request, validated as the venue documents it:
/// `[{"ticket":"…"},{"type":"trade","codes":[…],"isOnlySnapshot":…,"isOnlyRealtime":…},{"format":"DEFAULT"}]`
/// — a JSON array of objects, the ticket first, one or more type objects with their codes, and
/// an optional format last.
struct BithumbRequest: Sendable, Equatable {
  var ticket: String
  /// The codes of the `trade` type objects, in order, without repeats. Not checked: Bithumb
  /// accepts codes it does not list without a word (and sends nothing for them).
  var tradeCodes: [String] = []
  /// The codes whose latest trade is asked for (type objects without `isOnlyRealtime`).
  var snapshotCodes: Set<String> = []
  /// The codes whose trades are asked for as they happen (type objects without `isOnlySnapshot`).
  var realtimeCodes: Set<String> = []
  /// The codes of the `orderbook` type objects, in order, without repeats, and those whose book
  /// is asked for as a snapshot and as it changes (as for trades).
  var orderbookCodes: [String] = []
  var bookSnapshotCodes: Set<String> = []
  var bookRealtimeCodes: Set<String> = []
  /// Every type asked for (`ticker`, `trade`, `orderbook`); trades and order books are emulated.
  var types: [String] = []
  var format: BithumbWire.Format = .default

  /// An error as Bithumb writes it (`{"error":{"name":…,"message":…}}`). The names and the
  /// messages are the documented ones, but for an unknown type and for both flags at once, whose
  /// answers are not documented (ours).
  struct Failure: Error, Sendable, Equatable {
    var name: String
    var message: String

    static let wrongFormat = Failure(name: "WRONG_FORMAT", message: "Format 이 맞지 않습니다.")
    static let noTicket = Failure(name: "NO_TICKET", message: "티켓이 존재하지 않거나, 유효하지 않습니다.")
    static let noType = Failure(name: "NO_TYPE", message: "type 필드가 존재하지 않습니다.")
    static let noCodes = Failure(name: "NO_CODES", message: "codes 필드가 존재하지 않습니다.")
    static let emptyCodes = Failure(name: "INVALID_PARAM", message: "codes 필드가 비어 있습니다.")
    static func unsupportedFormat(_ format: String) -> Failure {
      Failure(name: "INVALID_PARAM", message: "\(format)은 지원하지 않는 포맷입니다.")
    }
    static func invalidParameter(_ what: String) -> Failure {
      Failure(name: "INVALID_PARAM", message: "Invalid parameter: \(what)")
    }
  }

  /// The types the public feed serves.
  static let knownTypes: Set<String> = ["ticker", "trade", "orderbook"]

  static func parse(_ text: String) -> Result<BithumbRequest, Failure> {
    guard let value = try? JSONParser().parse(text), let items = value.arrayValue, !items.isEmpty else {
      return .failure(.wrongFormat)
    }
    let objects = items.compactMap(\.objectValue)
    guard objects.count == items.count else { return .failure(.wrongFormat) }
    guard let ticket = objects[0]["ticket"]?.stringValue, !ticket.isEmpty else { return .failure(.noTicket) }
    var request = BithumbRequest(ticket: ticket)
    for (index, object) in objects.enumerated().dropFirst() {
      if let format = object["format"] {
        // The format object comes last.
        guard index == objects.count - 1, object.count == 1 else { return .failure(.wrongFormat) }
        guard let name = format.stringValue else { return .failure(.invalidParameter("format")) }
        guard let parsed = BithumbWire.Format(rawValue: name) else {
          return .failure(.unsupportedFormat(name))
        }
        request.format = parsed
        continue
      }
      if case .failure(let failure) = request.add(object) { return .failure(failure) }
    }
    if request.types.isEmpty { return .failure(.noType) }
    return .success(request)
  }

  /// One type object.
  private mutating func add(_ object: JSONObject) -> Result<Void, Failure> {
    guard let typeValue = object["type"] else {
      return .failure(object["ticket"] != nil ? .wrongFormat : .noType)
    }
    guard let type = typeValue.stringValue, Self.knownTypes.contains(type) else {
      return .failure(.invalidParameter("type"))
    }
    types.append(type)
    guard let codes = object["codes"] else { return .failure(.noCodes) }
    guard let list = codes.arrayValue else { return .failure(.invalidParameter("codes")) }
    guard !list.isEmpty else { return .failure(.emptyCodes) }
    let names = list.compactMap(\.stringValue)
    guard names.count == list.count else { return .failure(.invalidParameter("codes")) }
    var flags: [String: Bool] = [:]
    for flag in ["isOnlySnapshot", "isOnlyRealtime"] where object[flag] != nil {
      guard let set = object[flag]?.boolValue else { return .failure(.invalidParameter(flag)) }
      flags[flag] = set
    }
    let onlySnapshot = flags["isOnlySnapshot"] ?? false
    let onlyRealtime = flags["isOnlyRealtime"] ?? false
    if onlySnapshot && onlyRealtime {
      return .failure(.invalidParameter("isOnlySnapshot and isOnlyRealtime"))
    }
    if type == "orderbook" {
      for name in names {
        if !orderbookCodes.contains(name) { orderbookCodes.append(name) }
        if !onlyRealtime { bookSnapshotCodes.insert(name) }
        if !onlySnapshot { bookRealtimeCodes.insert(name) }
      }
    }
    guard type == "trade" else { return .success(()) }
    for name in names {
      if !tradeCodes.contains(name) { tradeCodes.append(name) }
      if !onlyRealtime { snapshotCodes.insert(name) }
      if !onlySnapshot { realtimeCodes.insert(name) }
    }
    return .success(())
  }
}
