import Dispatch
import Synchronization

/// The lifetime of one `FeedServer` connection, shared by the threads that serve it: when it
/// started (the clock of its emulator), whether the server has begun to end it (`stop()`: a
/// close it sent, a drop) and whether it has ended (`finish()`), and the waits that either
/// cuts short.
final class ConnectionLife: Sendable {
  /// The instant the connection was accepted; emulators count time from here.
  let start = ContinuousClock.now
  private let timeScale: Double
  private let maximumDelay: Double?
  /// Signalled (and kept signalled) once the connection is stopping or has ended.
  private let interrupted = DispatchSemaphore(value: 0)
  /// Signalled (and kept signalled) once the connection has ended.
  private let ended = DispatchSemaphore(value: 0)
  private let state = Mutex(State())

  private struct State: Sendable {
    var stopping = false
    var finished = false
    /// Half-open simulation: client frames are read but nothing is answered.
    var unresponsive = false
    /// The client's bytes are no longer read at all (they pile up in the kernel's buffers).
    var stopReading = false
  }

  init(timeScale: Double, maximumDelay: Double?) {
    self.timeScale = timeScale
    self.maximumDelay = maximumDelay
  }

  /// Time since the connection was accepted.
  var now: Duration { ContinuousClock.now - start }

  var isFinished: Bool { state.withLock { $0.finished } }
  /// Whether the server has started to end the connection (or it has ended).
  var isStopping: Bool { state.withLock { $0.stopping || $0.finished } }

  var isUnresponsive: Bool {
    get { state.withLock { $0.unresponsive } }
    set { state.withLock { $0.unresponsive = newValue } }
  }

  var stopsReading: Bool {
    get { state.withLock { $0.stopReading } }
    set { state.withLock { $0.stopReading = newValue } }
  }

  /// The server is ending the connection: every pause and hold returns.
  func stop() {
    let first = state.withLock { state -> Bool in
      defer { state.stopping = true }
      return !state.stopping && !state.finished
    }
    if first { interrupted.signal() }
  }

  /// The connection has ended: every wait returns.
  func finish() {
    let first = state.withLock { state -> Bool in
      defer { state.finished = true }
      return !state.finished
    }
    guard first else { return }
    ended.signal()
    interrupted.signal()
  }

  /// Waits a script step's delay (`milliseconds` times the time scale, capped); false when the
  /// connection is stopping or has ended meanwhile.
  func pause(milliseconds: Int) -> Bool {
    var seconds = Double(milliseconds) / 1000 * timeScale
    if let cap = maximumDelay { seconds = min(seconds, cap) }
    if seconds <= 0 { return !isStopping }
    return !wait(interrupted, seconds: seconds)
  }

  /// Waits until the connection is stopping or has ended.
  func waitForInterruption() { _ = wait(interrupted, seconds: nil) }

  /// Waits until the connection has ended, at most `seconds`.
  func waitForEnd(seconds: Double?) { _ = wait(ended, seconds: seconds) }

  /// Waits at most `seconds` (nil: for ever) for `semaphore`; true when it was signalled, which
  /// it then stays for everyone else.
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
