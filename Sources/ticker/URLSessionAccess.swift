import EnginePlugin
import WebSocketClient

#if os(macOS)
  import URLSessionEngine
#endif

/// How the ticker reaches the URLSession engine. On macOS it is linked in (Foundation is part
/// of the OS). On Linux it is the plugin libTickerURLSession.so next to the executable, loaded
/// only when wanted, so that the native path maps neither Foundation nor FoundationNetworking.
enum URLSessionAccess {
  enum Precheck: Sendable, Equatable {
    /// It cannot work here; why. Nothing was loaded.
    case cannotWork(String)
    /// It may work: load it and ask it. What the check saw.
    case mayWork(String)
  }

  enum Outcome: Sendable {
    case available(any WebSocketEngine)
    case unavailable(String)
  }

  /// A cheap look before loading anything: on Linux, does the toolchain's
  /// libFoundationNetworking.so import libcurl's WebSocket functions?
  static func precheck() -> Precheck {
    #if os(Linux)
      switch FoundationNetworkingCheck.verdictForThisProcess() {
      case .noWebSocketAPI(let path):
        return .cannotWork(
          "\(path) imports no curl_ws_* function: FoundationNetworking was built without libcurl's WebSocket API"
        )
      case .webSocketAPI(let names):
        return .mayWork("FoundationNetworking imports \(names.joined(separator: ", "))")
      case .unknown(let why):
        return .mayWork("cannot inspect FoundationNetworking (\(why))")
      }
    #else
      return .mayWork("URLSession is part of the system")
    #endif
  }

  /// Loads the engine (Linux: the plugin) and runs URLSession's local probe.
  static func open() async -> Outcome {
    #if os(macOS)
      if case .unsupported(let why) = await URLSessionEngine.support() { return .unavailable(why) }
      return .available(URLSessionEngine())
    #else
      let plugin: URLSessionPlugin
      do {
        plugin = try URLSessionPlugin.loadNextToExecutable()
      } catch {
        return .unavailable("\(error)")
      }
      if let why = await plugin.unsupportedReason() { return .unavailable(why) }
      return .available(PluginURLSessionEngine(plugin: plugin))
    #endif
  }
}
