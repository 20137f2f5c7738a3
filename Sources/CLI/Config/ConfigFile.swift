import JSON
import WebSocketClient

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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
  /// a directory) is refused before a byte is read: reading a FIFO nobody writes would block
  /// forever. The open itself cannot block (`O_NONBLOCK`), and the type is checked on the opened
  /// descriptor, so the check and the read concern the same file.
  static func readFile(path: String) throws(ConfigError) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    if fd < 0 {
      let code = errno
      if code == ENOENT { return nil }
      throw .unreadable(path: path, reason: String(cString: strerror(code)))
    }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      throw .unreadable(path: path, reason: String(cString: strerror(errno)))
    }
    guard info.st_mode & S_IFMT == S_IFREG else {
      throw .unreadable(path: path, reason: "not a regular file (\(FileKind.describe(mode: info.st_mode)))")
    }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 16 << 10)
    while true {
      let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if n < 0 {
        if errno == EINTR { continue }
        throw .unreadable(path: path, reason: String(cString: strerror(errno)))
      }
      if n == 0 { break }
      bytes += chunk[..<n]
      if bytes.count > maxFileSize {
        throw .unreadable(path: path, reason: "larger than \(maxFileSize) bytes")
      }
    }
    return bytes
  }
}

/// What kind of file a `stat` mode describes, for messages.
public enum FileKind {
  public static func describe(mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFREG: "a regular file"
    case S_IFDIR: "a directory"
    case S_IFIFO: "a FIFO"
    case S_IFCHR: "a character device"
    case S_IFBLK: "a block device"
    case S_IFSOCK: "a socket"
    case S_IFLNK: "a symbolic link"
    default: "an unknown kind of file"
    }
  }

  /// nil when `path` is a regular file that can be opened for reading; else why not. Used for
  /// files handed to other code that would block on a FIFO (the `--cacert` file OpenSSL reads).
  public static func problemReadingRegularFile(_ path: String) -> String? {
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    if fd < 0 { return String(cString: strerror(errno)) }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { return String(cString: strerror(errno)) }
    guard info.st_mode & S_IFMT == S_IFREG else {
      return "not a regular file (\(describe(mode: info.st_mode)))"
    }
    return nil
  }
}
