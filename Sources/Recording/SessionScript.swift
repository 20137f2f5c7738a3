import JSON
import TickerSupport
import Venues
import WebSocketWire

/// A recorded WebSocket session as a server plays it: the `S>` (server to client) and `C>`
/// (client to server) lines of a recording (`RecordingLine`: the one format, which `--record`
/// writes and `--replay` reads), `{"dir":"S>"|"C>","kind":"http"|"text"|"binary"|"ping"|"close",
/// "after_ms":N,"body":"…"}`, `after_ms` the delay since the previous line.
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

  /// Reads a script or a recording (one format: `RecordingReader`'s): every `S>` and `C>` line in
  /// order, each `after_ms` after the one before. A header (`--replay` needs one; a server does
  /// not) and the recorder's `--` lines say nothing to a server and are passed over. Blank lines
  /// are skipped.
  public init(ndjson text: String) throws(ParseError) {
    var reader = RecordingReader(requiresHeader: false)
    var steps: [Step] = []
    var previous: Int64 = 0
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      let read: RecordingLine?
      do {
        read = try reader.read(Array(line.utf8))
      } catch {
        throw .invalidLine(reader.lineNumber, "\(error)")
      }
      guard case .step(let step) = read else { continue }
      let after = Int((step.at - previous) / 1_000_000)
      switch step.what {
      case .message(.text(let body)):
        steps.append(Step(direction: .server, kind: .text, afterMilliseconds: after, body: body))
      case .message(.binary(let bytes)):
        // Every venue's binary frames are UTF-8 JSON (Upbit); the emulator sends text's bytes.
        steps.append(
          Step(
            direction: .server, kind: .binary, afterMilliseconds: after,
            body: String(decoding: bytes, as: UTF8.self)))
      case .exchanged(let direction, let kind, let body):
        steps.append(Step(direction: direction, kind: kind, afterMilliseconds: after, body: body))
      default:
        continue
      }
      previous = step.at
    }
    self.steps = steps
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
  package static func closeStatus(_ body: String) -> CloseStatus {
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
      // A pair with a digit outside ASCII (a full-width one) is one of the invalid pairs.
      if let high = digits[index].asciiValue.flatMap(Hex.value(of:)),
        let low = digits[digits.index(after: index)].asciiValue.flatMap(Hex.value(of:))
      {
        out.append(high << 4 | low)
      }
      index = next
    }
    return out
  }
}
