/// How diagnostics are written on stderr (`--log-format`).
public enum LogFormat: String, Sendable, CaseIterable {
  /// One line of text for a person (the default).
  case text
  /// One JSON object a line (time, level, venue, event, message), for journald, Loki and jq.
  case json

  /// The format of what is said before the settings are resolved (a usage error, a config file
  /// that cannot be read): the last `--log-format` on the command line (before a `--`), else
  /// `TICKER_LOG_FORMAT`, else text; a value that is neither `text` nor `json` counts as text
  /// (the parser says what is wrong with it). The config file's `logFormat` counts from the
  /// first line after the settings are resolved: a file that cannot be read cannot say it.
  /// The names are `Settings`' declaration of `--log-format` (an end-to-end test holds both).
  public static func early(arguments: [String], environment: [String: String]) -> LogFormat {
    var given: String?
    var index = 0
    while index < arguments.count, arguments[index] != "--" {
      let argument = arguments[index]
      index += 1
      if argument == "--log-format" {
        given = index < arguments.count ? arguments[index] : ""
        index += 1
      } else if argument.hasPrefix("--log-format=") {
        given = String(argument.dropFirst("--log-format=".count))
      }
    }
    if given == nil, let variable = environment["TICKER_LOG_FORMAT"], !variable.isEmpty { given = variable }
    return given.flatMap { LogFormat(rawValue: $0.lowercased()) } ?? .text
  }
}
