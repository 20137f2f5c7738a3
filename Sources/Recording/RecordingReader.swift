import FeedRuntime
import JSON
import TickerSupport
import Venues
import WebSocketClient

/// Reads a recording line by line: pure, fed one line's bytes at a time (without its newline),
/// typed errors naming the line. A recording's first line is a header; a later header starts
/// another run section of the same provider. The one format is also a server's script
/// (`SessionScript`, read with `requiresHeader: false`): its lines may carry no header and no
/// stamps, their instants then counted from `after_ms`.
public struct RecordingReader: Sendable {
  /// The current section's header.
  public private(set) var header: RecordingHeader?
  /// The number of the last line given (1-based).
  public private(set) var lineNumber = 0
  /// The current section's last `at_ns`: time never goes back within a section.
  private var lastAt: Int64 = 0
  private let parser = JSONParser(maxDepth: 8)
  /// Whether the first line must be a header (`--replay`), or may be a step (a script).
  private let requiresHeader: Bool

  public init(requiresHeader: Bool = true) { self.requiresHeader = requiresHeader }

  /// The line's meaning, or nil for a blank line.
  public mutating func read(_ bytes: some Collection<UInt8>) throws(RecordingError) -> RecordingLine? {
    lineNumber += 1
    let line = lineNumber
    if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) {
      if line == 1 && requiresHeader { throw .notARecording("line 1 is blank") }
      return nil
    }
    let value: JSONValue
    do {
      value = try parser.parse(Array(bytes))
    } catch {
      if header == nil { throw .notARecording("line 1 is not JSON") }
      throw .invalidLine(line, "not JSON: \(error)")
    }
    guard case .object = value else {
      if header == nil { throw .notARecording("line 1 is not a JSON object") }
      throw .invalidLine(line, "not a JSON object")
    }
    let kind = value["kind"]?.stringValue
    if kind == "recording" {
      let next = try Self.header(value, line: line)
      if let header, header.provider != next.provider {
        throw .providerChanged(line, from: header.provider, to: next.provider)
      }
      header = next
      lastAt = 0
      return .header(next)
    }
    guard header != nil || !requiresHeader else {
      throw .notARecording("line 1 is not a recording header: {\"kind\":\"recording\",…}")
    }
    let step = try Self.step(
      value, kind: kind, line: line, after: lastAt, started: header?.startedMilliseconds ?? 0)
    guard step.at >= lastAt else {
      throw .invalidLine(line, "\"at_ns\" goes back in time (\(step.at) after \(lastAt))")
    }
    lastAt = step.at
    return .step(step)
  }

  static func header(_ value: JSONValue, line: Int) throws(RecordingError) -> RecordingHeader {
    func fail(_ why: String) -> RecordingError {
      line == 1 ? .notARecording(why) : .invalidLine(line, why)
    }
    guard let formatText = value["format"]?.numberText, let format = Int(formatText) else {
      throw fail("the header has no \"format\"")
    }
    guard format == RecordingHeader.currentFormat else {
      throw fail("recording format \(format); this ticker reads format \(RecordingHeader.currentFormat)")
    }
    guard let provider = value["provider"]?.stringValue, !provider.isEmpty else {
      throw fail("the header names no \"provider\"")
    }
    guard let items = value["symbols"]?.arrayValue else { throw fail("the header has no \"symbols\" list") }
    var symbols: [String] = []
    for item in items {
      guard let symbol = item.stringValue else { throw fail("a symbol in the header is not a string") }
      symbols.append(symbol)
    }
    guard let startedText = value["started_ms"]?.numberText, let started = Int64(startedText) else {
      throw fail("the header has no \"started_ms\"")
    }
    return RecordingHeader(format: format, provider: provider, symbols: symbols, startedMilliseconds: started)
  }

  /// One step line. Its stamps (`at_ns`, `rt`, `batch`) are all there (a recording) or none (a
  /// script: `at` is `after` plus `after_ms`, `rt` counts from `started`, `batch` is the line's own).
  static func step(_ value: JSONValue, kind: String?, line: Int, after: Int64, started: Int64)
    throws(RecordingError) -> RecordedStep
  {
    func integer(_ key: String) throws(RecordingError) -> Int64 {
      guard let text = value[key]?.numberText, let number = Int64(text) else {
        throw .invalidLine(line, "\"\(key)\" must be an integer")
      }
      return number
    }
    func string(_ key: String) throws(RecordingError) -> String {
      guard let text = value[key]?.stringValue else {
        throw .invalidLine(line, "\"\(key)\" must be a string")
      }
      return text
    }
    let at: Int64
    let received: Int64
    let batch: Int64
    if value["at_ns"] == nil && value["rt"] == nil && value["batch"] == nil {
      let afterMilliseconds = try integer("after_ms")
      guard afterMilliseconds >= 0 else { throw .invalidLine(line, "\"after_ms\" is negative") }
      let (nanoseconds, tooLarge) = afterMilliseconds.multipliedReportingOverflow(by: 1_000_000)
      let (sum, overflow) = after.addingReportingOverflow(nanoseconds)
      guard !tooLarge, !overflow else { throw .invalidLine(line, "\"after_ms\" is too large") }
      (at, received, batch) = (sum, started &+ sum / 1_000_000, -Int64(line))
    } else {
      at = try integer("at_ns")
      received = try integer("rt")
      batch = try integer("batch")
    }
    guard at >= 0 else { throw .invalidLine(line, "\"at_ns\" is negative") }
    let what = try what(value, kind: kind, line: line, string: string, integer: integer)
    return RecordedStep(at: at, received: received, batch: Int(truncatingIfNeeded: batch), what: what)
  }

  /// What a step line says, by its direction and kind.
  private static func what(
    _ value: JSONValue, kind: String?, line: Int, string: (String) throws(RecordingError) -> String,
    integer: (String) throws(RecordingError) -> Int64
  ) throws(RecordingError) -> RecordedStep.What {
    guard let kind else { throw .invalidLine(line, "no \"kind\"") }
    let direction = value["dir"]?.stringValue
    if let direction, direction != "--" {
      guard let side = SessionScript.Direction(rawValue: direction) else {
        throw .invalidLine(line, "\"dir\" must be \"S>\", \"C>\" or \"--\"")
      }
      guard let scriptKind = SessionScript.Kind(rawValue: kind) else {
        throw .invalidLine(line, "unknown kind \(JSONEscaping.quoted(kind))")
      }
      if side == .server, scriptKind == .text || scriptKind == .binary {
        return .message(try message(value, kind: scriptKind, line: line, string: string))
      }
      return .exchanged(side, scriptKind, body: try string("body"))
    }
    let what: RecordedStep.What
    switch kind {
    case "connected":
      what = .connected(attempt: Int(clamping: try integer("attempt")))
    case "disconnected":
      what = .disconnected(
        attempt: Int(clamping: try integer("attempt")), retryIn: .nanoseconds(try integer("retry_ns")),
        reason: try string("reason"))
    case "opened":
      what = .opened
    case "command":
      guard let items = value["symbols"]?.arrayValue else {
        throw .invalidLine(line, "\"symbols\" must be a list")
      }
      var symbols: [String] = []
      for item in items {
        guard let symbol = item.stringValue else { throw .invalidLine(line, "a symbol is not a string") }
        symbols.append(symbol)
      }
      switch try string("op") {
      case "add": what = .command(.add(symbols))
      case "remove": what = .command(.remove(symbols))
      case "replace": what = .command(.replace(symbols))
      default: throw .invalidLine(line, "unknown command \"op\"")
      }
    case "control":
      what = .control(try string("line"))
    case "end":
      guard let end = RecordedEnd(rawValue: try string("outcome")) else {
        throw .invalidLine(line, "unknown \"outcome\"")
      }
      what = .end(end)
    default:
      throw .invalidLine(line, "unknown kind \(JSONEscaping.quoted(kind))")
    }
    return what
  }

  /// A frame the client received: its body as text, or bytes (`"encoding":"base64"` when they
  /// are not UTF-8).
  private static func message(
    _ value: JSONValue, kind: SessionScript.Kind, line: Int, string: (String) throws(RecordingError) -> String
  ) throws(RecordingError) -> WebSocketMessage {
    let body = try string("body")
    if kind == .text { return .text(body) }
    switch value["encoding"]?.stringValue {
    case nil: return .binary(Array(body.utf8))
    case "base64":
      guard let bytes = Base64.decode(body) else { throw .invalidLine(line, "the body is not valid base64") }
      return .binary(bytes)
    case let other?: throw .invalidLine(line, "unknown encoding \(JSONEscaping.quoted(other))")
    }
  }
}
