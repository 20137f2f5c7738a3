import Synchronization
import Testing

@testable import TestSupport
@testable import TickerSupport

/// `DeadlineTimer`: one waiting task, in its owner's task group, that re-arming cuts short; and
/// `CancellableChild`, one child of a group cancelled on its own.
@Suite("Deadline timer", .timeLimit(.minutes(1)))
struct DeadlineTimerTests {
  final class Fired: Sendable {
    let tokens = MessageChannel<Int>(capacity: 64)
  }

  static func at(_ seconds: Int) -> ManualClock.Instant { ManualClock.Instant(.seconds(seconds)) }

  @Test("fires each arming once at its deadline; arming again replaces what was armed, earlier or later")
  func firesAndReArms() async throws {
    let clock = ManualClock()
    let timer = DeadlineTimer(clock: clock)
    let fired = Fired()
    let run = Task { await timer.run { fired.tokens.forcePush($0) } }
    timer.arm(at: Self.at(10), token: 1)
    await clock.waitForSleeper(until: Self.at(10))
    timer.arm(at: Self.at(5), token: 2)
    await clock.waitForSleeper(until: Self.at(5))
    clock.advance(to: Self.at(5))
    #expect(try await fired.tokens.nextBatch() == [2])
    // Token 1 was replaced: passing its deadline fires nothing (token 3 is the next to come).
    clock.advance(to: Self.at(10))
    timer.arm(at: Self.at(30), token: 3)
    await clock.waitForSleeper(until: Self.at(30))
    timer.arm(at: Self.at(40), token: 4)
    await clock.waitForSleeper(until: Self.at(40))
    clock.advance(to: Self.at(40))
    #expect(try await fired.tokens.nextBatch() == [4])
    timer.finish()
    await run.value
    #expect(clock.pendingDeadlines.isEmpty)
  }

  @Test("disarmed, nothing fires; finished, run returns and later arms do nothing")
  func disarmAndFinish() async throws {
    let clock = ManualClock()
    let timer = DeadlineTimer(clock: clock)
    let fired = Fired()
    let run = Task { await timer.run { fired.tokens.forcePush($0) } }
    timer.arm(at: Self.at(1), token: 1)
    await clock.waitForSleeper(until: Self.at(1))
    timer.disarm()
    clock.advance(to: Self.at(1))
    timer.arm(at: Self.at(2), token: 2)
    await clock.waitForSleeper(until: Self.at(2))
    clock.advance(to: Self.at(2))
    // Token 1 would have come first.
    #expect(try await fired.tokens.nextBatch() == [2])
    timer.finish()
    await run.value
    timer.arm(at: Self.at(3), token: 3)
    #expect(clock.pendingDeadlines.isEmpty)
  }

  @Test("cancelling the task that runs it ends it, with its sleep")
  func cancelled() async {
    let clock = ManualClock()
    let timer = DeadlineTimer(clock: clock)
    let run = Task { await timer.run { _ in Issue.record("fired after cancellation") } }
    timer.arm(at: Self.at(1), token: 1)
    await clock.waitForSleeper(until: Self.at(1))
    run.cancel()
    await run.value
    #expect(clock.pendingDeadlines.isEmpty)
    clock.advance(to: Self.at(2))
  }

  @Test("a cancellable child: its work ends it, or cancel() does, before or while it runs")
  func cancellableChild() async {
    let finished = CancellableChild()
    await finished.run {}
    // The work waits for time that never comes: only cancellation ends it.
    let clock = ManualClock()
    let cancelledEarly = CancellableChild()
    cancelledEarly.cancel()
    await cancelledEarly.run { try? await clock.sleep(until: Self.at(1), tolerance: nil) }
    let sleeping = CancellableChild()
    await withDiscardingTaskGroup { group in
      group.addTask { await sleeping.run { try? await clock.sleep(until: Self.at(1), tolerance: nil) } }
      await clock.waitForSleeper(until: Self.at(1))
      sleeping.cancel()
    }
    #expect(clock.pendingDeadlines.isEmpty)
  }
}
