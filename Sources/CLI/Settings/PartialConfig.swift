/// The settings one source gives (the flags, the environment or the config file), in the order
/// it gave them. `TickerConfig.resolve` applies the layers over the defaults: file, then
/// environment, then flags. Within a layer the last value wins, except for settings that
/// accumulate (`-s A -s B`). `description` never shows a value: only which settings are set.
public struct PartialConfig: Sendable, Equatable, CustomStringConvertible {
  private var entries: [(name: String, assignment: Assignment)] = []

  public init() {}

  mutating func add(_ setting: Setting, _ assignment: Assignment) {
    entries.append((setting.name, assignment))
  }

  /// Whether no setting is set.
  public var isEmpty: Bool { entries.isEmpty }

  /// Whether this source sets `setting` (by its long flag, variable or key: `Setting.name`).
  public func sets(_ name: String) -> Bool { entries.contains { $0.name == name } }

  /// The names of the settings set, in order, each once.
  public var names: [String] {
    var seen = Set<String>()
    return entries.map(\.name).filter { seen.insert($0).inserted }
  }

  /// Overwrites the settings of `config` that this source sets.
  public func apply(to config: inout TickerConfig) {
    var applied = Set<String>()
    for (name, assignment) in entries {
      if applied.insert(name).inserted {
        assignment.set(&config)
      } else {
        assignment.append(&config)
      }
    }
  }

  /// This layer alone over the defaults.
  public var resolved: TickerConfig { TickerConfig.resolve(flags: self) }

  public static func == (a: PartialConfig, b: PartialConfig) -> Bool {
    a.names == b.names && a.resolved == b.resolved
  }

  public var description: String { "PartialConfig(" + names.joined(separator: ", ") + ")" }
}
