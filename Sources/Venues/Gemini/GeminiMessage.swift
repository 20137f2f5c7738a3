import JSON
import WebSocketWire

/// What one message of Gemini's market data v2 means, read from its JSON (docs/protocols.md §10):
/// a `trade`, an `l2_updates` (the first of each symbol folds in its last trades: history; later
/// ones carry book changes only), a `heartbeat`, or an error `{"reason":…,"result":"error"}`.
/// Other message types (candles, mark prices, …) are ignored, unknown keys too.
enum GeminiMessage {
  /// A message's meaning, and the symbol whose book it carries (an `l2_updates`): the answer to
  /// that symbol's subscription.
  struct Reading: Sendable, Equatable {
    var event: ProviderEvent
    var book: String? = nil
    /// The book is the symbol's whole one: the first `l2_updates` of its subscription, the one
    /// that folds in its last trades.
    var isFirstBook = false
  }

  /// The message's JSON, parsed without keeping a book: the levels of a top-level `changes` array
  /// are read and dropped one at a time (a first `l2_updates` carries the whole book, hundreds
  /// of kilobytes on a busy market, and nothing of it is used).
  static func parse(_ message: WebSocketMessage, with parser: JSONParser) -> Result<JSONValue, JSONError> {
    func parse(_ bytes: UnsafeRawBufferPointer) -> Result<JSONValue, JSONError> {
      do throws(JSONError) {
        return .success(
          try parser.parseStreaming(bytes, arrayUnder: "changes", every: Int.max) { _ in }.object)
      } catch {
        return .failure(error)
      }
    }
    switch message {
    case .text(var text): return text.withUTF8 { parse(UnsafeRawBufferPointer($0)) }
    case .binary(let bytes): return bytes.withUnsafeBytes(parse)
    }
  }

  static func reading(json: JSONValue) -> Reading {
    guard case .object(let object) = json else {
      return Reading(event: .malformed("message must be a JSON object, not \(json.kindDescription)"))
    }
    if let type = object["type"] {
      guard case .string(let name) = type else {
        return Reading(event: .malformed(#""type" must be a string, not "# + type.kindDescription))
      }
      switch name {
      case "trade": return Reading(event: trade(object))
      case "l2_updates": return book(object)
      case "heartbeat": return Reading(event: .keepalive)
      default: return Reading(event: .ignored(name))
      }
    }
    if let result = object["result"] {
      guard case .string("error") = result else { return Reading(event: .ignored("result")) }
      return Reading(event: .error(error(object)))
    }
    return Reading(event: .malformed(#"not a Gemini message: no "type" and no "result""#))
  }

  static func trade(_ object: JSONObject) -> ProviderEvent {
    do throws(ShapeError) {
      return .quotes([try GeminiTrade(object: object).quote])
    } catch {
      return .malformed(error.message)
    }
  }

  /// An `l2_updates`: the trades it folds in as history (the first of a symbol's subscription),
  /// or nothing to print (book changes). The book itself is not read.
  static func book(_ object: JSONObject) -> Reading {
    guard case .string(let symbol)? = object["symbol"], !symbol.isEmpty else {
      return Reading(event: .malformed(#"l2_updates: "symbol" must be a non-empty string"#))
    }
    switch object["trades"] {
    case nil, .null?:
      return Reading(event: .ignored("l2_updates"), book: symbol)
    case .array(let entries)?:
      return Reading(event: history(entries, symbol: symbol), book: symbol, isFirstBook: true)
    case let other?:
      return Reading(
        event: .malformed(#"l2_updates: "trades" must be an array, not "# + other.kindDescription),
        book: symbol, isFirstBook: true)
    }
  }

  /// The folded-in trades, oldest first (Gemini lists them newest first): the runtime keeps the
  /// newest once, and of trades in the same millisecond takes the last. A malformed entry is
  /// left out of the history (at most the newest trade is ever printed); all malformed, the
  /// message is.
  static func history(_ entries: [JSONValue], symbol: String) -> ProviderEvent {
    var trades: [(position: Int, quote: Quote)] = []
    var dropped: [String] = []
    for (index, entry) in entries.enumerated().reversed() {
      guard case .object(let fields) = entry else {
        dropped.append("trades[\(index)]: must be an object, not \(entry.kindDescription)")
        continue
      }
      do throws(ShapeError) {
        trades.append((trades.count, try GeminiTrade(object: fields, symbol: symbol).quote))
      } catch {
        dropped.append("trades[\(index)]: \(error.message)")
      }
    }
    if trades.isEmpty && !dropped.isEmpty {
      return .malformed("l2_updates: " + dropped.reversed().joined(separator: "; "))
    }
    trades.sort { ($0.quote.time, $0.position) < ($1.quote.time, $1.position) }
    return .history(trades.map(\.quote))
  }

  /// `{"reason":"NoValidTradingPairs","result":"error"}`: named by its `reason`, its `message`
  /// when it has one, else the reason in words. Never fatal: an error answers one request, and
  /// the connection stays (the symbol it refuses is found by `GeminiProvider.decode(_:context:)`).
  static func error(_ object: JSONObject) -> VenueError {
    let reason = object["reason"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
    let text = object["message"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
    return VenueError(
      name: reason, message: text ?? reason.map(words) ?? "unspecified error", fatal: false)
  }

  /// `NoValidTradingPairs` → `no valid trading pairs`: a reason's words, lower case.
  static func words(_ reason: String) -> String {
    var out = ""
    var previous: Character? = nil
    for c in reason {
      if c.isUppercase, let p = previous, p.isLowercase || p.isNumber { out.append(" ") }
      out += c.lowercased()
      previous = c
    }
    return out
  }
}
