import Foundation
import Testing

@testable import Transport
@testable import WebSocketClient
@testable import WebSocketServer
@testable import WebSocketWire

/// The server role (`ServerUpgrade`, `ClientFrameReader`, `ServerFrameWriter`) on a real loopback
/// connection, with the client side written by hand from `FrameEncoder` and `ServerHandshake`.
@Suite struct ServerRoleTests {
  /// A connected pair: the accepted server side, and the client's raw stream.
  private static func pair() throws -> (server: TCPStream, client: TCPStream) {
    let listener = try TCPListener()
    defer { listener.close() }
    let client = try TCPStream.connect(host: "127.0.0.1", port: listener.port, timeout: 10)
    return (try listener.accept(timeout: 10), client)
  }

  private static func send(_ frame: Frame, on client: TCPStream) throws {
    var random = SystemRandomNumberGenerator()
    try client.write(FrameEncoder.encodeClientFrame(frame, using: &random), timeout: 10)
  }

  /// Every server frame the client receives until the server closes the connection.
  private static func frames(on client: TCPStream) -> [Frame] {
    var parser = FrameParser(role: .client, maximumFrameSize: 1 << 20)
    var frames: [Frame] = []
    let input = ServerInput(stream: client)
    while let bytes = input.read(timeout: 10), !bytes.isEmpty {
      parser.append(bytes)
      while let frame = try? parser.next() { frames.append(frame) }
    }
    return frames
  }

  @Test func readsMessagesAnswersPingsAndTheClose() throws {
    let (server, client) = try Self.pair()
    defer { client.close() }
    try Self.send(Frame(opcode: .text, payload: Array("hello".utf8)), on: client)
    try Self.send(Frame(opcode: .ping, payload: [1, 2]), on: client)
    try Self.send(Frame(fin: false, opcode: .text, payload: Array("frag".utf8)), on: client)
    try Self.send(Frame(opcode: .continuation, payload: Array("ment".utf8)), on: client)
    try Self.send(Frame.close(CloseStatus(code: .goingAway, reason: "bye")), on: client)
    var events: [MessageAssembler.Event] = []
    let writer = ServerFrameWriter(stream: server)
    let ending = ClientFrameReader(input: ServerInput(stream: server), writer: writer, maximumMessageSize: 64)
      .run(initial: []) { event in
        events.append(event)
        return true
      }
    server.close()
    #expect(ending == .clientClosed(CloseStatus(code: .goingAway, reason: "bye")))
    #expect(
      events == [
        .message(.text("hello")), .ping([1, 2]), .message(.text("fragment")),
        .close(CloseStatus(code: .goingAway, reason: "bye")),
      ])
    let answered = Self.frames(on: client)
    #expect(answered.map(\.opcode) == [.pong, .close])
    #expect(answered.first?.payload == [1, 2])
    #expect(answered.last == Frame.close(CloseStatus(code: .goingAway, reason: "bye")))
  }

  /// Once the server has closed (or decided to), it reads on to the client's close frame —
  /// dropping what comes before it, answering nothing — instead of stopping with bytes unread:
  /// closing a socket on unread bytes resets the connection, and the client may lose the close.
  @Test func afterTheServerClosesItDrainsToTheClientsClose() throws {
    let (server, client) = try Self.pair()
    defer { client.close() }
    try Self.send(Frame(opcode: .text, payload: Array("enough".utf8)), on: client)
    for _ in 0..<500 { try Self.send(Frame(opcode: .text, payload: Array("more".utf8)), on: client) }
    try Self.send(Frame(opcode: .ping, payload: [9]), on: client)
    try Self.send(Frame.close(CloseStatus(code: .normalClosure)), on: client)
    let writer = ServerFrameWriter(stream: server)
    var handled: [MessageAssembler.Event] = []
    var closed = false
    let ending = ClientFrameReader(input: ServerInput(stream: server), writer: writer, maximumMessageSize: 64)
      .run(initial: [], draining: { closed }) { event in
        handled.append(event)
        try? writer.sendClose(CloseStatus(code: .policyViolation, reason: "enough"))
        closed = true
        return false  // stop: but the reader drains to the client's close
      }
    // Everything the client sent was read: the server's close ends with no byte left unread.
    var byte: UInt8 = 0
    let peeked = recv(server.socket.fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
    #expect(peeked == -1 && (errno == EAGAIN || errno == EWOULDBLOCK))
    server.close()
    #expect(ending == .clientClosed(CloseStatus(code: .normalClosure)))
    #expect(handled == [.message(.text("enough"))])
    // The client got our close and nothing after it (no pong for the drained ping).
    #expect(Self.frames(on: client) == [Frame.close(CloseStatus(code: .policyViolation, reason: "enough"))])
  }

  @Test func aMessageOverTheLimitEndsReadingBeforeItsPayload() throws {
    let (server, client) = try Self.pair()
    defer { client.close() }
    // Only the header of a 1000-byte frame: the reader must not wait for the rest.
    try client.write([0x81, 0xFE, 0x03, 0xE8, 0, 0, 0, 0], timeout: 10)
    let ending = ClientFrameReader(
      input: ServerInput(stream: server), writer: ServerFrameWriter(stream: server), maximumMessageSize: 64
    ).run(initial: []) { _ in true }
    server.close()
    #expect(ending == .protocolError(.messageTooLarge(1000)))
  }

  @Test func theUpgradeIsReadWithWhatFollowsIt() throws {
    let (server, client) = try Self.pair()
    defer { client.close() }
    let head =
      "GET /?token=t HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
      + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    try client.write(Array(head.utf8) + [0x81, 0x80, 0, 0, 0, 0], timeout: 10)
    let writer = ServerFrameWriter(stream: server)
    let read = ServerUpgrade.readRequest(input: ServerInput(stream: server), writer: writer)
    #expect(read?.request.target == "/?token=t")
    #expect(read?.leftover == [0x81, 0x80, 0, 0, 0, 0])
    #expect(ServerUpgrade.accept(try #require(read?.request), writer: writer))
    server.close()
    let answer = String(decoding: ServerInput(stream: client).read(timeout: 10) ?? [], as: UTF8.self)
    #expect(answer.hasPrefix("HTTP/1.1 101 Switching Protocols\r\n"))
    #expect(answer.contains("Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n"))
  }

  @Test func aRequestThatIsNotHTTPIsAnswered400() throws {
    let (server, client) = try Self.pair()
    defer { client.close() }
    try client.write(Array("hello there\r\n\r\n".utf8), timeout: 10)
    let read = ServerUpgrade.readRequest(
      input: ServerInput(stream: server), writer: ServerFrameWriter(stream: server))
    server.close()
    #expect(read == nil)
    let answer = String(decoding: ServerInput(stream: client).read(timeout: 10) ?? [], as: UTF8.self)
    #expect(answer.hasPrefix("HTTP/1.1 400 Bad Request\r\n"), "\(answer)")
  }
}
