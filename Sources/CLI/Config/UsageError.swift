import Venues

/// A command line that cannot be used. Messages name the option; they never echo a token, and
/// echo `--url` values only with their query redacted.
public enum UsageError: Error, Sendable, Equatable, CustomStringConvertible {
  case unknownOption(String, suggestion: String? = nil)
  case missingValue(option: String)
  case invalidValue(option: String, value: String, requirement: String, suggestion: String? = nil)
  /// A flag that takes no value was given one (`--verbose=yes`).
  case unexpectedValue(option: String)
  /// A positional argument; the ticker takes none.
  case unexpectedArgument(String)
  /// `--token` was used: tokens belong in the environment, not in `ps` output.
  case tokenOnCommandLine

  public var description: String {
    switch self {
    case .unknownOption(let option, let suggestion?):
      "unknown option '\(option)' (did you mean \(suggestion)?)"
    case .unknownOption(let option, nil): "unknown option '\(option)' (see --help)"
    case .missingValue(let option): "option '\(option)' needs a value"
    case .invalidValue(let option, let value, let requirement, let suggestion):
      "invalid value '\(value)' for \(option): \(requirement)"
        + (suggestion.map { " (did you mean \($0)?)" } ?? "")
    case .unexpectedValue(let option): "option '\(option)' does not take a value"
    case .unexpectedArgument(let argument): "unexpected argument '\(argument)' (see --help)"
    case .tokenOnCommandLine:
      "there is no --token option: a token on the command line is visible to other users "
        + "(ps, shell history); set the \(ProviderCatalog.tokenVariable) environment variable instead"
    }
  }
}
