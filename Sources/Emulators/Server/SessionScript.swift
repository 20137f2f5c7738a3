import JSON
import Venues
import WebSocketClient

/// A recorded WebSocket session: one JSON object per line,
/// `{"dir":"S>"|"C>","kind":"http"|"text"|"binary"|"ping"|"close","after_ms":N,"body":"…"}`.
/// `S>` is server to client, `C>` client to server; `after_ms` is the delay since the previous line.
public struct SessionScript: Sendable, Equatable {
  public enum Direction: String, Sendable, Codable { case server = "S>", client = "C>" }
  /// `raw` (our extension, for fault injection): the body is hex bytes sent as they are,
  /// e.g. a malformed frame.
  public enum Kind: String, Sendable, Codable { case http, text, binary, ping, close, raw }

  public struct Step: Sendable, Equatable, Codable {
    public var direction: Direction
    public var kind: Kind
    public var afterMilliseconds: Int
    public var body: String

    public init(direction: Direction, kind: Kind, afterMilliseconds: Int, body: String) {
      self.direction = direction
      self.kind = kind
      self.afterMilliseconds = afterMilliseconds
      self.body = body
    }

    enum CodingKeys: String, CodingKey {
      case direction = "dir", kind, afterMilliseconds = "after_ms", body
    }
  }

  public enum ParseError: Error, Sendable, Equatable {
    /// Line number (1-based) and what was wrong.
    case invalidLine(Int, String)
  }

  public var steps: [Step]

  public init(steps: [Step]) { self.steps = steps }

  /// Parses newline-delimited JSON; blank lines are skipped.
  public init(ndjson text: String) throws(ParseError) {
    var steps: [Step] = []
    let parser = JSONParser()
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let trimmed = line.drop(while: { $0 == " " || $0 == "\t" || $0 == "\r" })
      if trimmed.isEmpty { continue }
      let value: JSONValue
      do {
        value = try parser.parse(String(trimmed))
      } catch {
        throw .invalidLine(index + 1, "not a session step: \(error)")
      }
      let step = try Self.step(from: value, line: index + 1)
      guard step.afterMilliseconds >= 0 else { throw .invalidLine(index + 1, "negative after_ms") }
      steps.append(step)
    }
    self.steps = steps
  }

  /// One line's object: `dir`, `kind`, `after_ms` (an integer) and `body`, all required;
  /// other members are ignored.
  static func step(from value: JSONValue, line: Int) throws(ParseError) -> Step {
    guard case .object = value else { throw .invalidLine(line, "not a session step: not an object") }
    guard let dir = value["dir"]?.stringValue, let direction = Direction(rawValue: dir) else {
      throw .invalidLine(line, "not a session step: \"dir\" must be \"S>\" or \"C>\"")
    }
    guard let kindText = value["kind"]?.stringValue, let kind = Kind(rawValue: kindText) else {
      throw .invalidLine(line, "not a session step: unknown or missing \"kind\"")
    }
    guard let afterText = value["after_ms"]?.numberText, let after = Int(afterText) else {
      throw .invalidLine(line, "not a session step: \"after_ms\" must be an integer")
    }
    guard let body = value["body"]?.stringValue else {
      throw .invalidLine(line, "not a session step: \"body\" must be a string")
    }
    return Step(direction: direction, kind: kind, afterMilliseconds: after, body: body)
  }

  /// The HTTP status the script's server answers the upgrade with (101 unless an `http` step
  /// says otherwise), with the reason phrase.
  public var handshakeStatus: (code: Int, reason: String) {
    guard let http = steps.first(where: { $0.direction == .server && $0.kind == .http }) else {
      return (101, "Switching Protocols")
    }
    // "HTTP/1.1 401 Unauthorized"
    let parts = http.body.split(separator: " ", maxSplits: 2)
    guard parts.count >= 2, let code = Int(parts[1]) else { return (101, "Switching Protocols") }
    return (code, parts.count == 3 ? String(parts[2]) : "")
  }

  /// A `close` step's body (`"1000"` or `"1000 reason"`) as a status; 1000 when unreadable.
  static func closeStatus(_ body: String) -> CloseStatus {
    let parts = body.split(separator: " ", maxSplits: 1)
    let code = parts.first.flatMap { UInt16($0) } ?? 1000
    return CloseStatus(code: CloseCode(code), reason: parts.count > 1 ? String(parts[1]) : "")
  }

  /// "81 05 48 65" or "81054865" → bytes (invalid pairs are skipped).
  public static func bytes(fromHex text: String) -> [UInt8] {
    let digits = text.filter(\.isHexDigit)
    var out: [UInt8] = []
    var index = digits.startIndex
    while index < digits.endIndex, let next = digits.index(index, offsetBy: 2, limitedBy: digits.endIndex) {
      if let byte = UInt8(digits[index..<next], radix: 16) { out.append(byte) }
      index = next
    }
    return out
  }
}
