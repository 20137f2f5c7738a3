import Testing
import WebSocketClient

@testable import TestSupport
@testable import Transport
@testable import WebSocketWire

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

  @Test("a consumer still working on a large message holds the connection back: not silence, not a lost pong")
  func aConsumerThatIsBehindIsNotADeadConnection() async {
    let connection = FakeConnection(answersPings: false)
    let config = SessionConfiguration(
      pingInterval: .seconds(30), pongTimeout: .seconds(10), silenceTimeout: .seconds(40))
    let h = SessionHarness([.succeed(connection), .succeed(FakeConnection())], configuration: config).start()
    #expect(await h.next() == .connected(attempt: 0))
    let large = WebSocketMessage.binary(Array(repeating: 7, count: 300 << 10))
    connection.deliver(large)
    #expect(await h.next() == .message(large))
    // The consumer now works on 300 KiB, more than the session's bound: the session takes
    // nothing more from the connection until it comes back for more.
    connection.deliver(.text("next"))
    while h.session.events.waitingProducerCount == 0 { await Task.yield() }
    // A ping goes out at 30 s; its pong cannot be read while the connection is held back, and no
    // message has come for 80 s, twice the silence bound: neither counts against the peer.
    await h.clock.advanceWhenArmed(by: .seconds(30))
    for _ in 0..<5 { await h.clock.advanceWhenArmed(by: .seconds(10)) }
    await h.clock.waitForSleeper(until: ManualClock.Instant(.seconds(90)))
    #expect(connection.closes.isEmpty)
    #expect(h.engine.attemptCount == 1)
    #expect(await h.next() == .message(.text("next")))
    // Once the forwarding task is back at the connection, the watches run as ever: the ping sent
    // at 30 s still has no pong at 90 s.
    #expect(await offPool { connection.messages.waitUntilConsumed(timeout: 60) })
    await h.clock.advanceWhenArmed(by: .seconds(10))
    #expect(
      await h.next()
        == .disconnected(reason: .pongTimeout(.seconds(10)), attempt: 1, retryIn: .milliseconds(500)))
    await h.session.stop()
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
