import FeedRuntime
import JSON
import TickerSupport
import Venues
import WebSocketWire

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
  /// The current section's last `at_ns` of each venue: a venue's time never goes back within a
  /// section (each venue's feed counts from its own start, so venues' times interleave).
  private var lastAt: [Int64] = [0]
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
      if let header, header.venues.map(\.name) != next.venues.map(\.name) {
        throw .providerChanged(line, from: header.providerNames, to: next.providerNames)
      }
      header = next
      lastAt = Array(repeating: 0, count: next.venues.count)
      return .header(next)
    }
    guard header != nil || !requiresHeader else {
      throw .notARecording("line 1 is not a recording header: {\"kind\":\"recording\",…}")
    }
    let venue = try Self.venue(value, line: line, count: lastAt.count)
    var step = try Self.step(
      value, kind: kind, line: line, after: lastAt[venue], started: header?.startedMilliseconds ?? 0)
    guard step.at >= lastAt[venue] else {
      throw .invalidLine(line, "\"at_ns\" goes back in time (\(step.at) after \(lastAt[venue]))")
    }
    lastAt[venue] = step.at
    step.venue = venue
    return .step(step)
  }

  /// A step's venue: `"venue"` in a section of several (0 when it names none), always 0 in one
  /// of one venue.
  static func venue(_ value: JSONValue, line: Int, count: Int) throws(RecordingError) -> Int {
    guard count > 1, let field = value["venue"] else { return 0 }
    guard let text = field.numberText, let venue = Int(text), venue >= 0, venue < count else {
      throw .invalidLine(line, "\"venue\" must be an index into the header's \(count) venues")
    }
    return venue
  }

  static func header(_ value: JSONValue, line: Int) throws(RecordingError) -> RecordingHeader {
    func fail(_ why: String) -> RecordingError {
      line == 1 ? .notARecording(why) : .invalidLine(line, why)
    }
    guard let formatText = value["format"]?.numberText, let format = Int(formatText) else {
      throw fail("the header has no \"format\"")
    }
    guard format == RecordingHeader.currentFormat || format == RecordingHeader.severalVenuesFormat else {
      throw fail(
        "recording format \(format); this ticker reads formats \(RecordingHeader.currentFormat) "
          + "and \(RecordingHeader.severalVenuesFormat)")
    }
    func venue(_ object: JSONValue) throws(RecordingError) -> RecordingHeader.Venue {
      guard let provider = object["provider"]?.stringValue, !provider.isEmpty else {
        throw fail("the header names no \"provider\"")
      }
      guard let items = object["symbols"]?.arrayValue else {
        throw fail("the header has no \"symbols\" list")
      }
      var symbols: [String] = []
      for item in items {
        guard let symbol = item.stringValue else { throw fail("a symbol in the header is not a string") }
        symbols.append(symbol)
      }
      var stream = MarketStream.trades
      if let value = object["stream"] {
        guard let text = value.stringValue, let named = MarketStream(rawValue: text) else {
          throw fail("the header's \"stream\" is not one of \"trades\", \"top-of-book\"")
        }
        stream = named
      }
      return RecordingHeader.Venue(provider: provider, symbols: symbols, stream: stream)
    }
    var venues: [RecordingHeader.Venue] = []
    if format == RecordingHeader.currentFormat {
      venues = [try venue(value)]
    } else {
      guard let items = value["venues"]?.arrayValue, items.count >= 2,
        items.count <= RecordingHeader.maximumVenues
      else {
        throw fail("a format \(format) header lists 2 to \(RecordingHeader.maximumVenues) \"venues\"")
      }
      for item in items {
        guard case .object = item else { throw fail("a venue in the header is not an object") }
        venues.append(try venue(item))
      }
    }
    guard let startedText = value["started_ms"]?.numberText, let started = Int64(startedText) else {
      throw fail("the header has no \"started_ms\"")
    }
    return RecordingHeader(venues: venues, startedMilliseconds: started)
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
    case "tick":
      what = .tick
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
