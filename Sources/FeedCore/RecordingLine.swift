import PriceFeed
import WebSocketClient

/// One line of a recording (NDJSON, the fixture format of `Tests/Fixtures` extended):
///
/// - the header, first line of every run section:
///   `{"kind":"recording","format":1,"provider":"finnhub","symbols":["AAPL"],"started":"…Z","started_ms":N}`
/// - every frame received: `{"dir":"S>","kind":"text"|"binary","after_ms":N,"at_ns":N,"rt":N,"batch":N,"body":"…"}`,
///   a binary frame that is not UTF-8 with `"encoding":"base64"`;
/// - what else the feed saw, `dir` `"--"`: `connected` (`attempt`), `disconnected` (`attempt`,
///   `retry_ns`, `reason`), `opened` (a connection asked for its subscription), `command` (`op`
///   add/remove/replace, `symbols`), `control` (`line`), and `end` (`outcome`), the last line.
///
/// `at_ns` is the instant the feed's machine was given (nanoseconds since the run's start), `rt`
/// the wall-clock receive time stamped on quotes (ms since the epoch), `batch` numbers the runs
/// of events the machine took in one go, `after_ms` the milliseconds since the previous line (as
/// in the fixtures; informative).
public enum RecordingLine: Sendable, Equatable {
  case header(RecordingHeader)
  case step(RecordedStep)
}

/// The first line of a run section.
public struct RecordingHeader: Sendable, Equatable {
  public static let currentFormat = 1
  public var format: Int
  public var provider: String
  /// Canonical for the provider.
  public var symbols: [String]
  /// The wall-clock time the run started (ms since the epoch).
  public var startedMilliseconds: Int64

  public init(
    format: Int = Self.currentFormat, provider: String, symbols: [String], startedMilliseconds: Int64
  ) {
    self.format = format
    self.provider = provider
    self.symbols = symbols
    self.startedMilliseconds = startedMilliseconds
  }
}

/// Something the live machine was given, and when.
public struct RecordedStep: Sendable, Equatable {
  public enum What: Sendable, Equatable {
    case message(WebSocketMessage)
    case connected(attempt: Int)
    case disconnected(attempt: Int, retryIn: Duration, reason: String)
    /// A new connection was given its subscription (`FeedMachine.opened`).
    case opened
    case command(SubscriptionCommand)
    case control(String)
    /// The run ended (`RecordedEnd` names the outcome).
    case end(RecordedEnd)
  }

  /// Nanoseconds since the run's start: the `now` the machine was given.
  public var at: Int64
  /// Wall-clock receive time (ms since the epoch).
  public var received: Int64
  public var batch: Int
  public var what: What

  public init(at: Int64, received: Int64, batch: Int, what: What) {
    self.at = at
    self.received = received
    self.batch = batch
    self.what = what
  }
}

/// How a recorded run ended.
public enum RecordedEnd: String, Sendable, Equatable, CaseIterable {
  case signal, count, readerGone = "reader-gone", writeFailed = "write-failed", until
  case serverClosed = "server-closed", failed, refused, retriesExhausted = "retries-exhausted"

  public init(_ outcome: FeedOutcome) {
    switch outcome {
    case .stopped(.signal): self = .signal
    case .stopped(.countReached): self = .count
    case .stopped(.readerGone): self = .readerGone
    case .stopped(.writeFailed): self = .writeFailed
    case .stopped(.untilMet): self = .until
    case .serverClosed: self = .serverClosed
    case .failed: self = .failed
    case .refused: self = .refused
    case .retriesExhausted: self = .retriesExhausted
    }
  }

  /// Whether the live run printed what its stage still held when it ended.
  public var printedPending: Bool {
    switch self {
    case .count, .readerGone, .writeFailed: false
    default: true
    }
  }
}

extension RecordingLine {
  /// Appends the line and its newline. `previousMilliseconds` (the last line's time in ms since
  /// the start) gives `after_ms` and is updated.
  public func encode(into out: inout [UInt8], previousMilliseconds: inout Int64) {
    switch self {
    case .header(let header):
      out.append(contentsOf: #"{"kind":"recording","format":"#.utf8)
      out.append(contentsOf: String(header.format).utf8)
      out.append(contentsOf: #","provider":"#.utf8)
      JSONEscaping.appendQuoted(header.provider, to: &out)
      out.append(contentsOf: #","symbols":["#.utf8)
      for (index, symbol) in header.symbols.enumerated() {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        JSONEscaping.appendQuoted(symbol, to: &out)
      }
      out.append(contentsOf: #"],"started":""#.utf8)
      UTCTimestamp.append(milliseconds: header.startedMilliseconds, to: &out)
      out.append(contentsOf: #"","started_ms":"#.utf8)
      out.append(contentsOf: String(header.startedMilliseconds).utf8)
      out.append(contentsOf: "}\n".utf8)
      previousMilliseconds = 0
    case .step(let step):
      let ms = step.at / 1_000_000
      let after = max(0, ms - previousMilliseconds)
      previousMilliseconds = ms
      func head(_ dir: String, _ kind: String) {
        out.append(contentsOf: #"{"dir":""#.utf8)
        out.append(contentsOf: dir.utf8)
        out.append(contentsOf: #"","kind":""#.utf8)
        out.append(contentsOf: kind.utf8)
        out.append(contentsOf: #"","after_ms":"#.utf8)
        out.append(contentsOf: String(after).utf8)
        out.append(contentsOf: #","at_ns":"#.utf8)
        out.append(contentsOf: String(step.at).utf8)
        out.append(contentsOf: #","rt":"#.utf8)
        out.append(contentsOf: String(step.received).utf8)
        out.append(contentsOf: #","batch":"#.utf8)
        out.append(contentsOf: String(step.batch).utf8)
      }
      func string(_ key: String, _ value: String) {
        out.append(contentsOf: ",\"\(key)\":".utf8)
        JSONEscaping.appendQuoted(value, to: &out)
      }
      func number(_ key: String, _ value: Int64) {
        out.append(contentsOf: ",\"\(key)\":\(value)".utf8)
      }
      switch step.what {
      case .message(.text(let text)):
        head("S>", "text")
        string("body", text)
      case .message(.binary(let bytes)):
        head("S>", "binary")
        if let text = String(validating: bytes, as: UTF8.self) {
          string("body", text)
        } else {
          string("encoding", "base64")
          out.append(contentsOf: #","body":""#.utf8)
          Base64.encode(bytes, into: &out)
          out.append(UInt8(ascii: "\""))
        }
      case .connected(let attempt):
        head("--", "connected")
        number("attempt", Int64(attempt))
      case .disconnected(let attempt, let retryIn, let reason):
        head("--", "disconnected")
        number("attempt", Int64(attempt))
        number("retry_ns", retryIn.wholeNanoseconds)
        string("reason", reason)
      case .opened:
        head("--", "opened")
      case .command(let command):
        head("--", "command")
        let (op, symbols): (String, [String]) =
          switch command {
          case .add(let s): ("add", s)
          case .remove(let s): ("remove", s)
          case .replace(let s): ("replace", s)
          }
        string("op", op)
        out.append(contentsOf: #","symbols":["#.utf8)
        for (index, symbol) in symbols.enumerated() {
          if index > 0 { out.append(UInt8(ascii: ",")) }
          JSONEscaping.appendQuoted(symbol, to: &out)
        }
        out.append(UInt8(ascii: "]"))
      case .control(let line):
        head("--", "control")
        string("line", line)
      case .end(let end):
        head("--", "end")
        string("outcome", end.rawValue)
      }
      out.append(contentsOf: "}\n".utf8)
    }
  }
}
