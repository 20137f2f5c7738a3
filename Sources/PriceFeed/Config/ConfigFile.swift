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
  /// Every key a config file may hold.
  public static let keys: [String] = [
    "provider", "symbols", "token", "url", "engine", "debounce", "maxWait", "everyTrade", "format",
    "color", "connectTimeout", "maxMessageSize", "cacert", "count", "verbose",
    "maxRetries", "maxBackoff", "pingInterval", "pongTimeout", "silenceTimeout",
  ]

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
      try apply(key: member.key, value: member.value, to: &config, path: path)
    }
    return config
  }

  private static func apply(
    key: String, value: JSONValue, to config: inout PartialConfig, path: String
  ) throws(ConfigError) {
    func invalid(_ requirement: String) -> ConfigError {
      .invalidValue(path: path, key: key, requirement: requirement)
    }
    func string(_ requirement: String) throws(ConfigError) -> String {
      guard case .string(let s) = value else { throw invalid(requirement) }
      return s
    }
    func optionalString(_ requirement: String) throws(ConfigError) -> String? {
      switch value {
      case .null: return nil
      case .string(let s): return s.isEmpty ? nil : s
      default: throw invalid(requirement)
      }
    }
    func bool() throws(ConfigError) -> Bool {
      guard case .bool(let b) = value else { throw invalid(SettingValue.booleanRequirement) }
      return b
    }
    func seconds(allowZero: Bool, requirement: String) throws(ConfigError) -> Duration {
      guard case .number(let text) = value, let d = SettingValue.seconds(text, allowZero: allowZero) else {
        throw invalid(requirement)
      }
      return d
    }

    switch key {
    case "provider":
      let name = try string(SettingValue.providerRequirement)
      guard ProviderCatalog.names.contains(name) else { throw invalid(SettingValue.providerRequirement) }
      config.provider = name
    case "symbols":
      var list: [String] = []
      switch value {
      case .string(let s): list = SettingValue.symbols(s)
      case .array(let items):
        for item in items {
          guard case .string(let s) = item else { throw invalid(SettingValue.symbolsRequirement) }
          list += SettingValue.symbols(s)
        }
      default: break
      }
      guard !list.isEmpty else { throw invalid(SettingValue.symbolsRequirement) }
      config.symbols = list
    case "token":
      config.token = try optionalString("must be a string (or null)")
    case "url":
      guard let text = try optionalString(SettingValue.urlRequirement) else { return }
      guard let url = SettingValue.url(text) else { throw invalid(SettingValue.urlRequirement(for: text)) }
      config.url = url
    case "engine":
      let requirement = SettingValue.choices(EngineChoice.self)
      guard let choice = SettingValue.choice(try string(requirement), as: EngineChoice.self) else {
        throw invalid(requirement)
      }
      config.engine = choice
    case "format":
      let requirement = SettingValue.choices(OutputFormat.self)
      guard let choice = SettingValue.choice(try string(requirement), as: OutputFormat.self) else {
        throw invalid(requirement)
      }
      config.format = choice
    case "color":
      let requirement = SettingValue.choices(ColorMode.self)
      guard let choice = SettingValue.choice(try string(requirement), as: ColorMode.self) else {
        throw invalid(requirement)
      }
      config.color = choice
    case "debounce":
      config.debounce = try seconds(allowZero: true, requirement: SettingValue.secondsRequirement)
    case "maxWait":
      if value.isNull { return }
      config.maxWait = try seconds(allowZero: true, requirement: SettingValue.secondsRequirement)
    case "connectTimeout":
      config.connectTimeout = try seconds(
        allowZero: false, requirement: SettingValue.positiveSecondsRequirement)
    case "everyTrade":
      config.everyTrade = try bool()
    case "verbose":
      config.verbose = try bool()
    case "maxMessageSize":
      guard case .number(let text) = value, let n = SettingValue.messageSize(text) else {
        throw invalid(SettingValue.sizeRequirement)
      }
      config.maxMessageSize = n
    case "count":
      if value.isNull { return }
      guard case .number(let text) = value, let n = SettingValue.count(text) else {
        throw invalid(SettingValue.countRequirement + " (or null)")
      }
      config.count = n
    case "cacert":
      config.cacert = try optionalString(SettingValue.pathRequirement + " (or null)")
    case "maxRetries":
      if value.isNull { return }
      guard case .number(let text) = value, let n = SettingValue.retries(text) else {
        throw invalid(SettingValue.retriesRequirement + " (or null for unlimited)")
      }
      config.maxRetries = n
    case "maxBackoff":
      config.maxBackoff = try seconds(allowZero: false, requirement: SettingValue.positiveSecondsRequirement)
    case "pingInterval":
      config.pingInterval = try seconds(
        allowZero: true, requirement: SettingValue.secondsRequirement + " (0 = off)")
    case "pongTimeout":
      config.pongTimeout = try seconds(allowZero: false, requirement: SettingValue.positiveSecondsRequirement)
    case "silenceTimeout":
      config.silenceTimeout = try seconds(
        allowZero: true, requirement: SettingValue.secondsRequirement + " (0 = off)")
    default:
      throw .unknownKey(path: path, key: key)
    }
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
