/// Settings given on the command line that do nothing for this run, found from their declared
/// scope (`Setting.scope`): a warning each, never a refusal (the run does what it can). Settings
/// from the config file or the environment are never warned about: a saved setting is meant for
/// the runs it applies to. Those a run's source cannot take at all are `ConfigConflicts`.
public enum UnusedSettings {
  /// The warnings for a run that takes its prices from `source` and serves them (`serving`) or
  /// prints them.
  public static func warnings(_ config: TickerConfig, source: RunSource, serving: Bool) -> [String] {
    if serving {
      return names(config, source) { !$0.outputs.contains(.serve) }.map {
        ["\($0) \(verb($0)) only when printing prices, not to ticker serve"]
      } ?? []
    }
    return names(config, source) { $0.outputs == [.serve] }.map { ["\($0) \(verb($0)) only to ticker serve"] }
      ?? []
  }

  /// The warning for a run whose board draws on the terminal, where what shapes lines does nothing.
  public static func boardWarning(_ config: TickerConfig, source: RunSource) -> String? {
    names(config, source) { $0.outputs.contains(.lines) && !$0.outputs.contains(.board) }.map {
      "--board shows every trade as a board on this terminal: \($0) \(verb($0)) only when stdout is not a terminal"
    }
  }

  /// The warning for `--on-alert` given with no condition to fire it.
  public static func onAlertWarning(_ config: TickerConfig) -> String? {
    guard config.onAlert != nil, config.alerts.isEmpty, config.until.isEmpty,
      config.sources["--on-alert"] == .commandLine
    else { return nil }
    return "--on-alert runs its command when an alert fires, and no --alert or --until is given"
  }

  /// The warning for a run that follows one venue: `--spread` compares several.
  public static func spreadWarning(_ config: TickerConfig, venues: Int) -> String? {
    guard config.spread, venues < 2, config.sources["--spread"] == .commandLine else { return nil }
    return "--spread compares the prices of several venues; this run follows one, so it adds no records"
  }

  /// "applies" for one setting's name, "apply" for several (`names` joins them with commas).
  private static func verb(_ names: String) -> String {
    names.utf8.contains(UInt8(ascii: ",")) ? "apply" : "applies"
  }

  /// The settings given on the command line for `source` whose scope `matches`, joined; nil for none.
  private static func names(_ config: TickerConfig, _ source: RunSource, _ matches: (SettingScope) -> Bool)
    -> String?
  {
    let found = Settings.all.filter { setting in
      config.sources[setting.name] == .commandLine && setting.scope.sources.contains(source)
        && matches(setting.scope)
    }
    return found.isEmpty ? nil : found.map(\.name).joined(separator: ", ")
  }
}
