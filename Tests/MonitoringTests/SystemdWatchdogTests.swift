import Synchronization
import Testing

@testable import Monitoring
@testable import TestSupport

/// The watchdog's pace from the environment, the pure pacer driven by explicit instants, and its
/// loop on a manual clock: pings at half the timeout while the run is alive, none while it is not.
@Suite("systemd watchdog", .timeLimit(.minutes(1)))
struct SystemdWatchdogTests {
  // MARK: The setting

  @Test("WATCHDOG_USEC: a ping every half of it")
  func halfTheTimeout() {
    let interval = WatchdogSetting.interval(environment: ["WATCHDOG_USEC": "30000000"], pid: 42)
    #expect(interval == .success(.seconds(15)))
  }

  @Test("WATCHDOG_PID names this process, another, or none")
  func ownerPID() {
    let asked = ["WATCHDOG_USEC": "2000000", "WATCHDOG_PID": "42"]
    #expect(WatchdogSetting.interval(environment: asked, pid: 42) == .success(.seconds(1)))
    #expect(WatchdogSetting.interval(environment: asked, pid: 43) == nil)
    #expect(
      WatchdogSetting.interval(environment: ["WATCHDOG_USEC": "2000000", "WATCHDOG_PID": ""], pid: 43) != nil)
  }

  @Test("no WATCHDOG_USEC (or an empty one): no watchdog")
  func unset() {
    #expect(WatchdogSetting.interval(environment: [:], pid: 42) == nil)
    #expect(WatchdogSetting.interval(environment: ["WATCHDOG_USEC": ""], pid: 42) == nil)
    #expect(WatchdogSetting.interval(environment: ["WATCHDOG_PID": "42"], pid: 42) == nil)
  }

  @Test(
    "values that are not numbers of microseconds are refused",
    arguments: ["0", "-5", "1.5", " 10", "1e6", "99999999999999999999999"])
  func invalidTimeout(text: String) {
    #expect(
      WatchdogSetting.interval(environment: ["WATCHDOG_USEC": text], pid: 1)
        == .failure(.invalidTimeout(text)))
  }

  @Test("a WATCHDOG_PID that is not a process id is refused")
  func invalidPID() {
    let environment = ["WATCHDOG_USEC": "1000000", "WATCHDOG_PID": "self"]
    #expect(WatchdogSetting.interval(environment: environment, pid: 1) == .failure(.invalidPID("self")))
  }

  @Test("a timeout of a few microseconds is paced at the minimum interval, not a busy loop")
  func minimum() {
    #expect(
      WatchdogSetting.interval(environment: ["WATCHDOG_USEC": "3"], pid: 1) == .success(.milliseconds(1)))
  }

  // MARK: The pacer

  @Test("alive: a ping every interval, none before it is due, isAlive asked only when due")
  func pacesPings() {
    var pacer = WatchdogPacer(interval: .seconds(5), start: TestInstant.zero)
    var asked = 0
    let alive = {
      asked += 1
      return true
    }
    #expect(!pings(&pacer, at: .at(4.9), alive))
    #expect(asked == 0)
    #expect(pings(&pacer, at: .at(5), alive))
    #expect(pacer.nextTick == .at(10))
    #expect(!pings(&pacer, at: .at(9.999), alive))
    // A late tick pings once, and the next is due an interval after it.
    #expect(pings(&pacer, at: .at(12), alive))
    #expect(pacer.lastPing == .at(12))
    #expect(pacer.nextTick == .at(17))
    #expect(asked == 2)
  }

  @Test("not alive: no ping, asked again every quarter interval; pings again as soon as it recovers")
  func hungThenRecovered() {
    var pacer = WatchdogPacer(interval: .seconds(4), start: TestInstant.zero)
    #expect(pings(&pacer, at: .at(4)) { true })
    #expect(!pings(&pacer, at: .at(8)) { false })
    #expect(pacer.nextTick == .at(9))
    for second in [9.0, 10, 11, 12, 13] {
      #expect(!pings(&pacer, at: .at(second)) { false })
    }
    #expect(pacer.lastPing == .at(4))
    #expect(pings(&pacer, at: .at(14)) { true })
    #expect(pacer.nextTick == .at(18))
  }

  /// The pacer's answer at `instant` (outside `#expect`, which cannot hold a mutation).
  private func pings(
    _ pacer: inout WatchdogPacer<TestInstant>, at instant: TestInstant, _ isAlive: () -> Bool
  ) -> Bool {
    pacer.tick(at: instant, isAlive: isAlive)
  }

  // MARK: The loop

  @Test("the loop on a manual clock: pings while alive, none while not, ends when cancelled")
  func loop() async {
    let clock = ManualClock()
    let alive = Atomic(true)
    let pings = Atomic(0)
    let loop = Task {
      await WatchdogLoop.run(
        WatchdogPacer(interval: .seconds(2), start: clock.now), clock: clock,
        isAlive: { alive.load(ordering: .relaxed) }, ping: { pings.add(1, ordering: .relaxed) })
    }
    for expected in 1...3 {
      await clock.advanceWhenArmed(by: .seconds(2))
      await clock.waitForSleeper(until: clock.now.advanced(by: .seconds(2)))
      #expect(pings.load(ordering: .relaxed) == expected)
    }
    alive.store(false, ordering: .relaxed)
    await clock.advanceWhenArmed(by: .seconds(2))
    for _ in 0..<8 {
      await clock.advanceWhenArmed(by: .milliseconds(500))
    }
    // The last tick has been answered once the next recheck is armed.
    await clock.waitForSleeper(until: clock.now.advanced(by: .milliseconds(500)))
    #expect(pings.load(ordering: .relaxed) == 3)
    alive.store(true, ordering: .relaxed)
    await clock.advanceWhenArmed(by: .milliseconds(500))
    await clock.waitForSleeper(until: clock.now.advanced(by: .seconds(2)))
    #expect(pings.load(ordering: .relaxed) == 4)
    loop.cancel()
    await loop.value
  }
}
