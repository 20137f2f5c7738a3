#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The process environment as a dictionary, read from `environ` (no Foundation needed).
enum ProcessEnvironment {
  static func current() -> [String: String] {
    var entries: [String] = []
    #if canImport(Darwin)
      guard let pointer = _NSGetEnviron()?.pointee else { return [:] }
    #else
      guard let pointer = environ as UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? else { return [:] }
    #endif
    var index = 0
    while let entry = pointer[index] {
      entries.append(String(cString: entry))
      index += 1
    }
    return parse(entries)
  }

  /// `NAME=value` entries → dictionary; the first occurrence of a name wins (as `getenv` does);
  /// entries without `=` are ignored.
  static func parse(_ entries: [String]) -> [String: String] {
    var result: [String: String] = [:]
    for entry in entries {
      guard let equals = entry.firstIndex(of: "=") else { continue }
      let name = String(entry[..<equals])
      if result[name] == nil { result[name] = String(entry[entry.index(after: equals)...]) }
    }
    return result
  }
}
