import FeedRuntime
import JSON
import TickerSupport
import Venues

/// What a `serve` client may send, in Finnhub's words: `{"type":"subscribe","symbol":"X"}`,
/// `{"type":"unsubscribe","symbol":"X"}`, and `{"type":"ping"}` (ignored). Pure: text in, a
/// request or why it is not one out.
public enum ServeRequest: Sendable, Equatable {
  case subscribe(String)
  case unsubscribe(String)
  case ping

  /// The longest symbol accepted, in bytes.
  public static let maximumSymbolBytes = 64

  /// Why a client message was refused (its text goes back in a Finnhub error message).
  public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
    case notJSON
    case notAnObject
    case unknownType(String)
    case missingSymbol
    case badSymbol(String)

    public var description: String {
      switch self {
      case .notJSON: "Invalid message: not JSON"
      case .notAnObject: "Invalid message: expected an object with \"type\""
      case .unknownType(let type): "Invalid message type \(JSONEscaping.quoted(Self.clip(type)))"
      case .missingSymbol: "Invalid message: \"symbol\" must be a non-empty string"
      case .badSymbol(let symbol): "Invalid symbol \(Self.clip(symbol))"
      }
    }

    /// At most 64 characters of client text in an answer.
    static func clip(_ text: String) -> String {
      text.count > 64 ? String(text.prefix(64)) + "…" : text
    }
  }

  public static func parse(_ text: String) -> Result<ServeRequest, Failure> {
    let value: JSONValue
    do {
      value = try JSONParser(maxDepth: 8).parse(text)
    } catch {
      return .failure(.notJSON)
    }
    guard case .object(let object) = value, let type = object["type"]?.stringValue else {
      return .failure(.notAnObject)
    }
    switch type {
    case "ping": return .success(.ping)
    case "subscribe", "unsubscribe":
      guard let symbol = object["symbol"]?.stringValue, !symbol.isEmpty else {
        return .failure(.missingSymbol)
      }
      guard symbol.utf8.count <= maximumSymbolBytes, TerminalText.isSafe(symbol) else {
        return .failure(.badSymbol(symbol))
      }
      return .success(type == "subscribe" ? .subscribe(symbol) : .unsubscribe(symbol))
    default:
      return .failure(.unknownType(type))
    }
  }
}
