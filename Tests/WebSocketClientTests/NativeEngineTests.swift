import Dispatch
import Synchronization
import Testing

@testable import TickerSupport
@testable import Transport
@testable import WebSocketClient
@testable import WebSocketServer
@testable import WebSocketWire

/// Seconds that only bound a hang; no test waits this long when it passes.
/// Only guards against a hang; generous because a loaded 2-core machine can delay a test task.
private let hangBound = 60.0

struct PeerError: Error, CustomStringConvertible {
  var description: String
}

/// The server end of a socket pair, driven synchronously by a test script on its own queue,
/// using the server-role parser, encoder and handshake.
final class ScriptedPeer {
  let stream: SocketPairStream
  private var parser = FrameParser(role: .server, maximumFrameSize: 1 << 20)
  private var chunk = [UInt8](repeating: 0, count: 4096)
  /// Every byte received after the request head.
  private(set) var rawFrameBytes: [UInt8] = []
  private(set) var request: ServerHandshake.Request?

  init(stream: SocketPairStream) { self.stream = stream }

  /// Reads bytes; an empty array at end of stream.
  func readSome() throws -> [UInt8] {
    let count = try chunk.withUnsafeMutableBytes { raw in try stream.read(into: raw, timeout: hangBound) }
    return Array(chunk[0..<count])
  }

  func write(_ bytes: [UInt8]) throws { try stream.write(bytes, timeout: hangBound) }

  /// Reads the upgrade request; bytes after its head go to the frame parser.
  @discardableResult
  func readRequest() throws -> ServerHandshake.Request {
    var received: [UInt8] = []
    while true {
      let bytes = try readSome()
      guard !bytes.isEmpty else { throw PeerError(description: "EOF before the request head") }
      received += bytes
      if let (request, consumed) = try ServerHandshake.parseRequest(received) {
        self.request = request
        let rest = Array(received[consumed...])
        rawFrameBytes += rest
        parser.append(rest)
        return request
      }
    }
  }

  /// Reads and accepts the upgrade; `then` is written in the same write as the 101 response.
  func acceptUpgrade(then firstBytes: [UInt8] = []) throws {
    let key = try ServerHandshake.validateUpgrade(try readRequest())
    try write(ServerHandshake.upgradeResponse(forKey: key) + firstBytes)
  }

  func send(_ frame: Frame) throws { try write(FrameEncoder.encodeServerFrame(frame)) }

  /// The next client frame, or nil at end of stream.
  func readFrame() throws -> Frame? {
    while true {
      if let frame = try parser.next() { return frame }
      let bytes = try readSome()
      if bytes.isEmpty { return nil }
      rawFrameBytes += bytes
      parser.append(bytes)
    }
  }

  /// Reads frames until the client closes the stream; returns them.
  func readUntilEOF() throws -> [Frame] {
    var frames: [Frame] = []
    while let frame = try readFrame() { frames.append(frame) }
    return frames
  }
}

/// Runs `script` against the server end on a thread of its own, starting at once: the peer must not
/// wait for a free thread of the concurrency pool (on 2 cores the pool has 2 threads, and busy
/// tests can hold both for longer than a handshake timeout).
func runPeer<T: Sendable>(
  _ stream: SocketPairStream, _ script: @escaping @Sendable (ScriptedPeer) throws -> T
) -> Task<T, any Error> {
  let outcome = PeerOutcome<T>()
  DedicatedThread.start {
    let result = Result { try script(ScriptedPeer(stream: stream)) }
    stream.close()
    outcome.set(result)
  }
  return Task { try await outcome.value() }
}

/// A result set by a thread and awaited by a task, whichever comes first.
final class PeerOutcome<T: Sendable>: Sendable {
  private let state = Mutex<(result: Result<T, any Error>?, waiter: CheckedContinuation<T, any Error>?)>(
    (nil, nil))

  func set(_ value: Result<T, any Error>) {
    let waiter = state.withLock { state in
      state.result = value
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume(with: value)
  }

  func value() async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      let ready = state.withLock { state in
        if state.result == nil { state.waiter = continuation }
        return state.result
      }
      if let ready { continuation.resume(with: ready) }
    }
  }
}

let testURL = WebSocketURL(isSecure: false, host: "127.0.0.1", port: 9001, target: "/feed?token=secret")
/// Two values for the `Sec-WebSocket-Key`, then the masking key of the first frame.
let pinnedRandom: [UInt64] = [0x0001_0203_0405_0607, 0x0809_0A0B_0C0D_0E0F, 0x1122_3344_0000_0000]

func makeEngine(_ client: SocketPairStream) -> NativeEngine {
  NativeEngine(transport: { _, _ in client }, random: { FixedRandom(pinnedRandom) })
}

func collect(_ connection: any MessageConnection) async -> (
  messages: [WebSocketMessage], error: (any Error)?
) {
  var messages: [WebSocketMessage] = []
  do {
    for try await message in connection.messages { messages.append(message) }
    return (messages, nil)
  } catch {
    return (messages, error)
  }
}

