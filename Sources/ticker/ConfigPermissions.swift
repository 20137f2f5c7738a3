#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A config file that holds the API token should be readable by its owner only.
enum ConfigPermissions {
  /// The warning for a token-holding file with permission bits `mode`, or nil when only the
  /// owner can read it.
  static func warning(path: String, mode: UInt32) -> String? {
    let exposed = mode & 0o077
    guard exposed & 0o044 != 0 else { return nil }
    let who = exposed & 0o004 != 0 ? "everyone" : "its group"
    return "\(path) holds an API token and is readable by \(who) (mode \(octal(mode & 0o777))); "
      + "run: chmod 600 \(path)"
  }

  /// Reads the file's permission bits; nil when it cannot be examined.
  static func mode(of path: String) -> UInt32? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return UInt32(info.st_mode)
  }

  private static func octal(_ value: UInt32) -> String {
    let digits = String(value, radix: 8)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }
}
