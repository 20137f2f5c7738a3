import TestSupport
import Testing

@testable import WebSocketClient
@testable import WebSocketWire

/// The native engine against `websocat` (Rust; `ws-l:` server mirroring messages back), a second
/// implementation that shares no code with ours. The time limit only bounds a hang.
///
/// websocat's mirror treats a zero-length message as end of input, and splits messages over its
/// 64 KiB buffer, so the messages here are non-empty and smaller than that.
@Suite(.requires(.websocat), .timeLimit(.minutes(1)))
struct WebsocatInteropTests {
  let engine = NativeEngine()

  /// websocat 1.x has no permessage-deflate: it ignores our offer (which `ConnectOptions` makes
  /// by default) and everything goes uncompressed.
  @Test func textMessagesEchoInOrder() async throws {
    let peer = try await WebsocatPeer.start(["-t"])
    defer { peer.stop() }
    let connection = try await engine.connect(to: peer.url, options: ConnectOptions())
    #expect(connection.extensions == nil)
    for text in ["hello", "ünïcødé ✓ €", String(repeating: "0123456789", count: 5000)] {
      try await connection.send(.text(text))
      #expect(try await connection.receive(1) == [.text(text)])
    }
    await connection.close(CloseStatus(code: .normalClosure), timeout: 10)
  }

  @Test func binaryMessagesEcho() async throws {
    let peer = try await WebsocatPeer.start(["-b"])
    defer { peer.stop() }
    let connection = try await engine.connect(to: peer.url, options: ConnectOptions())
    let messages: [[UInt8]] = [
      Array(0...255), (0..<60_000).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 1) }, [0],
    ]
    for bytes in messages {
      try await connection.send(.binary(bytes))
      #expect(try await connection.receive(1) == [.binary(bytes)])
    }
    await connection.close(CloseStatus(code: .normalClosure), timeout: 10)
  }

  /// websocat (without `-E`) answers our close frame with an empty one; its debug log shows the
  /// code and reason it parsed from ours.
  @Test func ourCloseCompletesTheHandshake() async throws {
    let peer = try await WebsocatPeer.start(["-t", "-vv"])
    defer { peer.stop() }
    let connection = try await engine.connect(to: peer.url, options: ConnectOptions())
    try await connection.send(.text("before close"))
    #expect(try await connection.receive(1) == [.text("before close")])
    await connection.close(CloseStatus(code: .normalClosure, reason: "done"), timeout: 10)
    #expect(try await connection.remainingMessages().isEmpty)
    // An empty close frame arrived: the handshake finished by a frame, not by the timeout.
    #expect(connection.peerCloseStatus == CloseStatus(code: .noStatusReceived))
    #expect(
      await peer.waitForOutput(containing: #"CloseData { status_code: 1000, reason: "done" }"#),
      "websocat's log: \(peer.output)")
  }

  /// With `-E` websocat drops the TCP connection on our close frame instead of answering it:
  /// after our close that is a normal end, not an abnormal closure.
  @Test func ourCloseCompletesWhenWebsocatJustDropsTheConnection() async throws {
    let peer = try await WebsocatPeer.start(["-t", "-E"])
    defer { peer.stop() }
    let connection = try await engine.connect(to: peer.url, options: ConnectOptions())
    try await connection.send(.text("before close"))
    #expect(try await connection.receive(1) == [.text("before close")])
    await connection.close(CloseStatus(code: .normalClosure), timeout: 10)
    #expect(try await connection.remainingMessages().isEmpty)
  }

  @Test func pingReturnsWhenWebsocatAnswers() async throws {
    let peer = try await WebsocatPeer.start(["-t"])
    defer { peer.stop() }
    let connection = try await engine.connect(to: peer.url, options: ConnectOptions())
    try await connection.ping(Array("are you there".utf8))
    try await connection.ping([])
    try await connection.send(.text("after the pings"))
    #expect(try await connection.receive(1) == [.text("after the pings")])
    await connection.close(CloseStatus(code: .normalClosure), timeout: 10)
  }

  /// websocat pings every second (its smallest interval) and prints the round trip once the
  /// matching pong arrives.
  @Test func websocatPingsAreAnswered() async throws {
    let peer = try await WebsocatPeer.start(["-t", "--ping-interval", "1", "--print-ping-rtts"])
    defer { peer.stop() }
    let connection = try await engine.connect(to: peer.url, options: ConnectOptions())
    #expect(await peer.waitForOutput(containing: "RTT "), "websocat's output: \(peer.output)")
    try await connection.send(.text("still open"))
    #expect(try await connection.receive(1) == [.text("still open")])
    await connection.close(CloseStatus(code: .normalClosure), timeout: 10)
  }
}
