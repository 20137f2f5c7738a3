import TickerPluginABI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Layer 1: was the C shim FoundationNetworking calls for WebSockets built against libcurl's
/// WebSocket API (libcurl ≥ 7.86 headers)? Such a shim imports `curl_ws_recv`/`curl_ws_send`;
/// built without it, its `CFURLSessionWebSocketsSupported()` says no whatever libcurl is loaded.
///
/// The shim is the `CFURLSessionWebSocketsSupported` this process would bind to: a definition
/// already in the global scope (an LD_PRELOAD library re-providing it, as the tests' harness
/// does, or a FoundationNetworking already loaded), else the one inside the
/// libFoundationNetworking.so next to the Swift runtime. Nothing is loaded to find out.
public enum WebSocketShimCheck {
  static let shimSymbol = "CFURLSessionWebSocketsSupported"

  public static func report() -> LayerReport {
    if let path = loadedDefinitionPath(of: shimSymbol) {
      return report(for: FoundationNetworkingCheck.verdict(forLibraryAt: path), library: path)
    }
    let verdict = FoundationNetworkingCheck.verdictForThisProcess()
    return report(for: verdict, library: FoundationNetworkingCheck.libraryName)
  }

  /// The layer's report for what the import scan of `library` found. Pure.
  public static func report(for verdict: FoundationNetworkingCheck.Verdict, library: String) -> LayerReport {
    switch verdict {
    case .webSocketAPI(let names):
      return LayerReport(.compileTime, allows: true, "\(library) imports \(names.joined(separator: ", "))")
    case .noWebSocketAPI(let path):
      return LayerReport(
        .compileTime, allows: false,
        "\(path) imports no curl_ws_* function: FoundationNetworking was built without libcurl's WebSocket API"
      )
    case .unknown(let why):
      // Cannot tell: the later layers (and the plugin's own probe) decide.
      return LayerReport(.compileTime, allows: true, "cannot inspect FoundationNetworking (\(why))")
    }
  }

  /// The file holding the definition of `symbol` that `dlsym(RTLD_DEFAULT)` finds, if any.
  static func loadedDefinitionPath(of symbol: String) -> String? {
    guard let address = dlsym(UnsafeMutableRawPointer(bitPattern: 0), symbol) else { return nil }
    return ticker_loaded_file(address).map { String(cString: $0) }
  }
}
