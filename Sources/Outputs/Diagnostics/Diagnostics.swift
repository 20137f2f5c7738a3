import FeedRuntime
import TickerSupport
import Venues

/// Everything the ticker says on stderr goes through here: one prefix; every secret (the API
/// token, a URL's password) removed by `Redaction.redact`; then every control character escaped by
/// `TerminalText` (a close reason, an HTTP reason phrase or a server's error text can hold
/// anything), and the line capped at `maximumLineBytes`, before the text leaves the process.
/// With `--log-format json` each line is a JSON object instead (`JSONLogLine`), under the same
/// rules.
public final class Diagnostics: Sendable {
  private let writer = FileDescriptorWriter(fd: 2)
  private let sink: (@Sendable ([UInt8]) -> Void)?
  public let secrets: [String]
  public let verbose: Bool
  public let format: LogFormat
  /// The venue these lines are about (`about(_:)`), in a run of several; nil for the run's own.
  public let venue: String?
  /// The wall clock's milliseconds since the epoch: a JSON line's `time`.
  private let now: @Sendable () -> Int64

  /// Whose lines these are in a run of several venues (`Binance: `), after the kind of line.
  public var scope: String { venue.map { $0 + ": " } ?? "" }

  /// The longest line written, in bytes (after escaping); longer ones are cut and say so.
  public static let maximumLineBytes = 2048

  /// - Parameters:
  ///   - format: text for people, or one JSON object a line.
  ///   - now: the wall clock, for JSON lines' `time`.
  ///   - write: where lines go (stderr unless a test says otherwise).
  public init(
    secrets: [String], verbose: Bool, format: LogFormat = .text, venue: String? = nil,
    now: @escaping @Sendable () -> Int64 = WallClock.epochMilliseconds,
    write: (@Sendable ([UInt8]) -> Void)? = nil
  ) {
    self.sink = write
    self.venue = venue
    self.secrets = secrets.filter { !$0.isEmpty }
    self.verbose = verbose
    self.format = format
    self.now = now
  }

  /// The same secrets, verbosity and format, its lines going to `write` instead (the board holds
  /// them while it draws): whatever a run says, wherever it goes, the same secrets are removed.
  public func writing(to write: @escaping @Sendable ([UInt8]) -> Void) -> Diagnostics {
    Diagnostics(secrets: secrets, verbose: verbose, format: format, venue: venue, now: now, write: write)
  }

  /// The same, each line saying it is about `venue` (`ticker: warning: Binance: …`, or the JSON
  /// line's `venue`).
  public func about(_ venue: String) -> Diagnostics {
    Diagnostics(secrets: secrets, verbose: verbose, format: format, venue: venue, now: now, write: sink)
  }

  /// The same, removing `more` secrets too (a token read from the config file).
  public func adding(secrets more: [String]) -> Diagnostics {
    Diagnostics(
      secrets: secrets + more, verbose: verbose, format: format, venue: venue, now: now, write: sink)
  }

  /// A line for the user: `ticker: <text>` (level `info`).
  public func note(_ text: String, event: LogEvent = .message, fields: [LogField] = []) {
    emit(.info, event, text, fields)
  }

  /// A warning: `ticker: warning: <text>`.
  public func warning(_ text: String, event: LogEvent = .message, fields: [LogField] = []) {
    emit(.warning, event, text, fields)
  }

  /// An error: `ticker: error: <text>`.
  public func error(_ text: String, event: LogEvent = .message, fields: [LogField] = []) {
    emit(.error, event, text, fields)
  }

  /// An alert (`--alert`, `--until`): `ticker: alert: <text>`, with the terminal bell (BEL,
  /// after the escaping, so it rings) when `bell` is set. A JSON line never rings.
  public func alert(_ text: String, bell: Bool, fields: [LogField] = []) {
    emit(.alert, .alert, text, fields, bell: bell)
  }

  /// Only with `--verbose` (level `info`).
  public func info(
    _ text: @autoclosure () -> String, event: LogEvent = .message,
    fields: @autoclosure () -> [LogField] = []
  ) {
    if verbose { emit(.info, event, text(), fields()) }
  }

  /// The bytes of one stderr line for `text`, newline included.
  public static func line(_ text: String, secrets: [String]) -> [UInt8] {
    var out: [UInt8] = []
    TerminalText.appendEscaped(Redaction.redact(text, secrets: secrets), to: &out)
    if out.count > maximumLineBytes {
      var cut = maximumLineBytes
      // Never split a UTF-8 sequence: back up to the start of a character.
      while cut > 0 && out[cut] & 0xC0 == 0x80 { cut -= 1 }
      let dropped = out.count - cut
      out.removeSubrange(cut...)
      out += Array("… (\(dropped) more bytes not shown)".utf8)
    }
    out.append(0x0A)
    return out
  }

  private func emit(
    _ level: LogLevel, _ event: LogEvent, _ text: String, _ fields: [LogField], bell: Bool = false
  ) {
    switch format {
    case .text:
      var line = Self.line(level.textPrefix + scope + text, secrets: secrets)
      if bell { line.insert(0x07, at: line.count - 1) }
      write(line)
    case .json:
      let entry = JSONLogLine.Entry(
        time: now(), level: level, venue: venue, event: event, message: text, fields: fields)
      write(JSONLogLine.line(entry, secrets: secrets))
    }
  }

  private func write(_ line: [UInt8]) {
    if let sink {
      sink(line)
    } else {
      // stderr going away must not stop the ticker; there is nowhere left to report it.
      try? writer.write(line)
    }
  }
}