@Suite struct NativeEngineTests {
  @Test func handshakeThenTextAndBinaryInOrderThenServerClose() async throws {
    let (client, server) = SocketPairStream.makePair()
    let peer = runPeer(server) { peer in
      // The first frame rides in the same write as the 101 response.
      try peer.acceptUpgrade(then: serverFrame(.text, Array("one".utf8)))
      try peer.send(Frame(opcode: .binary, payload: [1, 2, 3]))
      try peer.send(Frame(opcode: .text, payload: Array("three".utf8)))
      try peer.send(.close(CloseStatus(code: .normalClosure, reason: "bye")))
      return (peer.request!, try peer.readUntilEOF())
    }
    let connection = try await makeEngine(client).connect(to: testURL, options: ConnectOptions())
    let (messages, error) = await collect(connection)
    #expect(error == nil)
    #expect(messages == [.text("one"), .binary([1, 2, 3]), .text("three")])
    #expect(connection.peerCloseStatus == CloseStatus(code: .normalClosure, reason: "bye"))
    let (request, frames) = try await peer.value
    #expect(request.target == "/feed?token=secret")
    #expect(request.head.value(of: "Sec-WebSocket-Key") == "AAECAwQFBgcICQoLDA0ODw==")
    #expect(frames == [.close(CloseStatus(code: .normalClosure))])
  }

  @Test func fragmentedMessageWithPingBetweenGetsAPong() async throws {
    let (client, server) = SocketPairStream.makePair()
    let peer = runPeer(server) { peer in
      try peer.acceptUpgrade()
      try peer.write(hex("01 03 48 65 6c") + hex("89 05 48 65 6c 6c 6f") + hex("80 02 6c 6f"))
      let pong = try peer.readFrame()
      try peer.send(.close(CloseStatus(code: .goingAway)))
      return pong
    }
    let connection = try await makeEngine(client).connect(to: testURL, options: ConnectOptions())
    let (messages, error) = await collect(connection)
    #expect(error == nil)
    #expect(messages == [.text("Hello")])
    #expect(try await peer.value == Frame(opcode: .pong, payload: Array("Hello".utf8)))
    #expect(connection.peerCloseStatus?.code == .goingAway)
  }

