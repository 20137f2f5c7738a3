import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Turns SIGINT and SIGTERM into a call on a queue instead of the default instant death, so the
/// ticker can unsubscribe and close cleanly. A second signal of the same kind exits at once,
/// after `beforeImmediateExit` (the board gives the terminal back there).
// `@unchecked`: `sources` is set once in init and never mutated; DispatchSource.cancel is thread-safe.
final class SignalWatcher: @unchecked Sendable {
  private let sources: [any DispatchSourceSignal]

  init(
    beforeImmediateExit: @escaping @Sendable () -> Void = {}, handler: @escaping @Sendable (Int32) -> Void
  ) {
    let queue = DispatchQueue(label: "ticker.signals")
    var sources: [any DispatchSourceSignal] = []
    for sig in [SIGINT, SIGTERM] {
      signal(sig, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: sig, queue: queue)
      let seen = SeenOnce()
      source.setEventHandler {
        if seen.markSeen() {
          handler(sig)
        } else {
          beforeImmediateExit()
          exit(128 + sig)
        }
      }
      source.resume()
      sources.append(source)
    }
    self.sources = sources
  }

  func cancel() { sources.forEach { $0.cancel() } }
}

/// True the first time only. Only touched on the signal queue.
private final class SeenOnce: @unchecked Sendable {
  private var seen = false
  func markSeen() -> Bool {
    defer { seen = true }
    return !seen
  }
}

/// SIGPIPE would kill the process silently mid-write; with it ignored, a closed stdout shows up
/// as EPIPE, which ends the ticker quietly with exit code 0.
func ignoreSIGPIPE() { signal(SIGPIPE, SIG_IGN) }
