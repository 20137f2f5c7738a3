@testable import TestSupport
#if DEBUG
  import Synchronization
  import Testing
  import Venues
  import WebSocketClient

  @testable import FeedRuntime
  @testable import TickerSupport

  /// `FastPath` takes its locks in the order its documentation states, and debug builds check
  /// that order on every acquisition.
  @Suite("Fast path", .timeLimit(.minutes(1)))
  struct FastPathTests {
    struct Path {
      let clock = ManualClock()
      let storage: FeedShellStorage<ManualClock>
      let bus = QuoteBus()
      let outbox = MessageChannel<Outgoing>(capacity: 64, lockRank: .feedOutbox)
      let fastPath: FastPath<ManualClock>

      init() {
        var machine = FeedMachine<ManualClock.Instant>(
          provider: TestVenue(), symbols: ["A"], mode: .everyTrade)
        _ = machine.opened(at: clock.now)
        storage = FeedShellStorage(machine: machine, clock: clock)
        fastPath = FastPath(
          storage: storage, bus: bus, outbox: outbox, clock: clock, wallClock: { 0 }, relays: true)
      }

      func relay(_ texts: String...) -> MessageChannel<SessionEvent>.Relayed {
        fastPath.relay(texts.map { .message(.text($0)) })
      }
    }

    /// Waits (yielding) until the output's consumer is parked, so that its direct delivery runs.
    static func parked(_ subscription: QuoteBus.Subscription) async {
      while subscription.queue.withWaitingConsumer({ true }) == nil { await Task.yield() }
    }

    @Test("a relayed batch reaches the output under the session's events and the output's queue, in order")
    func inOrder() async throws {
      let path = Path()
      let held = Mutex<[[LockRank]]>([])
      let output = path.bus.subscribe { quotes in
        held.withLock { $0.append(LockOrderChecker.held) }
        return .delivered
      }
      let consumer = Task { try await output.queue.nextBatch() }
      await Self.parked(output)
      let events = RankedMutex(0, rank: .sessionEvents)
      let found = LockOrderChecker.violations {
        events.withLock { _ in #expect(path.relay("q A 1 1") == .taken) }
      }
      #expect(found.isEmpty)
      #expect(held.withLock { $0 } == [[.sessionEvents, .outputQueue]])
      path.bus.finish()
      #expect(try await consumer.value == nil)
    }

    @Test("relaying while holding a lock the path takes later is caught, naming both locks")
    func outOfOrderIsCaught() {
      let path = Path()
      let writer = RankedMutex(0, rank: .quoteWriter)
      let found = LockOrderChecker.violations {
        writer.withLock { _ in _ = path.relay("q A 1 1") }
      }
      #expect(found.first == .outOfOrder(acquiring: .feedShell, holding: .quoteWriter))
    }
  }
#endif
