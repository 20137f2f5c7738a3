import Dispatch
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A task executor with a thread of its own (SE-0417): a task that prefers it
/// (`Task(executorPreference:)`) runs there rather than on Swift's cooperative pool, which has
/// only as many threads as cores. For a task that blocks in system calls: stdout's writer, stuck
/// in `write` while a pager is paused, a pipe is full or a terminal is stopped with Ctrl-S, then
/// holds up only its own thread, never one of the two or so every other task needs.
///
/// `stop()` lets the thread end once the jobs queued before it have run. A job that comes after
/// (a task still holding the preference) gets a thread of its own, so nothing is ever dropped.
public final class ThreadExecutor: TaskExecutor, Sendable {
  private enum Item {
    case job(UnownedJob)
    case stop
  }

  private struct State: ~Copyable {
    var items: [Item] = []
    var stopped = false
    /// The thread, once it runs.
    var thread: pthread_t?
  }

  private let state = Mutex(State())
  private let ready = DispatchSemaphore(value: 0)

  public init(stackBytes: Int = DedicatedThread.defaultStackBytes) {
    DedicatedThread.start(stackBytes: stackBytes) { [self] in run() }
  }

  public func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let queued = state.withLock { state -> Bool in
      guard !state.stopped else { return false }
      state.items.append(.job(job))
      return true
    }
    if queued {
      ready.signal()
    } else {
      DedicatedThread.start { [self] in job.runSynchronously(on: asUnownedTaskExecutor()) }
    }
  }

  /// The thread ends after the jobs already queued. Later calls do nothing.
  public func stop() {
    let first = state.withLock { state -> Bool in
      guard !state.stopped else { return false }
      state.stopped = true
      state.items.append(.stop)
      return true
    }
    if first { ready.signal() }
  }

  /// Whether the calling thread is this executor's.
  public var isCurrentThread: Bool {
    guard let thread = state.withLock({ $0.thread }) else { return false }
    return pthread_equal(thread, pthread_self()) != 0
  }

  private func run() {
    state.withLock { $0.thread = pthread_self() }
    while true {
      ready.wait()
      let item = state.withLock { $0.items.removeFirst() }
      switch item {
      case .job(let job): job.runSynchronously(on: asUnownedTaskExecutor())
      case .stop: return
      }
    }
  }
}
