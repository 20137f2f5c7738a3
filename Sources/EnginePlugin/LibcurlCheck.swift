import TickerPluginABI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Layer 2: does the libcurl loaded at run time do WebSockets? libcurl exports `curl_ws_*`
/// from 7.86 on even when built with WebSockets off (Debian 12's 7.88.1 is one; curl enabled
/// them by default only in 8.11); its `curl_version_info()` protocol list says whether `ws`/`wss`
/// are really there, which is what corelibs' `CFURLSessionWebSocketsSupported()` asks too.
public enum LibcurlCheck {
  static let libraryName = "libcurl.so.4"

  /// What libcurl says about itself.
  public struct Info: Sendable, Equatable {
    public var version: String
    public var protocols: [String]
    public var path: String

    public init(version: String, protocols: [String], path: String) {
      self.version = version
      self.protocols = protocols
      self.path = path
    }
  }

  /// Asks the libcurl this process has (or would load: the same search FoundationNetworking's
  /// dependency takes). Only called once layer 1 allowed it, so a process that cannot use
  /// URLSession never maps libcurl.
  public static func report() -> LayerReport {
    guard let info = loadedInfo() else {
      return LayerReport(.runtimeLibcurl, allows: false, "\(libraryName) cannot be loaded")
    }
    return report(for: info)
  }

  /// The layer's report for `info`. Pure.
  public static func report(for info: Info) -> LayerReport {
    let webSockets = info.protocols.filter { $0 == "ws" || $0 == "wss" }
    if webSockets.isEmpty {
      return LayerReport(
        .runtimeLibcurl, allows: false,
        "libcurl \(info.version) (\(info.path)) lists no ws/wss protocol: built with WebSockets off")
    }
    return LayerReport(
      .runtimeLibcurl, allows: true,
      "libcurl \(info.version) (\(info.path)) lists \(webSockets.joined(separator: ", "))")
  }

  static func loadedInfo() -> Info? {
    let handle =
      dlopen(libraryName, RTLD_LAZY | RTLD_LOCAL | RTLD_NOLOAD) ?? dlopen(libraryName, RTLD_LAZY | RTLD_LOCAL)
    guard let handle, let symbol = dlsym(handle, "curl_version_info") else { return nil }
    let versionInfo = unsafeBitCast(symbol, to: ticker_curl_version_info_fn.self)
    guard let data = versionInfo(0) else { return nil }
    var protocols: [String] = []
    if var next = data.pointee.protocols {
      while let name = next.pointee {
        protocols.append(String(cString: name))
        next += 1
      }
    }
    let path = ticker_loaded_file(symbol).map { String(cString: $0) }
    return Info(
      version: data.pointee.version.map { String(cString: $0) } ?? "?", protocols: protocols,
      path: path ?? libraryName)
  }
}
