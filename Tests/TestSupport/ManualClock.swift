import Synchronization
import Testing

/// A clock that only moves when the test says so. `sleep(until:)` suspends until `advance` passes
/// the deadline (or the sleeping task is cancelled); `waitForSleeper` lets a test wait until the
/// code under test has armed a timer, so nothing depends on real time.
package final class ManualClock: Clock, Sendable {
  package struct Instant: InstantProtocol, CustomStringConvertible {
    package var offset: Duration
    package init(_ offset: Duration) { self.offset = offset }
    package func advanced(by duration: Duration) -> Instant { Instant(offset + duration) }
    package func duration(to other: Instant) -> Duration { other.offset - offset }
    package static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
    package var description: String { "t+\(offset)" }
  }

  private struct Sleeper {
    var id: Int
    var deadline: Instant
    var continuation: CheckedContinuation<Void, any Error>
  }

  private struct Watcher {
    var id: Int
    var deadline: Instant
    var continuation: CheckedContinuation<Void, Never>
  }

  private struct State {
    var now = Instant(.zero)
    var nextID = 0
    var sleepers: [Sleeper] = []
    var watchers: [Watcher] = []
  }

  private let state = Mutex(State())

  package var now: Instant { state.withLock { $0.now } }
  package var minimumResolution: Duration { .zero }

  /// Deadlines of the tasks sleeping now, earliest first.
  package var pendingDeadlines: [Instant] { state.withLock { $0.sleepers.map(\.deadline).sorted() } }

  package func sleep(until deadline: Instant, tolerance: Duration?) async throws {
    let id = state.withLock { s in
      s.nextID += 1
      return s.nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        enum Action { case wait, resume, cancel }
        let (action, woken): (Action, [Watcher]) = state.withLock { s in
          if Task.isCancelled { return (.cancel, []) }
          if deadline <= s.now { return (.resume, []) }
          s.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
          let woken = s.watchers.filter { $0.deadline == deadline }
          s.watchers.removeAll { $0.deadline == deadline }
          return (.wait, woken)
        }
        switch action {
        case .wait: for watcher in woken { watcher.continuation.resume() }
        case .resume: continuation.resume()
        case .cancel: continuation.resume(throwing: CancellationError())
        }
      }
    } onCancel: {
      let sleeper = state.withLock { s -> Sleeper? in
        guard let index = s.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
        return s.sleepers.remove(at: index)
      }
      sleeper?.continuation.resume(throwing: CancellationError())
    }
  }

  /// Moves time forward and wakes every sleeper whose deadline has come, earliest first.
  package func advance(by duration: Duration) {
    advance(to: now.advanced(by: duration))
  }

  package func advance(to instant: Instant) {
    let due: [Sleeper] = state.withLock { s in
      s.now = max(s.now, instant)
      let due = s.sleepers.filter { $0.deadline <= s.now }.sorted { $0.deadline < $1.deadline }
      s.sleepers.removeAll { $0.deadline <= s.now }
      return due
    }
    for sleeper in due { sleeper.continuation.resume() }
  }

  /// Returns once some task sleeps until exactly `deadline`. If the test is cancelled first (its
  /// time limit), records an issue naming the deadlines that are armed instead.
  package func waitForSleeper(until deadline: Instant, sourceLocation: SourceLocation = #_sourceLocation)
    async
  {
    let id = state.withLock { s in
      s.nextID += 1
      return s.nextID
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let resumeNow = state.withLock { s in
          if Task.isCancelled || s.sleepers.contains(where: { $0.deadline == deadline }) { return true }
          s.watchers.append(Watcher(id: id, deadline: deadline, continuation: continuation))
          return false
        }
        if resumeNow { continuation.resume() }
      }
    } onCancel: {
      let watcher = state.withLock { s -> Watcher? in
        guard let index = s.watchers.firstIndex(where: { $0.id == id }) else { return nil }
        return s.watchers.remove(at: index)
      }
      watcher?.continuation.resume()
    }
    if Task.isCancelled && !pendingDeadlines.contains(deadline) {
      Issue.record(
        "no timer armed for \(deadline); armed: \(pendingDeadlines)", sourceLocation: sourceLocation)
    }
  }

  /// Waits for a sleeper at `now + duration`, then advances to it.
  package func advanceWhenArmed(by duration: Duration, sourceLocation: SourceLocation = #_sourceLocation)
    async
  {
    let deadline = now.advanced(by: duration)
    await waitForSleeper(until: deadline, sourceLocation: sourceLocation)
    advance(to: deadline)
  }
}
