import Dispatch
import Synchronization

/// The lifetime of one accepted connection, shared by the threads that serve it: whether the
/// server has begun to end it (`stop()`: a close it sent, a drop) and whether it has ended
/// (`finish()`), and waits that either cuts short. Both states, once reached, stay.
public final class ConnectionLifetime: Sendable {
  /// Signalled (and kept signalled) once the connection is stopping or has ended.
  private let interrupted = DispatchSemaphore(value: 0)
  /// Signalled (and kept signalled) once the connection has ended.
  private let ended = DispatchSemaphore(value: 0)
  private let state = Mutex((stopping: false, finished: false))

  public init() {}

  public var isFinished: Bool { state.withLock { $0.finished } }
  /// Whether the server has started to end the connection (or it has ended).
  public var isStopping: Bool { state.withLock { $0.stopping || $0.finished } }

  /// The server is ending the connection: every wait for an interruption returns.
  public func stop() {
    let first = state.withLock { state -> Bool in
      defer { state.stopping = true }
      return !state.stopping && !state.finished
    }
    if first { interrupted.signal() }
  }

  /// The connection has ended: every wait returns.
  public func finish() {
    let first = state.withLock { state -> Bool in
      defer { state.finished = true }
      return !state.finished
    }
    guard first else { return }
    ended.signal()
    interrupted.signal()
  }

  /// Waits at most `seconds` (nil: for ever) until the connection is stopping or has ended;
  /// true when it is.
  @discardableResult
  public func waitForInterruption(seconds: Double?) -> Bool { wait(interrupted, seconds: seconds) }

  /// Waits at most `seconds` (nil: for ever) until the connection has ended; true when it has.
  @discardableResult
  public func waitForEnd(seconds: Double?) -> Bool { wait(ended, seconds: seconds) }

  /// True when `semaphore` was signalled, which it then stays for everyone else.
  private func wait(_ semaphore: DispatchSemaphore, seconds: Double?) -> Bool {
    if let seconds {
      guard semaphore.wait(timeout: .now() + seconds) == .success else { return false }
    } else {
      semaphore.wait()
    }
    semaphore.signal()
    return true
  }
}
