import Dispatch
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Turns SIGINT and SIGTERM into a call on a queue instead of the default instant death, so the
/// ticker can unsubscribe and close cleanly. A second signal of the same kind exits at once,
/// after `beforeImmediateExit` (the board gives the terminal back there).
///
/// Two signals that arrive before the queue runs the handler are one event (Dispatch coalesces
/// them; `data` counts them): that is a second signal too. The immediate exit is `_exit`, not
/// `exit`: it happens on the signal queue's thread, possibly while the main thread is already
/// in `exit` (a graceful stop finishing at the same moment), and two concurrent `exit` calls
/// are undefined behaviour (atexit handlers and stdio locks); everything the ticker writes goes
/// out with write(2) as it is produced, so nothing buffered is lost.
final class SignalWatcher: Sendable {
  private let sources: Mutex<[any DispatchSourceSignal]>

  init(
    beforeImmediateExit: @escaping @Sendable () -> Void = {}, handler: @escaping @Sendable (Int32) -> Void
  ) {
    let queue = DispatchQueue(label: "ticker.signals")
    var sources: [any DispatchSourceSignal] = []
    for sig in [SIGINT, SIGTERM] {
      signal(sig, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: sig, queue: queue)
      let seen = SeenOnce()
      source.setEventHandler { [source] in
        let first = seen.markSeen()
        if first && source.data < 2 {
          handler(sig)
        } else {
          beforeImmediateExit()
          _exit(128 + sig)
        }
      }
      source.resume()
      sources.append(source)
    }
    self.sources = Mutex(sources)
  }

  func cancel() { sources.withLock { $0.forEach { $0.cancel() } } }
}

/// True the first time only.
private final class SeenOnce: Sendable {
  private let seen = Atomic(false)
  func markSeen() -> Bool { !seen.exchange(true, ordering: .acquiringAndReleasing) }
}

/// SIGPIPE would kill the process silently mid-write; with it ignored, a closed stdout shows up
/// as EPIPE, which ends the ticker quietly with exit code 0.
func ignoreSIGPIPE() { signal(SIGPIPE, SIG_IGN) }
