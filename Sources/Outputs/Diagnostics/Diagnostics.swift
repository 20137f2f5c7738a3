import FeedRuntime
import TickerSupport
import Venues

/// Everything the ticker says on stderr goes through here: one prefix; every secret (the API
/// token, a URL's password) removed by `Redaction.redact`; then every control character escaped by
/// `TerminalText` (a close reason, an HTTP reason phrase or a server's error text can hold
/// anything), and the line capped at `maximumLineBytes`, before the text leaves the process.
public final class Diagnostics: Sendable {
  private let writer = FileDescriptorWriter(fd: 2)
  private let sink: (@Sendable ([UInt8]) -> Void)?
  public let secrets: [String]
  public let verbose: Bool
  /// Whose lines these are in a run of several venues (`Binance: `), after the kind of line.
  public let scope: String

  /// The longest line written, in bytes (after escaping); longer ones are cut and say so.
  public static let maximumLineBytes = 2048

  /// - Parameter write: where lines go (stderr unless a test says otherwise).
  public init(
    secrets: [String], verbose: Bool, scope: String = "", write: (@Sendable ([UInt8]) -> Void)? = nil
  ) {
    self.sink = write
    self.scope = scope
    self.secrets = secrets.filter { !$0.isEmpty }
    self.verbose = verbose
  }

  /// The same secrets and verbosity, its lines going to `write` instead (the board holds them
  /// while it draws): whatever a run says, wherever it goes, the same secrets are removed.
  public func writing(to write: @escaping @Sendable ([UInt8]) -> Void) -> Diagnostics {
    Diagnostics(secrets: secrets, verbose: verbose, scope: scope, write: write)
  }

  /// The same, each line saying it is about `venue` (`ticker: warning: Binance: …`).
  public func about(_ venue: String) -> Diagnostics {
    Diagnostics(secrets: secrets, verbose: verbose, scope: venue + ": ", write: sink)
  }

  /// A line for the user: `ticker: <text>`.
  public func note(_ text: String) { emit("ticker: \(scope)\(text)") }
  /// A warning: `ticker: warning: <text>`.
  public func warning(_ text: String) { emit("ticker: warning: \(scope)\(text)") }
  /// An error: `ticker: error: <text>`.
  public func error(_ text: String) { emit("ticker: error: \(scope)\(text)") }
  /// An alert (`--alert`, `--until`): `ticker: alert: <text>`, with the terminal bell (BEL,
  /// after the escaping, so it rings) when `bell` is set.
  public func alert(_ text: String, bell: Bool) {
    var line = Self.line("ticker: alert: \(scope)\(text)", secrets: secrets)
    if bell { line.insert(0x07, at: line.count - 1) }
    write(line)
  }

  /// Only with `--verbose`.
  public func info(_ text: @autoclosure () -> String) {
    if verbose { emit("ticker: \(scope)\(text())") }
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

  private func emit(_ text: String) { write(Self.line(text, secrets: secrets)) }

  private func write(_ line: [UInt8]) {
    if let sink {
      sink(line)
    } else {
      // stderr going away must not stop the ticker; there is nowhere left to report it.
      try? writer.write(line)
    }
  }
}
