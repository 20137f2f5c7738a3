/// Settings from environment variables, as declared in `Settings` (`TICKER_*`, and
/// `FINNHUB_TOKEN` for the token). Empty values count as unset. `TICKER_CONFIG` (the config file)
/// is read by `ConfigLocation`; `NO_COLOR` by `ColorMode`.
public enum EnvironmentConfig {
  /// Every variable a setting reads.
  public static var variables: [String] { Settings.all.compactMap(\.environment) }

  public static func parse(_ environment: [String: String]) throws(ConfigError) -> PartialConfig {
    var config = PartialConfig()
    for setting in Settings.all {
      guard let variable = setting.environment, let text = environment[variable], !text.isEmpty else {
        continue
      }
      guard let assignment = setting.fromText(text) else {
        let requirement = setting.requirement(for: text)
        let suggestion = Suggestion.closest(to: text, among: setting.choices)
        throw .invalidEnvironment(
          variable: variable, requirement: requirement + (suggestion.map { " (did you mean \($0)?)" } ?? ""))
      }
      config.add(setting, assignment)
    }
    return config
  }

  /// A variable that looks like a misspelt setting (`TICKER_FORMT`), with the one it resembles.
  public static func misspelt(in environment: [String: String]) -> [(found: String, meant: String)] {
    let known = Set(variables + ["TICKER_CONFIG"])
    return environment.keys.sorted().compactMap { name in
      guard name.hasPrefix("TICKER_"), !known.contains(name),
        let meant = Suggestion.closest(to: name, among: Array(known).sorted())
      else { return nil }
      return (name, meant)
    }
  }
}
