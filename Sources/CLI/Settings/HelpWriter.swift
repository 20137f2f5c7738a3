import Venues

/// The parts of `--help` and docs/options.md that come from the declarations in `Settings`: the
/// options by group with their defaults, the environment variables, and docs/options.md's table.
public enum HelpWriter {
  /// Column where the description starts.
  static let descriptionColumn = 27
  /// Lines are wrapped at this width.
  static let width = 94

  /// How a setting's flags read: `-s, --symbol SYMBOL`, `    --format text|json`.
  public static func usage(of setting: Setting) -> String {
    flagsText(long: setting.flag, short: setting.shortFlag, value: valueText(setting))
  }

  static func valueText(_ setting: Setting) -> String? {
    guard let name = setting.valueName else { return nil }
    let joined = setting.choices.joined(separator: "|")
    return !setting.choices.isEmpty && joined.count <= 26 ? joined : name
  }

  static func flagsText(long: String?, short: String?, value: String?) -> String {
    let lead = short.map { "\($0), " } ?? "    "
    return lead + (long ?? "") + (value.map { " \($0)" } ?? "")
  }

  /// The OPTIONS part of `--help`: a section per group, each option with its description and
  /// default.
  public static func options() -> String {
    var out: [String] = []
    for group in SettingGroup.allCases {
      var rows: [(String, String)] = []
      for setting in Settings.all where setting.group == group && setting.listed && setting.flag != nil {
        var text = setting.help
        if !setting.defaultText.isEmpty { text += " (default \(setting.defaultText))" }
        rows.append((usage(of: setting), text))
      }
      if group == .general {
        for flag in CommandFlag.allCases {
          let long = flag.flags.first { $0.hasPrefix("--") }
          let short = flag.flags.first { !$0.hasPrefix("--") }
          rows.append((flagsText(long: long, short: short, value: flag.valueName), flag.help))
        }
      }
      guard !rows.isEmpty else { continue }
      out.append(group.rawValue)
      for (flags, text) in rows { out += row("  " + flags, text) }
      out.append("")
    }
    return out.joined(separator: "\n")
  }

  /// The ENVIRONMENT part of `--help`.
  public static func environment() -> String {
    let keys = ProviderCatalog.all.filter { $0.tokenVariable != nil }
    let variables = Settings.all.compactMap(\.environment).filter {
      !ProviderCatalog.tokenVariables.contains($0)
    }
    var out = ["ENVIRONMENT"]
    for venue in keys {
      out += row(
        "  \(venue.tokenVariable!)", "\(venue.displayName) API key (never printed; there is no --token flag)")
    }
    out += row("  TICKER_CONFIG", "settings file when --config is not given")
    out += row(
      "  TICKER_…", "every setting above: " + variables.map { $0.dropFirst(7) }.joined(separator: ", "))
    out += row("", "(flags win over these, these over the file)")
    out += row("  NO_COLOR", "disable colour")
    return out.joined(separator: "\n") + "\n"
  }

  /// `flags` at the left, `text` wrapped from `descriptionColumn` on (on the next line when the
  /// flags are too wide).
  static func row(_ flags: String, _ text: String) -> [String] {
    let words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
    var lines: [String] = []
    var current = flags
    if current.count + 1 > descriptionColumn {
      lines.append(current)
      current = ""
    }
    current = current.padding(to: descriptionColumn)
    var empty = true
    for word in words {
      if !empty && current.count + 1 + word.count > width {
        lines.append(current)
        current = String(repeating: " ", count: descriptionColumn)
        empty = true
      }
      current += (empty ? "" : " ") + word
      empty = false
    }
    lines.append(current)
    return lines
  }

  /// docs/options.md's option table: flag, environment variable and config key, meaning, default.
  public static func markdownTable() -> String {
    var out = [
      "| option | environment | config key | meaning | default |",
      "|---|---|---|---|---|",
    ]
    for setting in Settings.all {
      let flags = ([setting.shortFlag].compactMap { $0 } + [setting.flag].compactMap { $0 })
        .map { "`\($0)\(valueText(setting).map { " \($0)" } ?? "")`" }.joined(separator: ", ")
      let cells = [
        flags.isEmpty ? "—" : flags.replacingBars(),
        setting.environment.map { "`\($0)`" } ?? "—",
        setting.key.map { "`\($0)`" } ?? "—",
        setting.help.replacingBars(),
        setting.defaultText.isEmpty ? "—" : setting.defaultText.replacingBars(),
      ]
      out.append("| " + cells.joined(separator: " | ") + " |")
    }
    for flag in CommandFlag.allCases {
      let env = flag == .config ? "`TICKER_CONFIG`" : "—"
      let flags = flag.flags.map { "`\($0)\(flag.valueName.map { " \($0)" } ?? "")`" }.joined(separator: ", ")
      out.append("| \(flags) | \(env) | — | \(flag.help.replacingBars()) | — |")
    }
    return out.joined(separator: "\n") + "\n"
  }
}

extension String {
  func padding(to width: Int) -> String {
    count >= width ? self : self + String(repeating: " ", count: width - count)
  }

  /// A `|` inside a Markdown table cell, escaped.
  func replacingBars() -> String {
    split(separator: "|", omittingEmptySubsequences: false).joined(separator: "\\|")
  }
}
