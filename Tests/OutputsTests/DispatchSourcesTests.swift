#if DEBUG
  import Dispatch
  import Testing

  @testable import Outputs
  @testable import TickerSupport

  /// The invariant that lets `DispatchSources` be `@unchecked Sendable`: it is used only under its
  /// owner's lock. Debug builds check it.
  @Suite struct DispatchSourcesTests {
    @Test("kept and cancelled under the owner's lock; used without it, caught")
    func usedOnlyUnderTheLock() {
      let owner = RankedMutex(DispatchSources(), rank: .dispatchSources)
      let timer = DispatchSource.makeTimerSource()
      timer.resume()
      let inside = LockOrderChecker.violations {
        owner.withLock { $0.keep([timer]) }
        owner.withLock { $0.cancelAll() }
      }
      #expect(inside.isEmpty)
      #expect(timer.isCancelled)
      var loose = DispatchSources()
      let outside = LockOrderChecker.violations { loose.cancelAll() }
      #expect(outside == [.notHeld(.dispatchSources, by: "DispatchSources.cancelAll")])
    }
  }
#endif
