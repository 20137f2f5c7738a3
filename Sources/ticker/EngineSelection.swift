import CLI
import EnginePlugin
import FeedRuntime
import Outputs
import Venues
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

  /// Picks the engine by correctness, not by presence. `auto` asks the layers (see
  /// `URLSessionAccess.verdict`) and takes URLSession only where every one allows it and the
  /// engine's own probe agrees; on Linux at 6.3.1 layer 3 always refuses. `urlsession` loads the
  /// engine wherever it can work at all and `warn`s about its known limits. Either URLSession
  /// engine hands over to the native engine once it shows a corelibs defect (`FallbackEngine`),
  /// which is `warn`ed about too.
  static func select(
    _ choice: EngineChoice, needsCustomCA: Bool,
    warn: @escaping @Sendable (String) -> Void = { _ in },
    verdict: @Sendable () -> URLSessionVerdict = { URLSessionAccess.verdict() },
    open: @Sendable (URLSessionDefects) async -> URLSessionAccess.Outcome = {
      await URLSessionAccess.open(defects: $0)
    }
  ) async throws(Failure) -> Selected {
    let defects = URLSessionDefects(onFirst: warn)
    func withFallback(_ engine: any WebSocketEngine) -> any WebSocketEngine {
      FallbackEngine(primary: engine, fallback: NativeEngine(), defects: defects)
    }
    switch choice {
    case .native:
      return Selected(engine: NativeEngine(), reason: "--engine native")
    case .urlsession:
      switch await open(defects) {
      case .available(let engine):
        if let limits = URLSessionAccess.knownLimits { warn(limits) }
        return Selected(engine: withFallback(engine), reason: "--engine urlsession")
      case .unavailable(let why): throw .urlSessionUnsupported(why)
      }
    case .auto:
      if needsCustomCA {
        return Selected(
          engine: NativeEngine(),
          reason: "auto: --cacert needs the native engine (URLSession takes no CA file)")
      }
      let verdict = verdict()
      switch verdict {
      case .usable: break
      case .refused(let report, _) where report.layer == .corelibsBugs:
        return Selected(
          engine: NativeEngine(),
          reason: "auto: URLSession's WebSockets are known to be broken here: \(verdict.reason)")
      case .refused:
        return Selected(
          engine: NativeEngine(), reason: "auto: URLSession cannot do WebSockets here: \(verdict.reason)")
      }
      switch await open(defects) {
      case .available(let engine):
        return Selected(engine: withFallback(engine), reason: "auto: URLSession: \(verdict.reason)")
      case .unavailable(let why):
        return Selected(engine: NativeEngine(), reason: "auto: URLSession cannot do WebSockets here (\(why))")
      }
    }
  }
}
