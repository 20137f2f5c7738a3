import JSON

/// A configuration file or environment variable that cannot be used. Messages name the file (or
/// variable) and the key, and never contain the token's value.
public enum ConfigError: Error, Sendable, Equatable, CustomStringConvertible {
  /// An explicitly named config file (`--config`, `$TICKER_CONFIG`) does not exist.
  case fileNotFound(path: String)
  /// The file exists but could not be read (the reason as text).
  case unreadable(path: String, reason: String)
  case invalidJSON(path: String, JSONError)
  /// The top-level value is not an object.
  case notAnObject(path: String)
  case unknownKey(path: String, key: String, suggestion: String? = nil)
  /// A known key with a value of the wrong type or out of range.
  case invalidValue(path: String, key: String, requirement: String)
  /// An environment variable with an unusable value.
  case invalidEnvironment(variable: String, requirement: String)

  public var description: String {
    switch self {
    case .fileNotFound(let path): "\(path): no such file"
    case .unreadable(let path, let reason): "\(path): cannot read: \(reason)"
    case .invalidJSON(let path, let error): "\(path): invalid JSON: \(error)"
    case .notAnObject(let path): "\(path): the configuration must be a JSON object"
    case .unknownKey(let path, let key, let suggestion?):
      "\(path): unknown key \"\(key)\" (did you mean \"\(suggestion)\"?)"
    case .unknownKey(let path, let key, nil):
      "\(path): unknown key \"\(key)\" (known keys: \(ConfigFile.keys.joined(separator: ", ")))"
    case .invalidValue(let path, let key, let requirement): "\(path): \"\(key)\" \(requirement)"
    case .invalidEnvironment(let variable, let requirement):
      "environment variable \(variable) \(requirement)"
    }
  }
}
