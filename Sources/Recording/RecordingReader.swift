import FeedRuntime
import JSON
import TickerSupport
import Venues
import WebSocketClient

/// Reads a recording line by line: pure, fed one line's bytes at a time (without its newline),
/// typed errors naming the line. The first line must be a header; a later header starts another
/// run section of the same provider.
public struct RecordingReader: Sendable {
  /// The current section's header.
  public private(set) var header: RecordingHeader?
  /// The number of the last line given (1-based).
  public private(set) var lineNumber = 0
  /// The current section's last `at_ns`: time never goes back within a section.
  private var lastAt: Int64 = 0
  private let parser = JSONParser(maxDepth: 8)

  public init() {}

  /// The line's meaning, or nil for a blank line.
  public mutating func read(_ bytes: some Collection<UInt8>) throws(RecordingError) -> RecordingLine? {
    lineNumber += 1
    let line = lineNumber
    if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) {
      if line == 1 { throw .notARecording("line 1 is blank") }
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
    guard header != nil else {
      throw .notARecording("line 1 is not a recording header: {\"kind\":\"recording\",…}")
    }
    let step = try Self.step(value, kind: kind, line: line)
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

  static func step(_ value: JSONValue, kind: String?, line: Int) throws(RecordingError) -> RecordedStep {
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
    let at = try integer("at_ns")
    guard at >= 0 else { throw .invalidLine(line, "\"at_ns\" is negative") }
    let received = try integer("rt")
    let batch = try integer("batch")
    guard let kind else { throw .invalidLine(line, "no \"kind\"") }
    let what: RecordedStep.What
    switch kind {
    case "text":
      what = .message(.text(try string("body")))
    case "binary":
      let body = try string("body")
      switch value["encoding"]?.stringValue {
      case nil: what = .message(.binary(Array(body.utf8)))
      case "base64":
        guard let bytes = Base64.decode(body) else {
          throw .invalidLine(line, "the body is not valid base64")
        }
        what = .message(.binary(bytes))
      case let other?: throw .invalidLine(line, "unknown encoding \(JSONEscaping.quoted(other))")
      }
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
    return RecordedStep(at: at, received: received, batch: Int(clamping: batch), what: what)
  }
}
