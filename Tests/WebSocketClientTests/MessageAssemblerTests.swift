import Testing

@testable import WebSocketClient

/// Parses `bytes` in chunks and runs every frame through an assembler.
func assemble(
  _ bytes: [UInt8], chunk: Int, maximumMessageSize: Int = 1 << 20
) throws(FrameError) -> [MessageAssembler.Event] {
  var assembler = MessageAssembler(maximumMessageSize: maximumMessageSize)
  var events: [MessageAssembler.Event] = []
  for frame in try parseFrames(bytes, chunk: chunk).frames {
    if let event = try assembler.receive(frame) { events.append(event) }
  }
  return events
}

func serverFrame(_ opcode: Opcode, _ payload: [UInt8], fin: Bool = true) -> [UInt8] {
  FrameEncoder.encodeServerFrame(Frame(fin: fin, opcode: opcode, payload: payload))
}

@Suite struct MessageAssemblerTests {
  @Test(arguments: chunkSizes) func fragmentedTextWithPingBetween(chunk: Int) throws {
    let bytes = hex("01 03 48 65 6c") + hex("89 05 48 65 6c 6c 6f") + hex("80 02 6c 6f")
    let events = try assemble(bytes, chunk: chunk)
    #expect(events == [.ping(Array("Hello".utf8)), .message(.text("Hello"))])
  }

  @Test(arguments: chunkSizes) func binaryPongAndClose(chunk: Int) throws {
    let bytes =
      serverFrame(.binary, [1, 2, 3]) + serverFrame(.pong, [9])
      + serverFrame(.close, [0x03, 0xE8] + Array("done".utf8))
    let events = try assemble(bytes, chunk: chunk)
    #expect(
      events == [
        .message(.binary([1, 2, 3])), .pong([9]), .close(CloseStatus(code: .normalClosure, reason: "done")),
      ])
  }

  @Test func emptyCloseHasNoStatus() throws {
    #expect(try assemble(serverFrame(.close, []), chunk: Int.max) == [.close(nil)])
  }

  @Test(arguments: chunkSizes) func multiByteUTF8SplitAcrossFragments(chunk: Int) throws {
    let text = Array("€uro".utf8)  // € is 3 bytes; split inside it
    let bytes =
      serverFrame(.text, Array(text[0..<2]), fin: false) + serverFrame(.continuation, Array(text[2...]))
    #expect(try assemble(bytes, chunk: chunk) == [.message(.text("€uro"))])
  }

  struct Rejection: Sendable, CustomTestStringConvertible {
    var name: String
    var bytes: [UInt8]
    var maximumMessageSize = 1 << 20
    var error: FrameError
    var closeCode: UInt16
    var testDescription: String { name }
  }

  static let rejections: [Rejection] = [
    Rejection(
      name: "invalid UTF-8 text", bytes: serverFrame(.text, [0x48, 0xC3, 0x28]), error: .invalidUTF8,
      closeCode: 1007),
    Rejection(
      name: "truncated UTF-8 at message end",
      bytes: serverFrame(.text, [0xE2, 0x82], fin: false) + serverFrame(.continuation, []),
      error: .invalidUTF8, closeCode: 1007),
    Rejection(
      name: "oversized single frame", bytes: serverFrame(.binary, Array(repeating: 0, count: 11)),
      maximumMessageSize: 10, error: .messageTooLarge(11), closeCode: 1009),
    Rejection(
      name: "oversized fragmented message",
      bytes: serverFrame(.binary, Array(repeating: 0, count: 6), fin: false)
        + serverFrame(.continuation, Array(repeating: 0, count: 6)),
      maximumMessageSize: 10, error: .messageTooLarge(12), closeCode: 1009),
    Rejection(
      name: "unexpected continuation", bytes: serverFrame(.continuation, [1]), error: .unexpectedContinuation,
      closeCode: 1002),
    Rejection(
      name: "expected continuation",
      bytes: serverFrame(.text, [0x41], fin: false) + serverFrame(.text, [0x42]),
      error: .expectedContinuation,
      closeCode: 1002),
    Rejection(
      name: "1-byte close payload", bytes: serverFrame(.close, [0x03]), error: .invalidClosePayload,
      closeCode: 1002),
    Rejection(
      name: "close code 1005 on the wire", bytes: serverFrame(.close, [0x03, 0xED]),
      error: .invalidCloseCode(1005), closeCode: 1002),
    Rejection(
      name: "close code 999", bytes: serverFrame(.close, [0x03, 0xE7]), error: .invalidCloseCode(999),
      closeCode: 1002),
    Rejection(
      name: "close reason not UTF-8", bytes: serverFrame(.close, [0x03, 0xE8, 0xFF]), error: .invalidUTF8,
      closeCode: 1007),
  ]

  @Test(arguments: rejections, chunkSizes) func rejects(_ rejection: Rejection, chunk: Int) {
    #expect(throws: rejection.error) {
      _ = try assemble(rejection.bytes, chunk: chunk, maximumMessageSize: rejection.maximumMessageSize)
    }
    #expect(rejection.error.closeCode.rawValue == rejection.closeCode)
  }
}
