import PriceFeed
import WebSocketClient

/// `--engine auto|urlsession|native`, resolved to an engine and the reason for it.
enum EngineSelection {
  struct Selected: Sendable {
    var engine: any WebSocketEngine
    /// Why this engine: shown with `--verbose`.
    var reason: String
  }

  enum Failure: Error, Sendable {
    /// `--engine urlsession` where URLSession cannot do WebSockets (or its plugin is missing).
    case urlSessionUnsupported(String)
  }

  /// Picks the engine. `auto` first looks (without loading anything) whether FoundationNetworking
  /// can do WebSockets at all, and only then loads the URLSession engine and runs its local probe
  /// (see `URLSessionAccess`), falling back to the native engine when either says no.
  /// `urlsession` skips the look and asks the engine itself.
  static func select(
    _ choice: EngineChoice, needsCustomCA: Bool,
    precheck: @Sendable () -> URLSessionAccess.Precheck = { URLSessionAccess.precheck() },
    open: @Sendable () async -> URLSessionAccess.Outcome = { await URLSessionAccess.open() }
  ) async throws(Failure) -> Selected {
    switch choice {
    case .native:
      return Selected(engine: NativeEngine(), reason: "--engine native")
    case .urlsession:
      switch await open() {
      case .available(let engine): return Selected(engine: engine, reason: "--engine urlsession")
      case .unavailable(let why): throw .urlSessionUnsupported(why)
      }
    case .auto:
      if needsCustomCA {
        return Selected(
          engine: NativeEngine(),
          reason: "auto: --cacert needs the native engine (URLSession takes no CA file)")
      }
      let seen: String
      switch precheck() {
      case .cannotWork(let why):
        return Selected(engine: NativeEngine(), reason: "auto: URLSession cannot do WebSockets here (\(why))")
      case .mayWork(let note): seen = note
      }
      switch await open() {
      case .available(let engine):
        return Selected(engine: engine, reason: "auto: URLSession supports WebSockets here (\(seen))")
      case .unavailable(let why):
        return Selected(engine: NativeEngine(), reason: "auto: URLSession cannot do WebSockets here (\(why))")
      }
    }
  }
}
