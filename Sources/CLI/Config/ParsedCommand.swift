/// The result of parsing the command line.
public struct ParsedCommand: Sendable, Equatable {
  /// Settings given as flags (the highest-precedence source).
  public var config = PartialConfig()
  public var help = false
  public var version = false
  /// `--config FILE`.
  public var configPath: String? = nil
  /// The first word, when it names a `Subcommand`.
  public var subcommand: Subcommand.Name? = nil
  /// Its operand, when it takes one (`completions bash`).
  public var operand: String? = nil

  /// `ticker completions SHELL`: print a completion script.
  public var completions: Shell? { subcommand == .completions ? operand.flatMap(Shell.init) : nil }
  /// `ticker serve …`: serve a Finnhub-compatible WebSocket API instead of printing.
  public var serve: Bool { subcommand == .serve }

  public init() {}
}
