import Dispatch
import Synchronization
import Testing

@testable import TickerSupport

@Suite("dedicated threads")
struct DedicatedThreadTests {
  /// Four hundred bodies that all block at once all run: more than Dispatch's worker pool holds
  /// (about 255 on Linux), which is why servers and connections do not block on it.
  @Test("hundreds of blocked bodies all run at once, none waits for another to end")
  func manyBlockedBodiesRun() {
    let count = 400
    let started = Atomic(0)
    let allStarted = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let ended = DispatchSemaphore(value: 0)
    for _ in 0..<count {
      DedicatedThread.start {
        if started.add(1, ordering: .relaxed).newValue == count { allStarted.signal() }
        release.wait()
        ended.signal()
      }
    }
    // Generous: only a pool that makes bodies wait for others to end could miss it.
    let result = allStarted.wait(timeout: .now() + 60)
    #expect(result == .success, "\(started.load(ordering: .relaxed)) of \(count) started")
    for _ in 0..<count { release.signal() }
    for _ in 0..<count { _ = ended.wait(timeout: .now() + 60) }
  }
}
