import JSON

/// One setting, declared once (see `Settings.all`): where it can come from — a flag, an
/// environment variable, a config-file key — how its text or JSON value is read and checked, its
/// default, and how `--help`, the options table (docs/options.md) and the shell completions present it. The argument
/// parser, the environment and file readers, the help text and the completion scripts are all
/// driven by these declarations.
public struct Setting: Sendable {
  /// The config-file key (`maxWait`); nil when the file cannot set it.
  public let key: String?
  /// Flags, long first (`--max-wait`), then a short one (`-s`), then aliases.
  public let flags: [String]
  /// The environment variable (`TICKER_MAX_WAIT`); nil when there is none.
  public let environment: String?
  public let group: SettingGroup
  /// What the value is called in help (`SECONDS`); nil for a switch, which takes no value.
  public let valueName: String?
  /// What it does, for `--help` and docs/options.md.
  public let help: String
  /// The default as shown in help and docs/options.md (`0.5`, `unlimited`); empty: none shown.
  public let defaultText: String
  /// The default as JSON, for `config.example.json` (nil when the file cannot set it).
  public let defaultJSON: String?
  /// What a valid value is, in the words error messages use.
  public let requirement: String
  /// The valid values, when there is a fixed list (suggestions and completions use it).
  public let choices: [String]
  public let completion: Completion
  /// Repeated flags add up (`-s A -s B`) instead of the last one winning.
  public let accumulates: Bool
  /// Shown in `--help` (false for aliases and settings with no flag).
  public let listed: Bool
  /// The value may be absent: in the file, `null` (and `""`) mean "not set here".
  public let nullable: Bool
  let fromText: @Sendable (String) -> Assignment?
  let fromJSON: @Sendable (JSONValue) -> Assignment?
  /// What exactly is wrong with a rejected text, when the parser can say more than `requirement`.
  var explain: (@Sendable (String) -> String?)? = nil
  /// The runs it does something for.
  public internal(set) var scope = SettingScope.everywhere

  /// What a valid value is, said about the rejected `text`.
  public func requirement(for text: String) -> String {
    if key == "url" { return SettingValue.urlRequirement(for: text) }
    return explain?(text) ?? requirement
  }

  /// The long flag, if any.
  public var flag: String? { flags.first { $0.hasPrefix("--") } }
  /// The short flag, if any.
  public var shortFlag: String? { flags.first { !$0.hasPrefix("--") } }
  /// A switch takes no value (`--every-trade`).
  public var isSwitch: Bool { valueName == nil }

  /// The name a person knows it by: its long flag, else its variable, else its key.
  public var name: String { flag ?? environment ?? key ?? "?" }
}

/// A parsed value of one setting: what it does to a configuration.
public struct Assignment: Sendable {
  let set: @Sendable (inout TickerConfig) -> Void
  /// For settings that accumulate: what a later occurrence in the same layer adds.
  let append: @Sendable (inout TickerConfig) -> Void
}

/// The sections of `--help`, in order.
public enum SettingGroup: String, Sendable, CaseIterable {
  case feed = "FEED"
  case filtering = "FILTERING"
  case output = "OUTPUT"
  case alerts = "ALERTS"
  case recording = "RECORD AND REPLAY"
  case connection = "CONNECTION"
  case reconnect = "RECONNECT AND KEEPALIVE"
  case serve = "SERVE (ticker serve)"
  case service = "SERVICE"
  case general = "GENERAL"
}

/// How a shell completes a setting's value.
public enum Completion: Sendable, Equatable {
  case none
  /// One of these words.
  case choices([String])
  /// A file name.
  case file
}

/// How a value of type `Value` is read from text (flags, environment) and JSON (the config file),
/// shown, and described when wrong.
public struct ValueParser<Value: Sendable>: Sendable {
  public let requirement: String
  public let choices: [String]
  let text: @Sendable (String) -> Value?
  let json: @Sendable (JSONValue) -> Value?
  /// For help and the README.
  let show: @Sendable (Value) -> String
  /// As JSON, for `config.example.json`.
  let jsonText: @Sendable (Value) -> String
  let completion: Completion
  /// Made by `orNil`.
  let nullable: Bool
  /// What is wrong with a rejected text, more precisely than `requirement` (nil: just that).
  var explain: (@Sendable (String) -> String?)? = nil

