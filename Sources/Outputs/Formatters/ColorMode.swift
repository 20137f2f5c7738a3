/// When to colour text output (`--color`, `--no-color`).
public enum ColorMode: String, Sendable, CaseIterable {
  case auto
  case always
  case never

  /// Whether to colour: `auto` means stdout is a terminal, `NO_COLOR` is unset or empty
  /// (no-color.org) and `TERM` is not `dumb`.
  public func resolve(isTerminal: Bool, environment: [String: String]) -> Bool {
    switch self {
    case .always: return true
    case .never: return false
    case .auto:
      if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
      if environment["TERM"] == "dumb" { return false }
      return isTerminal
    }
  }
}
