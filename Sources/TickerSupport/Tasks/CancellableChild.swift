import Synchronization

/// Lets the owner of a task group cancel one of its children on its own (a group cancels only all
/// of them at once): the child runs its work through `run(_:)`, and `cancel()` cancels that work,
/// from any thread, before or while it runs.
public final class CancellableChild: Sendable {
  private struct State {
    var ended = false
    var waiter: CheckedContinuation<Void, Never>?
  }

  private let state = Mutex(State())

  public init() {}

  /// Cancels the work (at once if it has not started; `run` returns once it has ended).
  public func cancel() {
    state.withLock { state in
      state.ended = true
      defer { state.waiter = nil }
      return state.waiter
    }?.resume()
  }

  /// Runs `work` until it returns, `cancel()` is called, or the calling task is cancelled.
  public func run(_ work: @escaping @Sendable () async -> Void) async {
    await withDiscardingTaskGroup { group in
      group.addTask {
        await work()
        self.cancel()
      }
      await withTaskCancellationHandler {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
          let now = state.withLock { state in
            if state.ended || Task.isCancelled { return true }
            state.waiter = continuation
            return false
          }
          if now { continuation.resume() }
        }
      } onCancel: {
        cancel()
      }
      group.cancelAll()
    }
  }
}
