/// The command-line parser: pure, `[String]` (without the program name) → `ParsedCommand`,
/// driven by the declarations in `Settings`. Options take `--opt value` or `--opt=value`; short
/// flags (`-s`, `-v`, `-h`) take the next argument. A first word that is a `Subcommand` picks it:
/// with its operand (`completions SHELL`) and nothing else, or with the settings (`serve`).
public enum ArgumentParser {
  public static func parse(_ arguments: [String]) throws(UsageError) -> ParsedCommand {
    var command = ParsedCommand()
    var options = OptionReader(arguments: arguments)
    if let word = arguments.first, let subcommand = Subcommand.named(word) {
      command.subcommand = subcommand.name
      options.index = 1
      if let operand = subcommand.operand {
        command.operand = try self.operand(of: word, choices: operand.choices, in: arguments)
        return command
      }
    }
    while try options.next() {
      let name = options.name
      if ["--token", "-t", "--api-key", "--apikey"].contains(name) { throw .tokenOnCommandLine }
      if let commandFlag = CommandFlag.allCases.first(where: { $0.flags.contains(name) }) {
        try read(commandFlag, from: &options, into: &command)
      } else {
        try read(setting(forFlag: name), from: &options, into: &command)
      }
    }
    return command
  }

  /// The operand of the subcommand `word`: one of `choices`, and the only argument after it.
  private static func operand(of word: String, choices: [String], in arguments: [String])
    throws(UsageError) -> String
  {
    guard arguments.count == 2, choices.contains(arguments[1]) else {
      throw .invalidValue(
        option: word, value: arguments.dropFirst().joined(separator: " "),
        requirement: "must be one of " + choices.joined(separator: ", "),
        suggestion: arguments.count == 2 ? Suggestion.closest(to: arguments[1], among: choices) : nil)
    }
    return arguments[1]
  }

  /// `--config`, `--help` or `--version`: about the command itself, not a setting.
  private static func read(
    _ flag: CommandFlag, from options: inout OptionReader, into command: inout ParsedCommand
  ) throws(UsageError) {
    switch flag {
    case .config:
      let text = try options.value()
      guard !text.isEmpty else {
        throw .invalidValue(option: options.name, value: text, requirement: SettingValue.pathRequirement)
      }
      command.configPath = text
    case .help:
      try options.noValue()
      command.help = true
    case .version:
      try options.noValue()
      command.version = true
    }
  }

  /// The setting `name` is a flag of; an unknown option is a usage error.
  private static func setting(forFlag name: String) throws(UsageError) -> Setting {
    guard let setting = Settings.setting(forFlag: name) else {
      // Suggest only for long options: any short one is one letter from another.
      let longFlags = Settings.flags.filter { $0.hasPrefix("--") }
      throw .unknownOption(
        name, suggestion: name.hasPrefix("--") ? Suggestion.closest(to: name, among: longFlags) : nil)
    }
    return setting
  }

  /// A setting's value (a switch takes none), checked and added to the command's settings.
  private static func read(
    _ setting: Setting, from options: inout OptionReader, into command: inout ParsedCommand
  ) throws(UsageError) {
    if setting.isSwitch {
      try options.noValue()
      if let assignment = setting.fromText("true") { command.config.add(setting, assignment) }
      return
    }
    let text = try options.value()
    guard let assignment = setting.fromText(text) else {
      let isURL = setting.key == "url" || setting.key == "publish" || setting.key == "source"
      throw .invalidValue(
        option: options.name, value: isURL ? SettingValue.printableURL(text) : text,
        requirement: setting.requirement(for: text),
        suggestion: Suggestion.closest(to: text, among: setting.choices))
    }
    command.config.add(setting, assignment)
  }

  /// The arguments read one option at a time: its name, and its value, given after `=` or as
  /// the next argument.
  private struct OptionReader {
    let arguments: [String]
    var index = 0
    /// The option `next()` read, without its `=value`.
    private(set) var name = ""
    private var inlineValue: String? = nil

    init(arguments: [String]) { self.arguments = arguments }

    /// Reads the next option; false at the end (or at `--`, which must end the arguments).
    mutating func next() throws(UsageError) -> Bool {
      guard index < arguments.count else { return false }
      let argument = arguments[index]
      index += 1
      if argument == "--" {
        if index < arguments.count { throw .unexpectedArgument(arguments[index]) }
        return false
      }
      guard argument.hasPrefix("-"), argument.count > 1 else { throw .unexpectedArgument(argument) }
      name = argument
      inlineValue = nil
      if argument.hasPrefix("--"), let eq = argument.firstIndex(of: "=") {
        name = String(argument[..<eq])
        inlineValue = String(argument[argument.index(after: eq)...])
      }
      return true
    }

    /// The option's value: what followed `=`, or else the next argument.
    mutating func value() throws(UsageError) -> String {
      if let inlineValue { return inlineValue }
      guard index < arguments.count else { throw .missingValue(option: name) }
      index += 1
      return arguments[index - 1]
    }

    /// The option takes no value: `--flag=value` is an error.
    func noValue() throws(UsageError) {
      if inlineValue != nil { throw .unexpectedValue(option: name) }
    }
  }
}
