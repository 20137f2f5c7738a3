import Synchronization
import Testing
import Venues
import WebSocketClient

@testable import FeedRuntime
@testable import TestSupport
@testable import TickerSupport
@testable import WebSocketWire

/// The feed's shell runs its session, sender, timer and stopping task as one task group.
@Suite("Feed shell", .timeLimit(.minutes(1)), .ownThread)
struct FeedShellTests {
  @Test("cancelling the task that runs the feed ends it and all it started: no timer fires later")
  func cancellingTheRunEndsEverything() async throws {
    let clock = ManualClock()
    let engine = ScriptedEngine()
    let reports = MessageChannel<FeedReport>(capacity: 64)
    let feed = Feed(
      Feed.Settings(
        provider: TestVenue(), engine: engine, url: TestVenue().defaultURL,
        session: SessionConfiguration(pingInterval: nil, silenceTimeout: nil), mode: .default,
        symbols: ["A"]),
      clock: clock
    ) { reports.forcePush($0) }
    let output = feed.bus.subscribe()
    let printed = Task.preferringCurrentExecutor {
      var quotes: [Quote] = []
      while let batches = try? await output.queue.nextBatch() { quotes += batches.joined() }
      return quotes
    }
    let run = Task.preferringCurrentExecutor { await feed.run() }
    #expect(try await reports.nextBatch() == [.connected(attempt: 0, symbols: ["A"])])
    // A trade is held back by the debounce: the shell's timer is armed for it.
    engine.connection.deliver("q A 1.5 1")
    await clock.waitForSleeper(until: ManualClock.Instant(.milliseconds(500)))

    run.cancel()
    #expect(await run.value == .stopped(.signal(2)))
    // The outputs ended, without the pending trade; the connection was closed going away.
    #expect(await printed.value == [])
    #expect(try await engine.connection.closes.nextBatch() == [CloseStatus(code: .goingAway)])
    // The timer went with the run: its deadline passes and nothing comes of it.
    #expect(clock.pendingDeadlines.isEmpty)
    clock.advance(by: .seconds(1))
    reports.finish()
    #expect(try await reports.nextBatch() == nil)
    #expect(engine.connection.sent == [.text("sub A #1")])
  }

  @Test("a connection's subscription reply answers once; dropped unanswered, it says not connected")
  func openedReply() async {
    let answered: WebSocketError? = await withCheckedContinuation { continuation in
      let reply = OpenedReply(continuation)
      reply.resume(.abnormalClosure)
      reply.resume(nil)
    }
    #expect(answered == .abnormalClosure)
    let dropped: WebSocketError? = await withCheckedContinuation { _ = OpenedReply($0) }
    #expect(dropped == .notConnected)
  }
}
