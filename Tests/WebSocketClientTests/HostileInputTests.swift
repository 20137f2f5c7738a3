import Dispatch
import Synchronization
import Testing
import TickerSupport

@testable import Transport
@testable import WebSocketClient
@testable import WebSocketServer
@testable import WebSocketWire

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The engine and session against values a hostile server controls: `Retry-After`, the HTTP
/// version of the upgrade, a ping flood from a peer that reads nothing; and the resolver's
/// deadline, and user information in URLs.
@Suite struct HostileInputTests {
  // MARK: Retry-After

  /// 2026-11-30T00:00:00Z.
  static let now: Int64 = 1_796_000_000 - 1_796_000_000 % 86_400

  @Test(arguments: [
    ("120", 120), ("0", 0), (" 7 ", 7), ("9223372036854775807", Int.max),
    ("9223372036854775808", Int.max), ("100000000000000000000000000000", Int.max),
  ])
  func delaySeconds(value: String, expected: Int) {
    #expect(RetryAfter.seconds(from: value, now: Self.now) == expected)
  }

  @Test(arguments: ["", "-1", "+5", "1.5", "1e3", "0x10", "soon", "12 34", "٣", "Sun, 06 Nov 1994"])
  func invalidValuesAreIgnored(value: String) {
    #expect(RetryAfter.seconds(from: value, now: Self.now) == nil)
  }

  @Test(arguments: [
    // The three forms of RFC 9110 §5.6.7 for the same instant, 90 s after `now`.
    "Mon, 30 Nov 2026 00:01:30 GMT", "Monday, 30-Nov-26 00:01:30 GMT", "Mon Nov 30 00:01:30 2026",
  ])
  func httpDatesInTheFuture(value: String) {
    #expect(RetryAfter.seconds(from: value, now: Self.now) == 90)
  }

  @Test func httpDatesInThePastMeanNow() {
    #expect(RetryAfter.seconds(from: "Sun, 06 Nov 1994 08:49:37 GMT", now: Self.now) == 0)
    #expect(RetryAfter.seconds(from: "Sun Nov  6 08:49:37 1994", now: Self.now) == 0)
  }

  @Test(arguments: [
    "Sun, 32 Nov 2026 08:49:37 GMT", "Sun, 06 Nox 2026 08:49:37 GMT", "Sun, 06 Nov 2026 24:00:00 GMT",
    "Sun, 06 Nov 2026 08:60:00 GMT", "Sun, 06 Nov 2026 08:49:37 UTC", "Sun, 6 Nov 2026 08:49:37 GMT",
    "Sun, 06 Nov 20266 08:49:37 GMT", "Sunday, 06-Nov-1994 08:49:37 GMT", "Sun Nov 6 08:49 1994",
  ])
  func malformedDatesAreIgnored(value: String) {
    #expect(RetryAfter.seconds(from: value, now: Self.now) == nil)
  }

  @Test func knownEpochSeconds() {
    #expect(HTTPDate.epochSeconds("Sun, 06 Nov 1994 08:49:37 GMT", currentYear: 2026) == 784_111_777)
    // RFC 850's two-digit years: at most 50 years ahead, else the century before.
    #expect(HTTPDate.epochSeconds("Sunday, 06-Nov-94 08:49:37 GMT", currentYear: 2026) == 784_111_777)
    // 2070 is 44 years ahead of 2026: kept. 2077 would be 51: it means 1977.
    #expect(HTTPDate.epochSeconds("Wednesday, 01-Jan-70 00:00:00 GMT", currentYear: 2026) == 3_155_760_000)
    #expect(HTTPDate.epochSeconds("Saturday, 01-Jan-77 00:00:00 GMT", currentYear: 2026) == 220_924_800)
  }

  @Test func aResponseCarriesTheParsedDelay() {
    let bytes = ServerHandshake.response(
      status: 429, reason: "Too Many Requests", headers: [("Retry-After", "Mon, 30 Nov 2026 00:10:00 GMT")])
    #expect(throws: HandshakeError.unexpectedStatus(code: 429, reason: "Too Many Requests", retryAfter: 600))
    {
      _ = try Handshake.parseResponse(bytes, key: "dGhlIHNhbXBsZSBub25jZQ==", now: Self.now)
    }
  }

