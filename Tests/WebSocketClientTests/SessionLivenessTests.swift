import Testing
import WebSocketClient

@Suite("Session liveness", .timeLimit(.minutes(1)))
struct SessionLivenessTests {
  static let pingsOnly = SessionConfiguration(
    pingInterval: .seconds(30), pongTimeout: .seconds(10), silenceTimeout: nil)
  static let silenceOnly = SessionConfiguration(pingInterval: nil, silenceTimeout: .seconds(150))

  @Test func defaults() {
    let config = SessionConfiguration()
    #expect(config.pingInterval == .seconds(30))
    #expect(config.pongTimeout == .seconds(10))
    #expect(config.silenceTimeout == .seconds(150))
    #expect(config.maxRetries == nil)
    #expect(config.backoff == Backoff())
  }

  @Test func aMissedPongAbandonsTheConnectionAndReconnects() async {
    let halfOpen = FakeConnection(answersPings: false)
    let next = FakeConnection()
    let h = SessionHarness([.succeed(halfOpen), .succeed(next)], configuration: Self.pingsOnly).start()
    #expect(await h.next() == .connected(attempt: 0))
    await h.clock.advanceWhenArmed(by: .seconds(30))
    await h.clock.advanceWhenArmed(by: .seconds(10))
    #expect(
      await h.next()
        == .disconnected(reason: .pongTimeout(.seconds(10)), attempt: 1, retryIn: .milliseconds(500)))
    await halfOpen.waitUntilEnded()
    #expect(halfOpen.pingCount == 1)
    #expect(halfOpen.closes == [CloseStatus(code: .goingAway)])
    await h.clock.advanceWhenArmed(by: .milliseconds(500))
    #expect(await h.next() == .connected(attempt: 1))
    #expect(h.connected == [halfOpen.id, next.id])
    await h.session.stop()
  }

  @Test func answeredPingsKeepTheConnection() async {
    let connection = FakeConnection()
    let h = SessionHarness([.succeed(connection)], configuration: Self.pingsOnly).start()
    #expect(await h.next() == .connected(attempt: 0))
    await h.clock.advanceWhenArmed(by: .seconds(30))
    // The pong was handled once the next ping (at 60 s) is scheduled.
    await h.clock.advanceWhenArmed(by: .seconds(30))
    await h.clock.waitForSleeper(until: ManualClock.Instant(.seconds(90)))
    #expect(connection.pingCount == 2)
    connection.deliver(.text("still here"))
    #expect(await h.next() == .message(.text("still here")))
    await h.session.stop()
    #expect(await h.rest() == [.ended(.stopped)])
    #expect(h.engine.attemptCount == 1)
  }

  @Test func silenceAbandonsTheConnectionAndReconnects() async {
    let quiet = FakeConnection()
    let h = SessionHarness([.succeed(quiet), .succeed(FakeConnection())], configuration: Self.silenceOnly)
      .start()
    #expect(await h.next() == .connected(attempt: 0))
    h.clock.advance(by: .seconds(100))
    quiet.deliver(.text(#"{"type":"ping"}"#))  // Finnhub's keepalive is a message and counts
    #expect(await h.next() == .message(.text(#"{"type":"ping"}"#)))
    // At 150 s the watch finds the message of 100 s and looks again at 250 s.
    await h.clock.advanceWhenArmed(by: .seconds(50))
    await h.clock.waitForSleeper(until: ManualClock.Instant(.seconds(250)))
    #expect(quiet.closes.isEmpty)
    h.clock.advance(to: ManualClock.Instant(.seconds(250)))
    #expect(
      await h.next()
        == .disconnected(reason: .silence(.seconds(150)), attempt: 1, retryIn: .milliseconds(500)))
    await quiet.waitUntilEnded()
    #expect(quiet.closes == [CloseStatus(code: .goingAway)])
    await h.clock.advanceWhenArmed(by: .milliseconds(500))
    #expect(await h.next() == .connected(attempt: 1))
    await h.session.stop()
  }

  @Test func deadConnectionsKeepCountingRetries() async {
    // Connections that never prove alive do not reset the backoff.
    let config = SessionConfiguration(pingInterval: nil, silenceTimeout: .seconds(40))
    let h = SessionHarness([.succeed(FakeConnection()), .succeed(FakeConnection())], configuration: config)
      .start()
    #expect(await h.next() == .connected(attempt: 0))
    await h.clock.advanceWhenArmed(by: .seconds(40))
    #expect(
      await h.next() == .disconnected(reason: .silence(.seconds(40)), attempt: 1, retryIn: .milliseconds(500))
    )
    await h.clock.advanceWhenArmed(by: .milliseconds(500))
    #expect(await h.next() == .connected(attempt: 1))
    await h.clock.advanceWhenArmed(by: .seconds(40))
    #expect(await h.next() == .disconnected(reason: .silence(.seconds(40)), attempt: 2, retryIn: .seconds(1)))
    await h.session.stop()
  }
}