  public init(
    requirement: String, choices: [String] = [], completion: Completion? = nil,
    text: @escaping @Sendable (String) -> Value?, json: @escaping @Sendable (JSONValue) -> Value?,
    show: @escaping @Sendable (Value) -> String, jsonText: @escaping @Sendable (Value) -> String,
    nullable: Bool = false
  ) {
    self.nullable = nullable
    self.requirement = requirement
    self.choices = choices
    self.completion = completion ?? (choices.isEmpty ? .none : .choices(choices))
    self.text = text
    self.json = json
    self.show = show
    self.jsonText = jsonText
  }

  /// The same values, or null (JSON) for nil; text cannot say nil.
  public var orNil: ValueParser<Value?> {
    let (text, json, show, jsonText) = (self.text, self.json, self.show, self.jsonText)
    var parser = ValueParser<Value?>(
      requirement: requirement, choices: choices, completion: completion,
      text: { text($0).map { .some($0) } },
      json: { value in value.isNull ? .some(nil) : json(value).map { .some($0) } },
      show: { $0.map(show) ?? "" }, jsonText: { $0.map(jsonText) ?? "null" }, nullable: true)
    parser.explain = explain
    return parser
  }
}

extension Setting {
  /// Declares a setting stored at `keyPath` of `TickerConfig`; its default is what
  /// `TickerConfig()` holds there.
  static func value<Value: Sendable>(
    _ keyPath: WritableKeyPath<TickerConfig, Value> & Sendable, key: String?, flags: [String] = [],
    environment: String? = nil, group: SettingGroup, valueName: String?, help: String,
    parser: ValueParser<Value>,
    defaultText: String? = nil, accumulate: (@Sendable (Value, Value) -> Value)? = nil, listed: Bool = true
  ) -> Setting {
    let defaultValue = TickerConfig()[keyPath: keyPath]
    @Sendable func assignment(_ value: Value) -> Assignment {
      Assignment(
        set: { $0[keyPath: keyPath] = value },
        append: { config in
          if let accumulate {
            config[keyPath: keyPath] = accumulate(config[keyPath: keyPath], value)
          } else {
            config[keyPath: keyPath] = value
          }
        })
    }
    let (text, json) = (parser.text, parser.json)
    var setting = Setting(
      key: key, flags: flags, environment: environment, group: group, valueName: valueName, help: help,
      defaultText: defaultText ?? parser.show(defaultValue),
      defaultJSON: key.map { _ in parser.jsonText(defaultValue) },
      requirement: parser.requirement, choices: parser.choices, completion: parser.completion,
      accumulates: accumulate != nil, listed: listed, nullable: parser.nullable,
      fromText: { text($0).map(assignment) }, fromJSON: { json($0).map(assignment) })
    setting.explain = parser.explain
    return setting
  }

  /// A switch (`--every-trade`): present means true; the environment and the file say true or
  /// false.
  static func toggle(
    _ keyPath: WritableKeyPath<TickerConfig, Bool> & Sendable, key: String?, flags: [String],
    environment: String? = nil, group: SettingGroup, help: String
  ) -> Setting {
    let parser = ValueParsers.bool
    return Setting(
      key: key, flags: flags, environment: environment, group: group, valueName: nil, help: help,
      defaultText: "", defaultJSON: key.map { _ in parser.jsonText(TickerConfig()[keyPath: keyPath]) },
      requirement: parser.requirement, choices: [], completion: .none, accumulates: false, listed: true,
      nullable: false,
      fromText: { text in
        parser.text(text).map { v in
          Assignment(set: { $0[keyPath: keyPath] = v }, append: { $0[keyPath: keyPath] = v })
        }
      },
      fromJSON: { json in
        parser.json(json).map { v in
          Assignment(set: { $0[keyPath: keyPath] = v }, append: { $0[keyPath: keyPath] = v })
        }
      })
  }

  /// A flag that stands for another setting's value (`--no-color` = `--color never`).
  static func alias<Value: Sendable>(
    _ flag: String, for keyPath: WritableKeyPath<TickerConfig, Value> & Sendable, value: Value,
    group: SettingGroup, help: String
  ) -> Setting {
    let set: @Sendable (inout TickerConfig) -> Void = { $0[keyPath: keyPath] = value }
    return Setting(
      key: nil, flags: [flag], environment: nil, group: group, valueName: nil, help: help, defaultText: "",
      defaultJSON: nil, requirement: "", choices: [], completion: .none, accumulates: false, listed: true,
      nullable: false, fromText: { _ in Assignment(set: set, append: set) }, fromJSON: { _ in nil })
  }
}