  @Test func backoffCapsRetryAfterAtTheCeiling() {
    let backoff = Backoff()
    #expect(backoff.minimumDelay(for: .rateLimited(retryAfterSeconds: Int.max)) == .seconds(600))
    #expect(backoff.minimumDelay(for: .rateLimited(retryAfterSeconds: 601)) == .seconds(600))
    #expect(backoff.minimumDelay(for: .rateLimited(retryAfterSeconds: 30)) == .seconds(30))
    #expect(backoff.minimumDelay(for: .rateLimited(retryAfterSeconds: nil)) == .seconds(60))
    #expect(
      Backoff(retryAfterCeiling: .seconds(5)).minimumDelay(for: .rateLimited(retryAfterSeconds: 99))
        == .seconds(5))
  }

  @Test(.timeLimit(.minutes(1))) func aSessionToldToWaitForeverWaitsTheCeiling() async {
    let limited = WebSocketError.handshake(
      .unexpectedStatus(code: 429, reason: "Too Many Requests", retryAfter: Int.max))
    let h = SessionHarness([.fail(limited), .succeed(FakeConnection())]).start()
    #expect(await h.next() == .disconnected(reason: .failed(limited), attempt: 1, retryIn: .seconds(600)))
    await h.clock.advanceWhenArmed(by: .seconds(600))
    #expect(await h.next() == .connected(attempt: 1))
    await h.session.stop()
  }

  // MARK: The HTTP version of the upgrade

  static let key = "dGhlIHNhbXBsZSBub25jZQ=="

  static func upgrade(_ statusLine: String) -> [UInt8] {
    ServerHandshake.upgradeResponse(forKey: key, statusLine: statusLine)
  }

  @Test func onlyHTTP11OrLaterCanSwitchProtocols() throws {
    #expect(throws: HandshakeError.malformedResponse("HTTP/1.0 cannot switch protocols")) {
      _ = try Handshake.parseResponse(Self.upgrade("HTTP/1.0 101 Switching Protocols"), key: Self.key)
    }
    #expect(throws: HandshakeError.malformedResponse("bad status line")) {
      _ = try Handshake.parseResponse(Self.upgrade("HTTP/1.10 101 Switching Protocols"), key: Self.key)
    }
    #expect(throws: HandshakeError.malformedResponse("bad status line")) {
      _ = try Handshake.parseResponse(Self.upgrade("HTTP/1.1 1O1 Switching Protocols"), key: Self.key)
    }
    let accepted = try #require(
      try Handshake.parseResponse(Self.upgrade("HTTP/1.1 101 Switching Protocols"), key: Self.key))
    #expect(accepted.response.version == 1)
  }

  // MARK: Ping flood

  @Test(.timeLimit(.minutes(1))) func aPingFloodFromAPeerThatReadsNothingFailsTheConnection() async throws {
    let (client, server) = SocketPairStream.makePair()
    let peer = runPeer(server) { peer -> Int in
      try peer.acceptUpgrade()
      let ping = FrameEncoder.encodeServerFrame(
        Frame(opcode: .ping, payload: Array(repeating: 0x70, count: 125)))
      let burst = Array([[UInt8]](repeating: ping, count: 256).joined())
      var sent = 0
      // Never read: our pongs pile up in the socket until the client's writer gives up.
      while (try? peer.write(burst)) != nil { sent += 256 }
      return sent
    }
    let connection = try await makeEngine(client).connect(
      to: testURL, options: ConnectOptions(writeTimeout: 0.3))
    let (messages, error) = await collect(connection)
    #expect(messages.isEmpty)
    guard case .transport(.timeout(let what))? = error as? WebSocketError else {
      Issue.record("expected a write timeout, got \(String(describing: error))")
      return
    }
    #expect(what == "the peer took none of our bytes for 0.3 s (it stopped reading)")
    #expect(try await peer.value > 256)
  }

  // MARK: Name resolution

  @Test(.timeLimit(.minutes(1))) func aLookupThatNeverReturnsTimesOut() {
    let release = DispatchSemaphore(value: 0)
    defer { release.signal() }
    let stuck = Resolver { _, _ in
      release.wait()
      return .failure(.resolve(host: "stuck.example", message: "released"))
    }
    #expect(
      throws: TransportError.timeout("resolving stuck.example (no answer from the name servers in time)")
    ) {
      _ = try TCPStream.connect(host: "stuck.example", port: 9, timeout: 0.2, resolver: stuck)
    }
  }

  @Test func lookupFailuresAndAnswersPassThrough() throws {
    let failing = Resolver { host, _ in .failure(.resolve(host: host, message: "no such host")) }
    #expect(throws: TransportError.resolve(host: "nowhere.example", message: "no such host")) {
      _ = try TCPStream.connect(host: "nowhere.example", port: 9, timeout: 5, resolver: failing)
    }
    let answers = try Resolver.system.resolve("127.0.0.1", port: 80, deadline: Deadline(seconds: 5))
    #expect(answers.count >= 1 && answers.allSatisfy { $0.family == AF_INET })
  }

  @Test("address literals are answered at once, without a name server (even past the deadline)")
  func literalsNeedNoLookup() throws {
    let expired = Deadline(seconds: 0)
    let v4 = try Resolver.system.resolve("127.0.0.1", port: 80, deadline: expired)
    #expect(v4.map(\.family) == [AF_INET])
    let v6 = try Resolver.system.resolve("::1", port: 80, deadline: expired)
    #expect(v6.map(\.family) == [AF_INET6])
    // A name still goes to the threaded lookup, which an expired deadline cuts short: this one
    // answers only once the resolve has given up.
    let answer = DispatchSemaphore(value: 0)
    let slow = Resolver(lookup: { _, _ in
      answer.wait()
      return .success([])
    })
    #expect(throws: TransportError.self) {
      _ = try slow.resolve("127.0.0.1", port: 80, deadline: expired)
    }
    answer.signal()
  }

  // MARK: User information

  @Test(arguments: [
    ("ws://user:pass@host/x", "ws://***@host/x"),
    ("connecting to wss://a:b@c:443/?token=*** now", "connecting to wss://***@c:443/?token=*** now"),
    ("ws://host/path@not-userinfo", "ws://host/path@not-userinfo"),
    ("two: ws://a:1@h1/ and wss://b:2@h2", "two: ws://***@h1/ and wss://***@h2"),
    ("no url @ all", "no url @ all"),
    ("ws://p@ss:w@rd@host:1", "ws://***@host:1"),
  ])
  func userInformationIsRedacted(text: String, expected: String) {
    #expect(Redaction.redactUserInfo(text) == expected)
    #expect(Redaction.redact(text, secrets: []) == expected)
  }

  @Test func aURLWithUserInformationIsRefused() {
    #expect(throws: InvalidWebSocketURL.self) { try WebSocketURL(parsing: "ws://user:pass@host/") }
  }
}
