/// Where a run's prices come from.
public enum RunSource: String, Sendable, CaseIterable {
  /// A venue, live (or the demo's local one).
  case venue
  /// A recording (`--replay`).
  case recording
}

/// Where a run's prices go.
public enum RunOutput: String, Sendable, CaseIterable {
  /// Lines on stdout, one per price.
  case lines
  /// The board, drawn on the terminal (`--board` when stdout is one).
  case board
  /// Local WebSocket clients (`ticker serve`).
  case serve
}

/// Where a setting does something, declared with it (`Settings`): a setting given on the command
/// line for a run it does nothing for is warned about (`UnusedSettings`), or refused when the
/// run's source cannot take it (`ConfigConflicts`).
public struct SettingScope: Sendable, Equatable {
  public var sources: Set<RunSource>
  public var outputs: Set<RunOutput>

  public init(
    sources: Set<RunSource> = Set(RunSource.allCases), outputs: Set<RunOutput> = Set(RunOutput.allCases)
  ) {
    self.sources = sources
    self.outputs = outputs
  }

  public static let everywhere = SettingScope()

  public func applies(source: RunSource, output: RunOutput) -> Bool {
    sources.contains(source) && outputs.contains(output)
  }
}

extension Setting {
  /// The same setting, doing something only for these sources and outputs.
  func scoped(
    sources: Set<RunSource> = Set(RunSource.allCases), outputs: Set<RunOutput> = Set(RunOutput.allCases)
  )
    -> Setting
  {
    var setting = self
    setting.scope = SettingScope(sources: sources, outputs: outputs)
    return setting
  }
}
