import Dispatch
import Foundation
import Synchronization
import Testing

@testable import TickerSupport

/// `ThreadExecutor`: tasks that prefer it run on its thread, so tasks blocked there leave the
/// cooperative pool alone.
@Suite("Thread executor")
struct ThreadExecutorTests {
  @Test("a task that prefers it runs on its thread, and comes back to it after awaiting elsewhere")
  func runsOnItsThread() async {
    let executor = ThreadExecutor()
    defer { executor.stop() }
    let seen = await Task(executorPreference: executor) { () -> [Bool] in
      let before = executor.isCurrentThread
      await Task.detached { await Task.yield() }.value
      return [before, executor.isCurrentThread]
    }.value
    #expect(seen == [true, true])
    #expect(!executor.isCurrentThread)
  }

  @Test("more blocked tasks than the pool has threads: other tasks still run")
  func blockedTasksLeaveThePoolAlone() async {
    // Each blocked task holds its executor's thread. On the cooperative pool (as many threads as
    // cores) this many would hold every thread, and no other task could run until they were
    // released.
    let count = ProcessInfo.processInfo.activeProcessorCount * 2 + 1
    let release = DispatchSemaphore(value: 0)
    // Only bounds a failure (the pool starved), which would otherwise hang for good; when the
    // tasks below run, as they should, at once, it never fires.
    let watchdogFired = Mutex(false)
    let watchdog = DispatchWorkItem {
      watchdogFired.withLock { $0 = true }
      for _ in 0..<count { release.signal() }
    }
    DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: watchdog)
    let executors = (0..<count).map { _ in ThreadExecutor() }
    let started = DispatchSemaphore(value: 0)
    let blocked = executors.map { executor in
      Task(executorPreference: executor) {
        started.signal()
        release.wait()
      }
    }
    for _ in 0..<count { await Task.detached { started.wait() }.value }
    let ran = await Task.detached { 42 }.value
    watchdog.cancel()
    let fired = watchdogFired.withLock { $0 }
    #expect(ran == 42)
    #expect(!fired, "other tasks ran only after the watchdog released the blocked ones")
    if !fired { for _ in 0..<count { release.signal() } }
    for task in blocked { await task.value }
    for executor in executors { executor.stop() }
  }

  @Test("a job that comes after stop() still runs")
  func afterStop() async {
    let executor = ThreadExecutor()
    executor.stop()
    let value = await Task(executorPreference: executor) { 7 }.value
    #expect(value == 7)
  }
}
