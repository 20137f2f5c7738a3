import JSON

extension Settings {
  /// `config.example.json`: every config-file key, in declaration order, with its default (a test
  /// holds the file in the repository to this text, so neither can drift).
  public static func exampleConfig() -> String {
    let members = all.compactMap { setting in
      setting.key.map { key in "  \(JSONEscaping.quoted(key)): \(setting.defaultJSON ?? "null")" }
    }
    return "{\n" + members.joined(separator: ",\n") + "\n}\n"
  }
}
