/// The few SGR attributes the terminal views use. Written only when colour is on.
public enum TerminalStyle: Sendable, Equatable {
  case green
  case red
  case bold

  var code: String {
    switch self {
    case .green: "\u{1B}[32m"
    case .red: "\u{1B}[31m"
    case .bold: "\u{1B}[1m"
    }
  }

  static let reset = "\u{1B}[0m"

  /// `text` wrapped in this style and a reset when `enabled`; `text` itself otherwise.
  func wrap(_ text: String, enabled: Bool) -> String {
    enabled ? code + text + Self.reset : text
  }
}
