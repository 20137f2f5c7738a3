/// The result of parsing the command line.
public struct ParsedCommand: Sendable, Equatable {
  /// Settings given as flags (the highest-precedence source).
  public var config = PartialConfig()
  public var help = false
  public var version = false
  /// `--config FILE`.
  public var configPath: String? = nil
  /// `ticker completions SHELL`: print a completion script.
  public var completions: Shell? = nil
  /// `ticker serve …`: serve a Finnhub-compatible WebSocket API instead of printing.
  public var serve = false

  public init() {}
}
