import Dispatch
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Turns SIGINT and SIGTERM into a call on a queue instead of the default instant death, so the
/// ticker can unsubscribe and close cleanly. A second signal of the same kind exits at once,
/// after `beforeImmediateExit` (the board gives the terminal back there). `ShutdownHooks` are
/// told of the first one before anything else happens.
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
      let source = SignalSources.make(sig, queue: queue)
      let seen = SeenOnce()
      source.setEventHandler { [source] in
        let first = seen.markSeen()
        if first { ShutdownHooks.run(sig) }
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

/// Signals observed for as long as the observer lives, each time they come — SIGHUP's reload —
/// without SignalWatcher's rule that a second one exits. Once observed, a signal no longer does
/// what it did by default (SIGHUP ended the process), even after `cancel()`.
final class SignalObserver: Sendable {
  private let sources: Mutex<[any DispatchSourceSignal]>

  init(_ signals: [Int32], label: String, handler: @escaping @Sendable (Int32) -> Void) {
    let queue = DispatchQueue(label: label)
    self.sources = Mutex(
      signals.map { sig in
        let source = SignalSources.make(sig, queue: queue)
        source.setEventHandler { handler(sig) }
        source.resume()
        return source
      })
  }

  func cancel() { sources.withLock { $0.forEach { $0.cancel() } } }
}

/// Told of the first SIGINT or SIGTERM a `SignalWatcher` takes, before it acts on it (the service
/// supervisor's `STOPPING=1`), for as long as the hook is registered. Process-wide as signals are;
/// a signal before any watcher exists still ends the process as it always did.
enum ShutdownHooks {
  private static let hooks = Mutex<[Int: @Sendable (Int32) -> Void]>([:])
  private static let nextID = Atomic(0)

  /// Registers `hook`; `remove(_:)` with the returned id ends it.
  static func add(_ hook: @escaping @Sendable (Int32) -> Void) -> Int {
    let id = nextID.add(1, ordering: .relaxed).newValue
    hooks.withLock { $0[id] = hook }
    return id
  }

  static func remove(_ id: Int) { _ = hooks.withLock { $0.removeValue(forKey: id) } }

  fileprivate static func run(_ sig: Int32) {
    for hook in hooks.withLock({ Array($0.values) }) { hook(sig) }
  }
}

/// Every signal source of the process is made here: the signal is ignored once, before its first
/// source. Set to `SIG_IGN` again after Dispatch has taken the signal over, it would be discarded
/// from then on — for every source of it.
private enum SignalSources {
  private static let taken = Mutex<Set<Int32>>([])

  static func make(_ sig: Int32, queue: DispatchQueue) -> any DispatchSourceSignal {
    taken.withLock { taken in
      if taken.insert(sig).inserted { signal(sig, SIG_IGN) }
    }
    return DispatchSource.makeSignalSource(signal: sig, queue: queue)
  }
}

/// True the first time only.
private final class SeenOnce: Sendable {
  private let seen = Atomic(false)
  func markSeen() -> Bool { !seen.exchange(true, ordering: .acquiringAndReleasing) }
}

/// SIGPIPE would kill the process silently mid-write; with it ignored, a closed stdout shows up
/// as EPIPE, which ends the ticker quietly with exit code 0.
func ignoreSIGPIPE() { signal(SIGPIPE, SIG_IGN) }
