import CLI
import EnginePlugin
import FeedRuntime
import Gateway
import Outputs
import Recording
import Venues
import WebSocketClient

#if os(macOS)
  import URLSessionEngine
#endif

/// How the ticker reaches the URLSession engine. On macOS it is linked in (Foundation is part
/// of the OS). On Linux it is the plugin libTickerURLSession.so next to the executable, loaded
/// only when wanted, so that the native path maps neither Foundation nor FoundationNetworking.
enum URLSessionAccess {
  enum Outcome: Sendable {
    case available(any WebSocketEngine)
    case unavailable(String)
  }

  /// Whether `auto` may use URLSession's WebSocket path here, without loading it. On Linux the
  /// three layers, in order, each only once the one before allowed it: the shim's imports (a
  /// file mapping), the runtime libcurl's protocols (maps libcurl), the known corelibs bugs.
  static func verdict() -> URLSessionVerdict {
    #if os(Linux)
      if URLSessionPlugin.isStaticExecutable {
        // Nothing is inspected or loaded (layer 2 would load libcurl, and with it a second C
        // library).
        return .refused(
          by: LayerReport(.compileTime, allows: false, URLSessionPlugin.LoadError.staticExecutableReason),
          after: [])
      }
      var reports = [WebSocketShimCheck.report()]
      if reports[0].allows { reports.append(LibcurlCheck.report()) }
      if reports.allSatisfy(\.allows) { reports.append(CorelibsBugs.report()) }
      return URLSessionVerdict.decide(reports)
    #else
      return .usable([])
    #endif
  }

  /// A static ticker asked for the URLSession engine becomes its dynamically linked companion
  /// (`URLSessionCompanion`), with the same arguments and environment, before it has opened or
  /// printed anything. Returns nil to go on here, or the exit code when there is no companion or
  /// it could not be run (69, as for any `--engine urlsession` that cannot work).
  static func runCompanionIfWanted(
    _ config: TickerConfig, arguments: [String], _ diagnostics: Diagnostics
  ) -> ExitCode? {
    #if os(Linux)
      switch URLSessionCompanion.plan(wantsURLSession: config.engine == .urlsession) {
      case .stay:
        return nil
      case .exec(let path):
        diagnostics.info(
          "--engine urlsession: this ticker is a static executable; running its companion \(path)")
        let why = URLSessionCompanion.exec(path: path, arguments: arguments)
        diagnostics.error("--engine urlsession cannot work here: cannot run the companion \(path): \(why)")
        return .unavailable
      case .missing(let path):
        diagnostics.error(
          "--engine urlsession cannot work here: \(URLSessionPlugin.LoadError.staticExecutableReason) "
            + "(there is no \(path ?? "companion: this executable's directory is unknown")); "
            + "use --engine auto or native")
        return .unavailable
      }
    #else
      return nil
    #endif
  }

  /// What `--engine urlsession` warns about where it runs (nil: nothing known).
  static var knownLimits: String? {
    #if os(Linux)
      "the URLSession engine on Linux has known corelibs \(CorelibsBugs.toolchainVersion) bugs: "
        + CorelibsBugs.summary
        + "; it sends no pings (liveness by --silence-timeout) and hands over to the native engine "
        + "when it delivers a cut message"
    #else
      nil
    #endif
  }

  /// Loads the engine (Linux: the plugin) and runs URLSession's local probe. On Linux, a
  /// connection that shows a corelibs defect reports it to `defects`.
  static func open(defects: URLSessionDefects) async -> Outcome {
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
      return .available(PluginURLSessionEngine(plugin: plugin, defects: defects))
    #endif
  }
}
