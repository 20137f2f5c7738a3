/// How diagnostics are written on stderr (`--log-format`).
public enum LogFormat: String, Sendable, CaseIterable {
  /// One line of text for a person (the default).
  case text
  /// One JSON object a line (time, level, venue, event, message), for journald, Loki and jq.
  case json
}
