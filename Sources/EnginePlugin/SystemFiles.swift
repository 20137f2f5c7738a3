import TickerSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The few file-system reads the plugin machinery needs, without Foundation.
enum SystemFiles {
  /// A whole (small) file (`WholeFile`: works for /proc files, which report size 0); nil when
  /// it cannot be read or is larger than `limit`.
  static func read(_ path: String, limit: Int = 4 << 20) -> [UInt8]? {
    try? WholeFile.read(path, limit: limit)
  }

  /// Maps `path` read-only and calls `body` with its bytes (only the pages it touches are read).
  static func withMappedFile<T>(_ path: String, _ body: (UnsafeRawBufferPointer) -> T) -> T? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0, info.st_size > 0, let size = Int(exactly: info.st_size) else { return nil }
    guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED else { return nil }
    defer { munmap(base, size) }
    return body(UnsafeRawBufferPointer(start: base, count: size))
  }

  static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

  static func isDirectory(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
  }

  /// This executable's directory (from /proc/self/exe on Linux), or nil.
  static func executableDirectory() -> String? {
    #if os(Linux)
      var buffer = [CChar](repeating: 0, count: 4096)
      let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
      guard n > 0 else { return nil }
      let path = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
      return directory(of: path)
    #else
      return nil
    #endif
  }

  static func directory(of path: String) -> String? {
    guard let slash = path.lastIndex(of: "/") else { return nil }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }
}
