import Synchronization
import WebSocketServer

/// The lifetime of one `FeedServer` connection: the shared `ConnectionLifetime` (stopping,
/// finished, the waits either cuts short), plus what the emulation adds — when the connection
/// started (the clock of its emulator), the scripted pauses at the time scale, and the
/// half-open and stop-reading simulations.
final class ConnectionLife: Sendable {
  /// The instant the connection was accepted; emulators count time from here.
  let start = ContinuousClock.now
  private let timeScale: Double
  private let maximumDelay: Double?
  private let lifetime = ConnectionLifetime()
  private let simulation = Mutex((unresponsive: false, stopReading: false))

  init(timeScale: Double, maximumDelay: Double?) {
    self.timeScale = timeScale
    self.maximumDelay = maximumDelay
  }

  /// Time since the connection was accepted.
  var now: Duration { ContinuousClock.now - start }

  var isFinished: Bool { lifetime.isFinished }
  /// Whether the server has started to end the connection (or it has ended).
  var isStopping: Bool { lifetime.isStopping }

  /// Half-open simulation: client frames are read but nothing is answered.
  var isUnresponsive: Bool {
    get { simulation.withLock { $0.unresponsive } }
    set { simulation.withLock { $0.unresponsive = newValue } }
  }

  /// The client's bytes are no longer read at all (they pile up in the kernel's buffers).
  var stopsReading: Bool {
    get { simulation.withLock { $0.stopReading } }
    set { simulation.withLock { $0.stopReading = newValue } }
  }

  /// The server is ending the connection: every pause and hold returns.
  func stop() { lifetime.stop() }

  /// The connection has ended: every wait returns.
  func finish() { lifetime.finish() }

  /// Waits a script step's delay (`milliseconds` times the time scale, capped); false when the
  /// connection is stopping or has ended meanwhile.
  func pause(milliseconds: Int) -> Bool {
    var seconds = Double(milliseconds) / 1000 * timeScale
    if let cap = maximumDelay { seconds = min(seconds, cap) }
    if seconds <= 0 { return !isStopping }
    return !lifetime.waitForInterruption(seconds: seconds)
  }

  /// Waits until the connection is stopping or has ended.
  func waitForInterruption() { lifetime.waitForInterruption(seconds: nil) }

  /// Waits until the connection has ended, at most `seconds`.
  func waitForEnd(seconds: Double?) { lifetime.waitForEnd(seconds: seconds) }
}
