import Synchronization

/// One timer that any thread may arm, re-arm or disarm, whose waiting is done by one task that
/// its owner runs in its own task group (`run(fire:)`): cancelling that group's task ends the
/// timer with it, and nothing fires after `run` returned. Arming again cuts the wait in flight
/// short, whether the new deadline is earlier or later.
public final class DeadlineTimer<C: Clock>: Sendable {
  private struct Armed: Sendable {
    var token: Int
    var deadline: C.Instant
    var generation: Int
  }

  private struct State {
    var armed: Armed?
    var generation = 0
    /// The generation whose deadline the sleeper saw pass.
    var elapsed: Int?
    var finished = false
    /// `run`'s task, parked until something changes.
    var waiter: CheckedContinuation<Void, Never>?

    mutating func wake() -> CheckedContinuation<Void, Never>? {
      defer { waiter = nil }
      return waiter
    }
  }

  private let state = Mutex(State())
  private let clock: C

  public init(clock: C) { self.clock = clock }

  /// Fires `token` at `deadline`, instead of whatever was armed.
  public func arm(at deadline: C.Instant, token: Int) {
    state.withLock { state in
      state.generation += 1
      state.armed = Armed(token: token, deadline: deadline, generation: state.generation)
      return state.wake()
    }?.resume()
  }

  /// Nothing fires until the next `arm`.
  public func disarm() {
    state.withLock { state in
      state.armed = nil
      return state.wake()
    }?.resume()
  }

  /// `run` returns, and later arms do nothing.
  public func finish() {
    state.withLock { state in
      state.finished = true
      state.armed = nil
      return state.wake()
    }?.resume()
  }

  /// Waits for each armed deadline and calls `fire` with its token (at most once per `arm`), until
  /// `finish()` or until the calling task is cancelled.
  public func run(fire: (Int) -> Void) async {
    while let armed = await nextArmed() {
      let passed = await withTaskGroup(of: Void.self, returning: Bool.self) { sleeper in
        sleeper.addTask { [clock] in
          do { try await clock.sleep(until: armed.deadline, tolerance: nil) } catch { return }
          self.elapse(armed.generation)
        }
        await park { $0.armed?.generation != armed.generation || $0.elapsed == armed.generation }
        sleeper.cancelAll()
        return state.withLock { state in
          guard state.elapsed == armed.generation, state.armed?.generation == armed.generation else {
            return false
          }
          state.armed = nil
          return true
        }
      }
      if passed { fire(armed.token) }
    }
  }

  private func nextArmed() async -> Armed? {
    while true {
      await park { $0.armed != nil }
      let next: Armed?? = state.withLock { state in
        if state.finished || Task.isCancelled { return .some(nil) }
        return state.armed.map { .some($0) }
      }
      if let next { return next }
    }
  }

  private func elapse(_ generation: Int) {
    state.withLock { state in
      state.elapsed = generation
      return state.wake()
    }?.resume()
  }

  /// Returns once `ready` holds, the timer is finished, or the task is cancelled.
  private func park(until ready: (State) -> Bool) async {
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let now = state.withLock { state in
          if state.finished || Task.isCancelled || ready(state) { return true }
          state.waiter = continuation
          return false
        }
        if now { continuation.resume() }
      }
    } onCancel: {
      state.withLock { $0.wake() }?.resume()
    }
  }
}
