import JSON
import TickerSupport

/// The JSON config file: one object whose keys are the setting names below (camelCase, as in
/// `config.example.json`). Unknown keys, wrong types and out-of-range values are errors naming the
/// file and the key. `null` (and `""` for `token`) means "not set here" for `token`, `url`,
/// `maxWait`, `cacert` and `count`. `symbols` is an array of strings (a comma-separated string
/// is accepted too).
public enum ConfigFile {
  /// Every key a config file may hold (from `Settings`).
  public static var keys: [String] { Settings.keys }

  /// Files larger than this are refused rather than read (a config file is a few hundred bytes).
  static let maxFileSize = 1 << 20

  /// Reads and parses the file at `location`. A missing file at a default location is an empty
  /// configuration; a missing explicit file is `ConfigError.fileNotFound`.
  public static func load(_ location: ConfigLocation) throws(ConfigError) -> PartialConfig {
    guard let bytes = try readFile(path: location.path) else {
      if location.isExplicit { throw .fileNotFound(path: location.path) }
      return PartialConfig()
    }
    return try parse(bytes, path: location.path)
  }

  /// Parses config file contents; `path` is only used in error messages.
  public static func parse(_ bytes: [UInt8], path: String) throws(ConfigError) -> PartialConfig {
    let json: JSONValue
    do throws(JSONError) {
      json = try JSONParser(maxDepth: 16).parse(bytes)
    } catch {
      throw .invalidJSON(path: path, error)
    }
    guard case .object(let object) = json else { throw .notAnObject(path: path) }
    var config = PartialConfig()
    for member in object.members {
      guard let setting = Settings.setting(forKey: member.key) else {
        throw .unknownKey(
          path: path, key: member.key, suggestion: Suggestion.closest(to: member.key, among: keys))
      }
      // For settings that may be absent, null and "" mean "not set here".
      if setting.nullable && (member.value.isNull || member.value.stringValue == "") { continue }
      guard let assignment = setting.fromJSON(member.value) else {
        let text = member.value.stringValue
        let requirement = text.map(setting.requirement(for:)) ?? setting.requirement
        let suggestion = text.flatMap { Suggestion.closest(to: $0, among: setting.choices) }
        let orNull = setting.nullable && !requirement.contains(text: "(or null)") ? " (or null)" : ""
        throw .invalidValue(
          path: path, key: member.key,
          requirement: requirement + orNull + (suggestion.map { " (did you mean \($0)?)" } ?? ""))
      }
      config.add(setting, assignment)
    }
    return config
  }

  /// The file's bytes; nil when it does not exist. Anything but a regular file (a FIFO, a device,
  /// a directory) is refused before a byte is read (`WholeFile`).
  static func readFile(path: String) throws(ConfigError) -> [UInt8]? {
    do throws(WholeFileError) {
      return try WholeFile.read(path, limit: maxFileSize)
    } catch .missing {
      return nil
    } catch {
      throw .unreadable(path: path, reason: error.description)
    }
  }
}
