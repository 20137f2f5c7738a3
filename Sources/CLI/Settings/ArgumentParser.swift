/// The command-line parser: pure, `[String]` (without the program name) → `ParsedCommand`,
/// driven by the declarations in `Settings`. Options take `--opt value` or `--opt=value`; short
/// flags (`-s`, `-v`, `-h`) take the next argument. A first word that is a `Subcommand` picks it:
/// with its operand (`completions SHELL`) and nothing else, or with the settings (`serve`).
public enum ArgumentParser {
  public static func parse(_ arguments: [String]) throws(UsageError) -> ParsedCommand {
    var command = ParsedCommand()
    var index = 0
    if let word = arguments.first, let subcommand = Subcommand.named(word) {
      command.subcommand = subcommand.name
      index = 1
      if let operand = subcommand.operand {
        guard arguments.count == 2, operand.choices.contains(arguments[1]) else {
          throw .invalidValue(
            option: word, value: arguments.dropFirst().joined(separator: " "),
            requirement: "must be one of " + operand.choices.joined(separator: ", "),
            suggestion: arguments.count == 2
              ? Suggestion.closest(to: arguments[1], among: operand.choices) : nil)
        }
        command.operand = arguments[1]
        return command
      }
    }
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if argument == "--" {
        if index < arguments.count { throw .unexpectedArgument(arguments[index]) }
        break
      }
      guard argument.hasPrefix("-"), argument.count > 1 else { throw .unexpectedArgument(argument) }
      var name = argument
      var inlineValue: String? = nil
      if argument.hasPrefix("--"), let eq = argument.firstIndex(of: "=") {
        name = String(argument[..<eq])
        inlineValue = String(argument[argument.index(after: eq)...])
      }
      func value() throws(UsageError) -> String {
        if let inlineValue { return inlineValue }
        guard index < arguments.count else { throw .missingValue(option: name) }
        index += 1
        return arguments[index - 1]
      }
      func noValue() throws(UsageError) {
        if inlineValue != nil { throw .unexpectedValue(option: name) }
      }

      if ["--token", "-t", "--api-key", "--apikey"].contains(name) { throw .tokenOnCommandLine }
      if let commandFlag = CommandFlag.allCases.first(where: { $0.flags.contains(name) }) {
        switch commandFlag {
        case .config:
          let text = try value()
          guard !text.isEmpty else {
            throw .invalidValue(option: name, value: text, requirement: SettingValue.pathRequirement)
          }
          command.configPath = text
        case .help:
          try noValue()
          command.help = true
        case .version:
          try noValue()
          command.version = true
        }
        continue
      }
      guard let setting = Settings.setting(forFlag: name) else {
        // Suggest only for long options: any short one is one letter from another.
        let longFlags = Settings.flags.filter { $0.hasPrefix("--") }
        throw .unknownOption(
          name, suggestion: name.hasPrefix("--") ? Suggestion.closest(to: name, among: longFlags) : nil)
      }
      if setting.isSwitch {
        try noValue()
        if let assignment = setting.fromText("true") { command.config.add(setting, assignment) }
        continue
      }
      let text = try value()
      guard let assignment = setting.fromText(text) else {
        let isURL = setting.key == "url" || setting.key == "publish" || setting.key == "source"
        throw .invalidValue(
          option: name, value: isURL ? SettingValue.printableURL(text) : text,
          requirement: setting.requirement(for: text),
          suggestion: Suggestion.closest(to: text, among: setting.choices))
      }
      command.config.add(setting, assignment)
    }
    return command
  }
}
