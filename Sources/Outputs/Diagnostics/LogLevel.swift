/// How serious a diagnostic is: the `level` of a JSON line, and the prefix of a text one.
public enum LogLevel: String, Sendable, CaseIterable {
  /// What happens (a note, or a `--verbose` line): `ticker: …`.
  case info
  /// Something went wrong and the run goes on: `ticker: warning: …`.
  case warning
  /// The run cannot go on as asked: `ticker: error: …`.
  case error
  /// An `--alert` or `--until` condition held: `ticker: alert: …`.
  case alert

  /// What a text line starts with.
  var textPrefix: String {
    switch self {
    case .info: "ticker: "
    case .warning: "ticker: warning: "
    case .error: "ticker: error: "
    case .alert: "ticker: alert: "
    }
  }
}
