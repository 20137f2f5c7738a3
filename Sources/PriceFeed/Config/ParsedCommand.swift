/// The result of parsing the command line.
public struct ParsedCommand: Sendable, Equatable {
  /// Settings given as flags (the highest-precedence source).
  public var config = PartialConfig()
  public var help = false
  public var version = false
  /// Replay a recorded session from a local server instead of connecting to the provider.
  public var demo = false
  /// `--config FILE`.
  public var configPath: String? = nil
  /// `--control stdin`: read subscription changes from stdin while running.
  public var controlStdin = false

  public init() {}
}
