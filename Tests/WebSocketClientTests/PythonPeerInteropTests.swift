import TestSupport
import Testing

@testable import WebSocketClient
@testable import WebSocketWire

/// Whether `error` is the failure for a message over `maximumMessageSize`.
private func isMessageTooLarge(_ error: WebSocketError?) -> Bool {
  if case .protocolViolation(.messageTooLarge) = error { return true }
  return false
}

/// The native engine over real TCP on loopback against Python's `websockets` server
/// (`Tests/Support/ws_peer.py`), an implementation that shares no code with ours.
/// The time limit only bounds a hang.
@Suite(.requires(.pythonWebsockets, .openssl), .timeLimit(.minutes(1)), .ownThread)
struct PythonPeerInteropTests {
  let engine = NativeEngine()
  let normalClose = CloseStatus(code: .normalClosure, reason: "done")

  @Test func textAndBinaryMessagesEchoInOrder() async throws {
    let peer = try await PythonPeer.start("echo")
    defer { peer.stop() }
    let connection = try await engine.connect(to: peer.url(), options: ConnectOptions())
    let large = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
    let sent: [WebSocketMessage] = [
      .text("hello"), .binary([0, 1, 2, 0xFF]), .text(""), .binary(large), .text("ünïcødé ✓ €"),
      .binary([]), .text("last"),
    ]
    for message in sent { try await connection.send(message) }
    let received = try await connection.receive(sent.count)
    #expect(received.count == sent.count)
    #expect(received == sent)
    await connection.close(normalClose, timeout: 10)
    #expect(try await connection.remainingMessages().isEmpty)
  }

  /// Many small frames back to back: the peer's replies arrive coalesced in TCP segments.
  @Test func manyMessagesSentWithoutWaitingComeBackInOrder() async throws {
    let peer = try await PythonPeer.start("echo")
    defer { peer.stop() }
    let connection = try await engine.connect(to: peer.url(), options: ConnectOptions())
    let sent: [WebSocketMessage] = (0..<500).map {
      $0 % 2 == 0 ? .text("message \($0)") : .binary([UInt8($0 % 256)])
    }
    for message in sent { try await connection.send(message) }
    #expect(try await connection.receive(sent.count) == sent)
    await connection.close(normalClose, timeout: 10)
  }

  @Test func fragmentedMessageIsReassembled() async throws {
    let peer = try await PythonPeer.start("fragmented")
    defer { peer.stop() }
    let connection = try await engine.connect(to: peer.url(), options: ConnectOptions())
    try await connection.send(.text("go"))
    #expect(try await connection.receive(1) == [.text("Hello, fragmented world")])
    await connection.close(normalClose, timeout: 10)
  }

  /// ws_peer.py only sends "pong:ok" once a pong with its ping's payload arrived.
  @Test func serverPingIsAnsweredWithAPongEchoingItsPayload() async throws {
    let peer = try await PythonPeer.start("ping")
    defer { peer.stop() }
    let connection = try await engine.connect(to: peer.url(), options: ConnectOptions())
    try await connection.send(.text("go"))
    #expect(try await connection.receive(1) == [.text("pong:ok")])
    await connection.close(normalClose, timeout: 10)
  }

  @Test func pingReturnsOnceThePongArrives() async throws {
    let peer = try await PythonPeer.start("echo")
    defer { peer.stop() }
    let connection = try await engine.connect(to: peer.url(), options: ConnectOptions())
    for payload in [[], Array("keepalive-1".utf8), [UInt8](repeating: 0xAB, count: 125)] {
      try await connection.ping(payload)
    }
    try await connection.send(.text("after the pings"))
    #expect(try await connection.receive(1) == [.text("after the pings")])
    await connection.close(normalClose, timeout: 10)
  }

