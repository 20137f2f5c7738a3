import Synchronization

/// Orders what a plugin connection reports through C callbacks, whatever threads it comes from:
/// messages as they come; the end exactly once, after every message callback has returned, and
/// only once the connect was reported successful (`arm`). After a failed connect (`disarm`) the
/// end is never reported (the caller already had its error). Nothing follows the end, so the
/// caller may free its context there.
final class CallbackGate<End: Sendable>: Sendable {
  private struct State {
    var inFlight = 0
    /// nil until the connect outcome is known.
    var armed: Bool?
    var endRequested = false
    var pending: End?
  }

  private let state = Mutex(State())

  init() {}

  /// Whether a message may be reported now; pair a `true` with `endMessage()`.
  func beginMessage() -> Bool {
    state.withLock { state in
      if state.endRequested || state.armed == false { return false }
      state.inFlight += 1
      return true
    }
  }

  /// A message callback returned; the end to report now, if it was waiting for that.
  func endMessage() -> End? {
    state.withLock { state in
      state.inFlight -= 1
      return Self.takeIfReady(&state)
    }
  }

  /// The connection ended; the end to report now (nil: later, or never, or already asked).
  func end(_ value: End) -> End? {
    state.withLock { state in
      if state.endRequested { return nil }
      state.endRequested = true
      state.pending = value
      return Self.takeIfReady(&state)
    }
  }

  /// The connect succeeded and was reported; the end to report now if it came first.
  func arm() -> End? {
    state.withLock { state in
      state.armed = true
      return Self.takeIfReady(&state)
    }
  }

  /// The connect failed: nothing more is reported.
  func disarm() {
    state.withLock { state in
      state.armed = false
      state.pending = nil
    }
  }

  private static func takeIfReady(_ state: inout State) -> End? {
    guard state.armed == true, state.inFlight == 0, let pending = state.pending else { return nil }
    state.pending = nil
    return pending
  }
}