  @Test func sendAndPingReachThePeerMasked() async throws {
    let (client, server) = SocketPairStream.makePair()
    let peer = runPeer(server) { peer in
      try peer.acceptUpgrade()
      var frames: [Frame] = []
      for _ in 0..<3 {
        guard let frame = try peer.readFrame() else { break }
        frames.append(frame)
        if frame.opcode == .ping { try peer.send(Frame(opcode: .pong, payload: frame.payload)) }
      }
      try peer.send(.close(CloseStatus(code: .normalClosure)))
      return (frames, Array(peer.rawFrameBytes.prefix(8)))
    }
    let connection = try await makeEngine(client).connect(to: testURL, options: ConnectOptions())
    try await connection.send(.text("hi"))
    try await connection.send(.binary([9, 8]))
    try await connection.ping([7, 7, 7])
    let (_, error) = await collect(connection)
    #expect(error == nil)
    let (frames, firstBytes) = try await peer.value
    #expect(
      frames == [
        Frame(opcode: .text, payload: Array("hi".utf8)), Frame(opcode: .binary, payload: [9, 8]),
        Frame(opcode: .ping, payload: [7, 7, 7]),
      ])
    // The first frame is masked with the pinned key.
    #expect(
      firstBytes
        == FrameEncoder.encode(Frame(opcode: .text, payload: Array("hi".utf8)), maskingKey: 0x1122_3344))
  }

  struct Violation: Sendable, CustomTestStringConvertible {
    var name: String
    var bytes: [UInt8]
    var maximumMessageSize = 1 << 20
    var error: FrameError
    var testDescription: String { name }
  }

  static let violations: [Violation] = [
    Violation(
      name: "masked server frame",
      bytes: FrameEncoder.encode(Frame(opcode: .text, payload: Array("Hello".utf8)), maskingKey: 0x37FA_213D),
      error: .maskedFrameFromServer),
    Violation(name: "invalid UTF-8", bytes: serverFrame(.text, [0xC3, 0x28]), error: .invalidUTF8),
    Violation(
      name: "oversized message", bytes: serverFrame(.binary, Array(repeating: 1, count: 101)),
      maximumMessageSize: 100,
      error: .messageTooLarge(101)),
    Violation(name: "reserved opcode", bytes: hex("83 00"), error: .unknownOpcode(3)),
  ]

  @Test(arguments: violations) func protocolViolationSendsTheMatchingCloseCode(_ violation: Violation)
    async throws
  {
    let (client, server) = SocketPairStream.makePair()
    let peer = runPeer(server) { peer in
      try peer.acceptUpgrade()
      try peer.send(Frame(opcode: .text, payload: Array("before".utf8)))
      try peer.write(violation.bytes)
      return try peer.readUntilEOF()
    }
    let options = ConnectOptions(maximumMessageSize: violation.maximumMessageSize)
    let connection = try await makeEngine(client).connect(to: testURL, options: options)
    let (messages, error) = await collect(connection)
    #expect(messages == [.text("before")])
    #expect(error as? WebSocketError == .protocolViolation(violation.error))
    let frames = try await peer.value
    #expect(frames == [.close(CloseStatus(code: violation.error.closeCode))])
    #expect(connection.peerCloseStatus == nil)
  }

  @Test func endOfStreamWithoutCloseIsAbnormal() async throws {
    let (client, server) = SocketPairStream.makePair()
    let peer = runPeer(server) { peer in
      try peer.acceptUpgrade()
      try peer.send(Frame(opcode: .text, payload: Array("last".utf8)))
    }
    let connection = try await makeEngine(client).connect(to: testURL, options: ConnectOptions())
    let (messages, error) = await collect(connection)
    try await peer.value
    #expect(messages == [.text("last")])
    #expect(error as? WebSocketError == .abnormalClosure)
    await #expect(throws: WebSocketError.notConnected) { try await connection.send(.text("late")) }
  }

  @Test func unauthorizedResponseFailsTheHandshake() async throws {
    let (client, server) = SocketPairStream.makePair()
    let peer = runPeer(server) { peer in
      try peer.readRequest()
      try peer.write(
        ServerHandshake.response(
          status: 401, reason: "Unauthorized", headers: [("Retry-After", "30")], body: Array("no".utf8)))
    }
    await #expect(
      throws: WebSocketError.handshake(.unexpectedStatus(code: 401, reason: "Unauthorized", retryAfter: 30))
    ) {
      _ = try await makeEngine(client).connect(to: testURL, options: ConnectOptions())
    }
    try await peer.value
  }

  @Test func silentServerTimesTheHandshakeOut() async throws {
    let (client, server) = SocketPairStream.makePair()
    let peer = runPeer(server) { peer in
      try peer.readRequest()
      return try peer.readSome()  // EOF once the client gives up
    }
    await #expect(
      throws: WebSocketError.transport(.timeout("the WebSocket handshake did not finish in time"))
    ) {
      _ = try await makeEngine(client).connect(to: testURL, options: ConnectOptions(connectTimeout: 0.2))
    }
    #expect(try await peer.value == [])
  }

  @Test func transportFailureIsReported() async {
    let engine = NativeEngine(transport: { _, _ throws(TransportError) in
      throw .connect(host: "h", port: 1, errno: 111)
    })
    await #expect(throws: WebSocketError.transport(.connect(host: "h", port: 1, errno: 111))) {
      _ = try await engine.connect(to: testURL, options: ConnectOptions())
    }
  }

  @Test func clientCloseIsAnsweredByThePeer() async throws {
    let (client, server) = SocketPairStream.makePair()
    let peer = runPeer(server) { peer in
      try peer.acceptUpgrade()
      let close = try peer.readFrame()
      try peer.send(.close(CloseStatus(code: .normalClosure, reason: "ok")))
      return (close, peer.rawFrameBytes)
    }
    let connection = try await makeEngine(client).connect(to: testURL, options: ConnectOptions())
    await connection.close(CloseStatus(code: .normalClosure, reason: "bye"), timeout: hangBound)
    let (messages, error) = await collect(connection)
    #expect(messages.isEmpty && error == nil)
    #expect(connection.peerCloseStatus == CloseStatus(code: .normalClosure, reason: "ok"))
    let (close, raw) = try await peer.value
    #expect(close == .close(CloseStatus(code: .normalClosure, reason: "bye")))
    #expect(
      raw
        == FrameEncoder.encode(
          .close(CloseStatus(code: .normalClosure, reason: "bye")), maskingKey: 0x1122_3344))
    await connection.close(CloseStatus(code: .normalClosure), timeout: hangBound)  // idempotent
    await #expect(throws: WebSocketError.notConnected) { try await connection.ping([1]) }
  }

  @Test func cancellingAnUnansweredPingThrowsCancelled() async throws {
    let (client, server) = SocketPairStream.makePair()
    let peer = runPeer(server) { peer in
      try peer.acceptUpgrade()
      return try peer.readUntilEOF()  // never answers the ping
    }
    let connection = try await makeEngine(client).connect(to: testURL, options: ConnectOptions())
    let ping = Task { try await connection.ping([1]) }
    ping.cancel()
    await #expect(throws: WebSocketError.transport(.cancelled)) { try await ping.value }
    await connection.close(CloseStatus(code: .normalClosure), timeout: 0.2)
    let frames = try await peer.value
    #expect(frames.last == .close(CloseStatus(code: .normalClosure)))
  }

  @Test func clientCloseReturnsWhenThePeerNeverAnswers() async throws {
    let (client, server) = SocketPairStream.makePair()
    let peer = runPeer(server) { peer in
      try peer.acceptUpgrade()
      return try peer.readUntilEOF()  // never answers the close
    }
    let connection = try await makeEngine(client).connect(to: testURL, options: ConnectOptions())
    await connection.close(CloseStatus(code: .normalClosure), timeout: 0.2)
    let (messages, error) = await collect(connection)
    #expect(messages.isEmpty && error == nil)
    #expect(connection.peerCloseStatus == nil)
    #expect(try await peer.value == [.close(CloseStatus(code: .normalClosure))])
  }
}
