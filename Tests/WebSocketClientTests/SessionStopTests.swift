import Testing
import WebSocketClient

@testable import TestSupport
@testable import WebSocketWire

@Suite("Session stop", .timeLimit(.minutes(1)))
struct SessionStopTests {
  @Test func stopDuringBackoffEndsAtOnce() async {
    let limited = WebSocketError.handshake(
      .unexpectedStatus(code: 429, reason: "Too Many Requests", retryAfter: nil))
    let h = SessionHarness([.fail(limited), .succeed(FakeConnection())]).start()
    #expect(await h.next() == .disconnected(reason: .failed(limited), attempt: 1, retryIn: .seconds(60)))
    await h.clock.waitForSleeper(until: ManualClock.Instant(.seconds(60)))
    await h.session.stop()
    #expect(await h.rest() == [.ended(.stopped)])
    #expect(h.engine.attemptCount == 1)
    #expect(h.clock.now == ManualClock.Instant(.zero))
    #expect(h.clock.pendingDeadlines.isEmpty)
  }

  @Test func stopSendsTheMessagesThenCloses() async {
    let connection = FakeConnection()
    let h = SessionHarness([.succeed(connection)]).start()
    #expect(await h.next() == .connected(attempt: 0))
    let goodbye = CloseStatus(code: .normalClosure, reason: "bye")
    await h.session.stop(
      beforeClose: [.text("unsub 1"), .text("unsub 2")], status: goodbye, timeout: .seconds(1))
    #expect(await h.rest() == [.ended(.stopped)])
    #expect(
      connection.actions == [
        .send(SessionHarness.subscribe), .send(.text("unsub 1")), .send(.text("unsub 2")), .close(goodbye),
      ])
  }

  @Test func stopWaitsAtMostTheTimeoutForThePeer() async {
    let deaf = FakeConnection(closeHangs: true)
    let h = SessionHarness([.succeed(deaf)]).start()
    #expect(await h.next() == .connected(attempt: 0))
    let session = h.session
    let stopping = Task { await session.stop(timeout: .seconds(2)) }
    let deadline = ManualClock.Instant(.seconds(2))
    await h.clock.waitForSleeper(until: deadline)
    // While the close is pending, messages are still delivered in order.
    deaf.deliver(.text("late"))
    #expect(await h.next() == .message(.text("late")))
    h.clock.advance(to: deadline)
    await stopping.value
    #expect(await h.rest() == [.ended(.stopped)])
    #expect(deaf.closes == [CloseStatus(code: .normalClosure)])
    deaf.end(.error(.transport(.cancelled)))  // release the hanging close
  }

  @Test("cancelling the task that runs the session ends it at once: its connection goes, with its timer")
  func cancellingTheRunEndsTheSession() async {
    let connection = FakeConnection()
    let h = SessionHarness(
      [.succeed(connection)],
      configuration: SessionConfiguration(pingInterval: .seconds(30), silenceTimeout: nil))
    let session = h.session
    let run = Task { await session.run() }
    #expect(await h.next() == .connected(attempt: 0))
    await h.clock.waitForSleeper(until: ManualClock.Instant(.seconds(30)))
    run.cancel()
    await run.value
    #expect(await h.rest() == [.ended(.stopped)])
    #expect(h.clock.pendingDeadlines.isEmpty)
    await connection.waitUntilEnded()
    #expect(connection.closes == [CloseStatus(code: .goingAway)])
  }

  @Test func stopBeforeStartEndsWithoutConnecting() async {
    let h = SessionHarness([.succeed(FakeConnection())])
    await h.session.stop()
    #expect(await h.rest() == [.ended(.stopped)])
    h.session.start()
    #expect(h.engine.attemptCount == 0)
  }

  @Test func stopTwiceAndAfterTheEndReturns() async {
    let h = SessionHarness([.succeed(FakeConnection(end: .peerClose(CloseStatus(code: .normalClosure))))])
      .start()
    #expect(
      await h.rest() == [
        .connected(attempt: 0), .ended(.peerClosedNormally(CloseStatus(code: .normalClosure))),
      ])
    await h.session.stop()
    await h.session.stop()
  }
}
