#if DEBUG
  import Synchronization
  import Testing

  @testable import TickerSupport

  /// Debug builds check the order in which ranked locks are taken (`LockOrderChecker`); here the
  /// violations are recorded instead of trapping.
  @Suite struct LockOrderCheckerTests {
    @Test("a lock taken while one of a later rank is held is caught, naming both")
    func wrongOrderIsCaught() {
      let outer = RankedMutex(0, rank: .quoteWriter)
      let inner = RankedMutex(0, rank: .sessionEvents)
      let found = LockOrderChecker.violations {
        outer.withLock { _ in inner.withLock { _ in } }
      }
      #expect(found == [.outOfOrder(acquiring: .sessionEvents, holding: .quoteWriter)])
      #expect(
        found.first?.description
          == "lock order violated: acquiring session events (rank 2) while holding quote writer (rank 7)")
    }

    @Test("the fast path's order passes; a lock of the same rank nested is caught")
    func rightOrderPasses() {
      let events = RankedMutex(0, rank: .sessionEvents)
      let shell = RankedMutex(0, rank: .feedShell)
      let queue = RankedMutex(0, rank: .outputQueue)
      let otherQueue = RankedMutex(0, rank: .outputQueue)
      var held: [LockRank] = []
      let inOrder = LockOrderChecker.violations {
        events.withLock { _ in
          shell.withLock { _ in }
          queue.withLock { _ in held = LockOrderChecker.held }
        }
      }
      #expect(inOrder.isEmpty)
      #expect(held == [.sessionEvents, .outputQueue])
      #expect(LockOrderChecker.held.isEmpty)
      let nested = LockOrderChecker.violations {
        queue.withLock { _ in otherQueue.withLock { _ in } }
      }
      #expect(nested == [.outOfOrder(acquiring: .outputQueue, holding: .outputQueue)])
    }

    @Test("a channel's lock takes part: a relay that takes an earlier-ranked lock is caught")
    func channelsAreRanked() async throws {
      let channel = MessageChannel<Int>(capacity: 8, lockRank: .outputQueue)
      let consumer = Task { try await channel.nextBatch() }
      while channel.withWaitingConsumer({ true }) == nil { await Task.yield() }
      let shell = RankedMutex(0, rank: .feedShell)
      let found = LockOrderChecker.violations {
        _ = channel.withWaitingConsumer { shell.withLock { _ in 1 } }
      }
      #expect(found == [.outOfOrder(acquiring: .feedShell, holding: .outputQueue)])
      channel.finish()
      #expect(try await consumer.value == nil)
    }

    @Test("what must be used under a lock is caught outside it")
    func requireHeld() {
      let sources = RankedMutex(0, rank: .dispatchSources)
      let inside = LockOrderChecker.violations {
        sources.withLock { _ in LockOrderChecker.requireHeld(.dispatchSources, by: "test") }
      }
      #expect(inside.isEmpty)
      let outside = LockOrderChecker.violations { LockOrderChecker.requireHeld(.dispatchSources, by: "test") }
      #expect(outside == [.notHeld(.dispatchSources, by: "test")])
    }
  }
#endif
