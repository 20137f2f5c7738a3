import WebSocketClient

/// The command-line parser: pure, `[String]` (without the program name) → `ParsedCommand`.
/// Options take `--opt value` or `--opt=value`; `-s`, `-v`, `-h` are the short forms. Repeated
/// options: `--symbol` accumulates, others take the last value.
public enum ArgumentParser {
  public static func parse(_ arguments: [String]) throws(UsageError) -> ParsedCommand {
    var command = ParsedCommand()
    var symbols: [String] = []
    var index = 0
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

      func flag() throws(UsageError) {
        if inlineValue != nil { throw .unexpectedValue(option: name) }
      }
      func value() throws(UsageError) -> String {
        if let inlineValue { return inlineValue }
        guard index < arguments.count else { throw .missingValue(option: name) }
        index += 1
        return arguments[index - 1]
      }
      func parsed<T>(_ text: String, _ result: T?, _ requirement: String) throws(UsageError) -> T {
        guard let result else { throw .invalidValue(option: name, value: text, requirement: requirement) }
        return result
      }

      switch name {
      case "--symbol", "-s":
        let text = try value()
        let list = SettingValue.symbols(text)
        symbols += try parsed(text, list.isEmpty ? nil : list, SettingValue.symbolsRequirement)
      case "--provider":
        let text = try value()
        guard ProviderCatalog.names.contains(text.lowercased()) else {
          throw .invalidValue(option: name, value: text, requirement: SettingValue.providerRequirement)
        }
        command.config.provider = text.lowercased()
      case "--control":
        let text = try value()
        guard text == "stdin" else {
          throw .invalidValue(option: name, value: text, requirement: "must be stdin")
        }
        command.controlStdin = true
      case "--url":
        let text = try value()
        guard let url = SettingValue.url(text) else {
          throw .invalidValue(
            option: name, value: SettingValue.printableURL(text),
            requirement: SettingValue.urlRequirement(for: text))
        }
        command.config.url = url
      case "--config":
        let text = try value()
        command.configPath = try parsed(text, text.isEmpty ? nil : text, SettingValue.pathRequirement)
      case "--engine":
        let text = try value()
        command.config.engine = try parsed(
          text, SettingValue.choice(text, as: EngineChoice.self), SettingValue.choices(EngineChoice.self))
      case "--debounce":
        let text = try value()
        command.config.debounce = try parsed(
          text, SettingValue.seconds(text), SettingValue.secondsRequirement)
      case "--max-wait":
        let text = try value()
        command.config.maxWait = try parsed(text, SettingValue.seconds(text), SettingValue.secondsRequirement)
      case "--every-trade":
        try flag()
        command.config.everyTrade = true
      case "--format":
        let text = try value()
        command.config.format = try parsed(
          text, SettingValue.choice(text, as: OutputFormat.self), SettingValue.choices(OutputFormat.self))
      case "--color":
        let text = try value()
        command.config.color = try parsed(
          text, SettingValue.choice(text, as: ColorMode.self), SettingValue.choices(ColorMode.self))
      case "--no-color":
        try flag()
        command.config.color = .never
      case "--cacert":
        let text = try value()
        command.config.cacert = try parsed(text, text.isEmpty ? nil : text, SettingValue.pathRequirement)
      case "--connect-timeout":
        let text = try value()
        command.config.connectTimeout = try parsed(
          text, SettingValue.seconds(text, allowZero: false), SettingValue.positiveSecondsRequirement)
      case "--max-message-size":
        let text = try value()
        command.config.maxMessageSize = try parsed(
          text, SettingValue.messageSize(text), SettingValue.sizeRequirement)
      case "--count":
        let text = try value()
        command.config.count = try parsed(text, SettingValue.count(text), SettingValue.countRequirement)
      case "--max-retries":
        let text = try value()
        command.config.maxRetries = try parsed(
          text, SettingValue.retries(text), SettingValue.retriesRequirement)
      case "--max-backoff":
        let text = try value()
        command.config.maxBackoff = try parsed(
          text, SettingValue.seconds(text, allowZero: false), SettingValue.positiveSecondsRequirement)
      case "--ping-interval":
        let text = try value()
        command.config.pingInterval = try parsed(
          text, SettingValue.seconds(text), SettingValue.secondsRequirement)
      case "--pong-timeout":
        let text = try value()
        command.config.pongTimeout = try parsed(
          text, SettingValue.seconds(text, allowZero: false), SettingValue.positiveSecondsRequirement)
      case "--silence-timeout":
        let text = try value()
        command.config.silenceTimeout = try parsed(
          text, SettingValue.seconds(text), SettingValue.secondsRequirement)
      case "--verbose", "-v":
        try flag()
        command.config.verbose = true
      case "--demo":
        try flag()
        command.demo = true
      case "--help", "-h":
        try flag()
        command.help = true
      case "--version":
        try flag()
        command.version = true
      case "--token", "-t", "--api-key", "--apikey":
        throw .tokenOnCommandLine
      default:
        throw .unknownOption(name)
      }
    }
    if !symbols.isEmpty { command.config.symbols = symbols }
    return command
  }
}
