import WebSocketClient

/// Everything the ticker says on stderr goes through here: one prefix, and every secret
/// (the API token) removed by `Redaction.redact` before the text leaves the process.
final class Diagnostics: Sendable {
  private let writer = FileDescriptorWriter(fd: 2)
  let secrets: [String]
  let verbose: Bool

  init(secrets: [String], verbose: Bool) {
    self.secrets = secrets.filter { !$0.isEmpty }
    self.verbose = verbose
  }

  /// A line for the user: `ticker: <text>`.
  func note(_ text: String) { emit("ticker: \(text)") }
  /// A warning: `ticker: warning: <text>`.
  func warning(_ text: String) { emit("ticker: warning: \(text)") }
  /// An error: `ticker: error: <text>`.
  func error(_ text: String) { emit("ticker: error: \(text)") }
  /// Only with `--verbose`.
  func info(_ text: @autoclosure () -> String) {
    if verbose { emit("ticker: \(text())") }
  }

  private func emit(_ line: String) {
    // stderr going away must not stop the ticker; there is nowhere left to report it.
    try? writer.write(Redaction.redact(line, secrets: secrets) + "\n")
  }
}
