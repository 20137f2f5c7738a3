/// Whether the toolchain's FoundationNetworking can do WebSockets, found out without loading it.
///
/// FoundationNetworking does WebSockets through libcurl's `curl_ws_recv`/`curl_ws_send` (libcurl
/// 7.86+). A libFoundationNetworking.so built against older libcurl headers imports neither and
/// fails every WebSocket task with NSURLError -1002. Its dynamic symbol table says which one it is;
/// reading it costs a few pages of a file mapping instead of the ~20 MB of loading Foundation.
public enum FoundationNetworkingCheck {
  public static let libraryName = "libFoundationNetworking.so"
  static let webSocketPrefix = "curl_ws_"

  public enum Verdict: Sendable, Equatable {
    /// It imports libcurl's WebSocket functions (their names): worth loading the plugin to probe.
    case webSocketAPI([String])
    /// It imports none of them: URLSession cannot do WebSockets here. The library's path.
    case noWebSocketAPI(String)
    /// The library could not be found or read; the reason.
    case unknown(String)
  }

  /// What the library at `path` says.
  public static func verdict(forLibraryAt path: String) -> Verdict {
    let scanned = SystemFiles.withMappedFile(path) {
      ELFImports.undefinedSymbols(in: $0, prefix: webSocketPrefix)
    }
    switch scanned {
    case nil: return .unknown("cannot read \(path)")
    case .unreadable(let why): return .unknown("\(path): \(why)")
    case .imports(let names): return names.isEmpty ? .noWebSocketAPI(path) : .webSocketAPI(names)
    }
  }

  /// The library this process would load: next to the Swift runtime it already has mapped.
  public static func verdictForThisProcess() -> Verdict {
    guard let maps = SystemFiles.read("/proc/self/maps") else {
      return .unknown("cannot read /proc/self/maps")
    }
    guard let path = libraryPath(maps: String(decoding: maps, as: UTF8.self)) else {
      return .unknown("the Swift runtime (libswiftCore.so) is not a shared library here")
    }
    guard SystemFiles.exists(path) else { return .unknown("no \(path)") }
    return verdict(forLibraryAt: path)
  }

  /// `<dir>/libFoundationNetworking.so` for the directory of the `libswiftCore.so` mapped in
  /// `maps` (the text of /proc/self/maps), or nil.
  public static func libraryPath(maps: String) -> String? {
    for line in maps.split(separator: "\n") {
      guard let slash = line.firstIndex(of: "/") else { continue }
      let path = line[slash...]
      guard path.hasSuffix("/libswiftCore.so"), let dir = SystemFiles.directory(of: String(path)) else {
        continue
      }
      return dir + "/" + libraryName
    }
    return nil
  }
}