  @Test func serverCloseFinishesMessagesWithItsStatus() async throws {
    let peer = try await PythonPeer.start("close")
    defer { peer.stop() }
    let connection = try await engine.connect(to: peer.url(), options: ConnectOptions())
    try await connection.send(.text("go"))
    #expect(try await connection.remainingMessages().isEmpty)
    #expect(connection.peerCloseStatus == CloseStatus(code: CloseCode(4000), reason: "bye"))
    // Our answer echoes the code (RFC 6455 §5.5.1).
    #expect(await peer.closeReport() == "4000 ")
  }

  @Test func ourCloseCompletesTheHandshake() async throws {
    let peer = try await PythonPeer.start("echo")
    defer { peer.stop() }
    let connection = try await engine.connect(to: peer.url(), options: ConnectOptions())
    await connection.close(normalClose, timeout: 10)
    #expect(try await connection.remainingMessages().isEmpty)
    // websockets echoes our close frame: the handshake finished by a frame, not by the timeout.
    #expect(connection.peerCloseStatus == normalClose)
    #expect(await peer.closeReport() == "1000 done")
    await #expect(throws: WebSocketError.notConnected) { try await connection.send(.text("late")) }
  }

  @Test func oneMebibyteBinaryMessageArrivesIntact() async throws {
    let peer = try await PythonPeer.start("large")
    defer { peer.stop() }
    let connection = try await engine.connect(to: peer.url(), options: ConnectOptions())
    let size = 1 << 20
    try await connection.send(.text("go \(size)"))
    let received = try await connection.receive(1)
    #expect(received == [.binary((0..<size).map { UInt8($0 % 251) })])
    await connection.close(normalClose, timeout: 10)
  }

  @Test func messageOverTheLimitFailsTheConnectionWith1009() async throws {
    let peer = try await PythonPeer.start("large")
    defer { peer.stop() }
    let connection = try await engine.connect(
      to: peer.url(), options: ConnectOptions(maximumMessageSize: 1000))
    try await connection.send(.text("go 5000"))
    let error = await #expect(throws: WebSocketError.self) { try await connection.remainingMessages() }
    #expect(isMessageTooLarge(error), "got \(String(describing: error))")
    #expect(await peer.closeReport() == "1009 ")
  }

  @Test func refusedUpgradeReportsTheHTTPStatus() async throws {
    let peer = try await PythonPeer.start("reject")
    defer { peer.stop() }
    let url = try peer.url()
    let error = await #expect(throws: WebSocketError.self) {
      _ = try await engine.connect(to: url, options: ConnectOptions())
    }
    guard case .handshake(.unexpectedStatus(let code, let reason, _)) = error else {
      Issue.record("expected an unexpected HTTP status, got \(String(describing: error))")
      return
    }
    #expect(code == 401)
    #expect(reason == "Unauthorized")
  }

  @Test func requestKeepsPathAndQueryAndTheHostHeaderHasThePort() async throws {
    let peer = try await PythonPeer.start("headers")
    defer { peer.stop() }
    let target = "/feed/v1?token=abc&x=1"
    let connection = try await engine.connect(to: peer.url(target), options: ConnectOptions())
    #expect(try await connection.receive(2) == [.text(target), .text("127.0.0.1:\(peer.port)")])
    await connection.close(normalClose, timeout: 10)
  }

  @Test(.enabled(if: hasIPv6Loopback, "this machine cannot listen on the IPv6 loopback ::1"))
  func connectsOverIPv6Loopback() async throws {
    let peer = try await PythonPeer.start("headers", host: "::1")
    defer { peer.stop() }
    let url = try peer.url("/v6?q=1")
    #expect(url.host == "::1")
    let connection = try await engine.connect(to: url, options: ConnectOptions())
    #expect(try await connection.receive(2) == [.text("/v6?q=1"), .text("[::1]:\(peer.port)")])
    await connection.close(normalClose, timeout: 10)
    #expect(try await connection.remainingMessages().isEmpty)
    #expect(await peer.closeReport() == "1000 done")
  }
}
