import Testing
import WebSocketClient

@testable import TestSupport
@testable import WebSocketWire

@Suite("Session reconnects", .timeLimit(.minutes(1)))
struct SessionReconnectTests {
  static let refused = WebSocketError.transport(.connect(host: "ws.example", port: 443, errno: 111))

  @Test(arguments: [
    (UInt64(0), [Duration.milliseconds(500), .seconds(1), .seconds(2)]),
    (UInt64(1 << 52), [Duration.milliseconds(375), .milliseconds(750), .milliseconds(1500)]),
  ])
  func delaysGrowWithFixedJitter(random: UInt64, delays: [Duration]) async {
    let connection = FakeConnection(end: .peerClose(CloseStatus(code: .normalClosure)))
    let h = SessionHarness(
      [.fail(Self.refused), .fail(Self.refused), .fail(Self.refused), .succeed(connection)], random: random
    ).start()
    for (index, delay) in delays.enumerated() {
      #expect(
        await h.next() == .disconnected(reason: .failed(Self.refused), attempt: index + 1, retryIn: delay))
      #expect(h.engine.attemptCount == index + 1)
      await h.clock.advanceWhenArmed(by: delay)
    }
    #expect(await h.next() == .connected(attempt: 3))
    #expect(await h.rest() == [.ended(.peerClosedNormally(CloseStatus(code: .normalClosure)))])
    #expect(h.engine.attemptCount == 4)
  }

  @Test func resubscribesAfterEveryReconnectAndKeepsMessageOrder() async {
    let first = FakeConnection(messages: [.text("a"), .text("b")], end: .error(.abnormalClosure))
    let second = FakeConnection(messages: [.text("c")], end: .error(.transport(.connectionClosed)))
    let third = FakeConnection(
      messages: [.binary([1]), .text("d")], end: .peerClose(CloseStatus(code: .normalClosure, reason: "bye")))
    let h = SessionHarness([.succeed(first), .succeed(second), .succeed(third)]).start()
    #expect(await h.next() == .connected(attempt: 0))
    #expect(await h.next() == .message(.text("a")))
    #expect(await h.next() == .message(.text("b")))
    #expect(
      await h.next()
        == .disconnected(reason: .failed(.abnormalClosure), attempt: 1, retryIn: .milliseconds(500)))
    await h.clock.advanceWhenArmed(by: .milliseconds(500))
    #expect(await h.next() == .connected(attempt: 1))
    #expect(await h.next() == .message(.text("c")))
    let lost = SessionEvent.disconnected(
      reason: .failed(.transport(.connectionClosed)), attempt: 2, retryIn: .seconds(1))
    #expect(await h.next() == lost)
    await h.clock.advanceWhenArmed(by: .seconds(1))
    #expect(
      await h.rest() == [
        .connected(attempt: 2), .message(.binary([1])), .message(.text("d")),
        .ended(.peerClosedNormally(CloseStatus(code: .normalClosure, reason: "bye"))),
      ])
    #expect(h.connected == [first.id, second.id, third.id])
    for connection in [first, second, third] {
      #expect(connection.actions.first == .send(SessionHarness.subscribe))
    }
  }

  @Test("a reconnect while the consumer is behind lets the old connection go at once")
  func reconnectWhileHeldBackReleasesTheOldConnection() async throws {
    // Its close never completes, so only the session's reader can release its messages.
    let first = FakeConnection(closeHangs: true)
    let second = FakeConnection()
    let h = SessionHarness([.succeed(first), .succeed(second)]).start()
    #expect(await h.next() == .connected(attempt: 0))
    let sent = (0..<600).map { WebSocketMessage.text("m\($0)") }
    for message in sent { first.deliver(message) }
    // The session's events fill up (512) and its reader waits for room, reading no further.
    let events = h.session.events
    while events.waitingProducerCount != 1 && !Task.isCancelled { await Task.yield() }
    #expect(events.waitingProducerCount == 1, "the reader never waited for room")
    h.session.reconnect(reason: "test")
    // Nobody reads the events meanwhile: the reader must still leave, and release the first
    // connection's messages (a real connection's reader thread may be blocked on them). Their
    // release wakes this wait (the 20 s are a hang guard).
    let messages = first.messages
    let released = await offPool { messages.waitUntilConsumed(timeout: 20) }
    #expect(
      released && !first.messages.forcePush(.text("late")), "the old connection's messages are still taken")
    #expect(events.waitingProducerCount == 0)
    // What came through is the messages in order, then the disconnection, then the new connection.
    var received: [WebSocketMessage] = []
    var next = await h.next()
    while case .message(let message) = next {
      received.append(message)
      next = await h.next()
    }
    #expect(received == Array(sent.prefix(received.count)))
    #expect(received.count >= 500)
    guard case .disconnected(.requested("test"), attempt: 1, let delay) = next else {
      Issue.record("expected the requested disconnection, got \(String(describing: next))")
      return
    }
    await h.clock.advanceWhenArmed(by: delay)
    #expect(await h.next() == .connected(attempt: 1))
    first.end(.error(.abnormalClosure))
    await h.session.stop()
    #expect(await h.rest() == [.ended(.stopped)])
  }

  @Test(arguments: [
    (CloseCode.goingAway, "restart"), (.noStatusReceived, ""), (.internalServerError, ""),
    (.serviceRestart, ""), (.tryAgainLater, "later"),
  ])
  func peerClosesOtherThanNormalReconnect(code: CloseCode, reason: String) async {
    let status = CloseStatus(code: code, reason: reason)
    let h = SessionHarness(
      [.succeed(FakeConnection(end: .peerClose(status)))],
      configuration: .init(
        maxRetries: 0, pingInterval: nil, silenceTimeout: nil)
    ).start()
    #expect(await h.rest() == [.connected(attempt: 0), .ended(.retriesExhausted(last: .peerClosed(status)))])
  }

  @Test func aMessageOverTheLimitClosesAndReconnects() async {
    let tooBig = WebSocketError.protocolViolation(.messageTooLarge(17_000_000))
    let h = SessionHarness([
      .succeed(FakeConnection(end: .error(tooBig))),
      .succeed(FakeConnection(messages: [.text("x")], end: .peerClose(CloseStatus(code: .normalClosure)))),
    ]).start()
    #expect(await h.next() == .connected(attempt: 0))
    #expect(await h.next() == .disconnected(reason: .failed(tooBig), attempt: 1, retryIn: .milliseconds(500)))
    await h.clock.advanceWhenArmed(by: .milliseconds(500))
    #expect(await h.next() == .connected(attempt: 1))
    #expect(await h.next() == .message(.text("x")))
  }

  @Test func rateLimitedWaitsForRetryAfter() async {
    let limited = WebSocketError.handshake(
      .unexpectedStatus(code: 429, reason: "Too Many Requests", retryAfter: 17))
    let h = SessionHarness([.fail(limited), .succeed(FakeConnection())]).start()
    #expect(await h.next() == .disconnected(reason: .failed(limited), attempt: 1, retryIn: .seconds(17)))
    await h.clock.advanceWhenArmed(by: .seconds(17))
    #expect(await h.next() == .connected(attempt: 1))
    await h.session.stop()
  }

  @Test func rateLimitedWithoutRetryAfterWaitsAMinute() async {
    let limited = WebSocketError.handshake(
      .unexpectedStatus(code: 429, reason: "Too Many Requests", retryAfter: nil))
    let h = SessionHarness([.fail(limited), .fail(limited), .succeed(FakeConnection())]).start()
    #expect(await h.next() == .disconnected(reason: .failed(limited), attempt: 1, retryIn: .seconds(60)))
    await h.clock.advanceWhenArmed(by: .seconds(60))
    #expect(await h.next() == .disconnected(reason: .failed(limited), attempt: 2, retryIn: .seconds(60)))
    await h.clock.advanceWhenArmed(by: .seconds(60))
    #expect(await h.next() == .connected(attempt: 2))
    await h.session.stop()
  }

  static let fatal: [WebSocketError] = [
    .handshake(.unexpectedStatus(code: 401, reason: "Unauthorized", retryAfter: nil)),
    .handshake(.unexpectedStatus(code: 403, reason: "Forbidden", retryAfter: nil)),
    .handshake(.unexpectedStatus(code: 404, reason: "Not Found", retryAfter: nil)),
    .transport(.certificateVerification(code: 10, message: "certificate has expired")),
    .transport(.tls("cannot load CA certificates from /missing.pem")),
    .invalidURL(InvalidWebSocketURL("bad")),
    .unsupported("no WebSockets"),
  ]

  @Test(arguments: fatal)
  func fatalErrorsEndAfterExactlyOneAttempt(error: WebSocketError) async {
    let h = SessionHarness([.fail(error), .succeed(FakeConnection())]).start()
    #expect(await h.rest() == [.ended(.fatal(error))])
    #expect(h.engine.attemptCount == 1)
    #expect(h.clock.pendingDeadlines.isEmpty)
  }

  @Test func maxRetriesZeroNeverReconnects() async {
    let config = SessionConfiguration(maxRetries: 0, pingInterval: nil, silenceTimeout: nil)
    let h = SessionHarness([.fail(Self.refused), .succeed(FakeConnection())], configuration: config).start()
    #expect(await h.rest() == [.ended(.retriesExhausted(last: .failed(Self.refused)))])
    #expect(h.engine.attemptCount == 1)
  }

  @Test(arguments: [1, 3])
  func maxRetriesBoundsTheAttempts(maxRetries: Int) async {
    let config = SessionConfiguration(maxRetries: maxRetries, pingInterval: nil, silenceTimeout: nil)
    let script = Array(repeating: FakeEngine.Attempt.fail(Self.refused), count: maxRetries + 1)
    let h = SessionHarness(script + [.succeed(FakeConnection())], configuration: config).start()
    for retry in 1...maxRetries {
      guard case .disconnected(_, let attempt, let delay) = await h.next() else {
        Issue.record("expected a disconnect")
        return
      }
      #expect(attempt == retry)
      await h.clock.advanceWhenArmed(by: delay)
    }
    #expect(await h.rest() == [.ended(.retriesExhausted(last: .failed(Self.refused)))])
    #expect(h.engine.attemptCount == maxRetries + 1)
  }

  @Test func backoffResetsAfterAHealthyPeriod() async {
    let short = FakeConnection()
    let healthy = FakeConnection()
    let h = SessionHarness([
      .fail(Self.refused), .succeed(short), .succeed(healthy), .succeed(FakeConnection()),
    ])
    .start()
    #expect(
      await h.next() == .disconnected(reason: .failed(Self.refused), attempt: 1, retryIn: .milliseconds(500)))
    await h.clock.advanceWhenArmed(by: .milliseconds(500))
    #expect(await h.next() == .connected(attempt: 1))
    h.clock.advance(by: .seconds(29))  // not long enough
    short.end(.error(.abnormalClosure))
    #expect(
      await h.next() == .disconnected(reason: .failed(.abnormalClosure), attempt: 2, retryIn: .seconds(1)))
    await h.clock.advanceWhenArmed(by: .seconds(1))
    #expect(await h.next() == .connected(attempt: 2))
    h.clock.advance(by: .seconds(30))
    healthy.end(.error(.abnormalClosure))
    #expect(
      await h.next()
        == .disconnected(reason: .failed(.abnormalClosure), attempt: 1, retryIn: .milliseconds(500)))
    await h.clock.advanceWhenArmed(by: .milliseconds(500))
    #expect(await h.next() == .connected(attempt: 1))
    await h.session.stop()
  }

  @Test func aFailingOnConnectCountsAsAFailedConnection() async {
    // The connection is already gone: the subscribe send fails with .notConnected.
    let gone = FakeConnection(sendError: .notConnected)
    let h = SessionHarness([.succeed(gone), .succeed(FakeConnection())]).start()
    #expect(
      await h.next() == .disconnected(reason: .failed(.notConnected), attempt: 1, retryIn: .milliseconds(500))
    )
    await h.clock.advanceWhenArmed(by: .milliseconds(500))
    #expect(await h.next() == .connected(attempt: 1))
    #expect(h.connected.count == 2)
    await h.session.stop()
  }

  @Test(
    "data and close 1000 that arrived with the 101, before the subscription: delivered, then a normal end")
  func dataAndCloseBeforeTheSubscription() async {
    // The server's trade and close frame came in the handshake's segment: the connection has
    // already ended when the subscription is sent, so the send fails with .notConnected.
    let early = FakeConnection(
      messages: [.text("trade")], end: .peerClose(CloseStatus(code: .normalClosure, reason: "bye")),
      sendError: .notConnected)
    let h = SessionHarness([.succeed(early)]).start()
    #expect(
      await h.rest() == [
        .message(.text("trade")),
        .ended(.peerClosedNormally(CloseStatus(code: .normalClosure, reason: "bye"))),
      ])
    #expect(h.engine.attemptCount == 1)
  }

  @Test("data and then a violation before the subscription: the data is delivered, the violation decides")
  func dataAndViolationBeforeTheSubscription() async {
    let early = FakeConnection(
      messages: [.text("trade")], end: .error(.protocolViolation(.invalidUTF8)), sendError: .notConnected)
    let h = SessionHarness([.succeed(early), .succeed(FakeConnection())]).start()
    #expect(await h.next() == .message(.text("trade")))
    #expect(
      await h.next()
        == .disconnected(
          reason: .failed(.protocolViolation(.invalidUTF8)), attempt: 1, retryIn: .milliseconds(500)))
    await h.session.stop()
  }
}
