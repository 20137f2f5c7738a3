import PriceFeed
import URLSessionEngine
import WebSocketClient

/// `--engine auto|urlsession|native`, resolved to an engine and the reason for it.
enum EngineSelection {
  struct Selected: Sendable {
    var engine: any WebSocketEngine
    /// Why this engine: shown with `--verbose`.
    var reason: String
  }

  enum Failure: Error, Sendable {
    /// `--engine urlsession` where URLSession cannot do WebSockets.
    case urlSessionUnsupported(String)
  }

  /// Picks the engine. `auto` asks FoundationNetworking whether it can do WebSockets (a local
  /// probe, see `URLSessionEngine.support()`) and falls back to the native engine when it cannot.
  static func select(
    _ choice: EngineChoice, needsCustomCA: Bool,
    probe: @Sendable () async -> EngineSupport = { await URLSessionEngine.support() }
  ) async throws(Failure) -> Selected {
    switch choice {
    case .native:
      return Selected(engine: NativeEngine(), reason: "--engine native")
    case .urlsession:
      if case .unsupported(let why) = await probe() { throw .urlSessionUnsupported(why) }
      return Selected(engine: URLSessionEngine(), reason: "--engine urlsession")
    case .auto:
      if needsCustomCA {
        return Selected(
          engine: NativeEngine(),
          reason: "auto: --cacert needs the native engine (URLSession takes no CA file)")
      }
      switch await probe() {
      case .supported:
        return Selected(engine: URLSessionEngine(), reason: "auto: URLSession supports WebSockets here")
      case .unsupported(let why):
        return Selected(engine: NativeEngine(), reason: "auto: URLSession cannot do WebSockets here (\(why))")
      }
    }
  }
}
