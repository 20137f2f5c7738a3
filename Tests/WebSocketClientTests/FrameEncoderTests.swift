import Testing

@testable import WebSocketClient
@testable import WebSocketWire

/// A generator that returns the given values in turn (cycling), so tests pin exact bytes.
struct FixedRandom: RandomNumberGenerator, Sendable {
  var values: [UInt64]
  var index = 0
  init(_ values: [UInt64]) { self.values = values }
  mutating func next() -> UInt64 {
    defer { index = (index + 1) % values.count }
    return values[index]
  }
}

@Suite struct FrameEncoderTests {
  @Test func unmaskedServerHello() {
    let bytes = FrameEncoder.encodeServerFrame(Frame(opcode: .text, payload: Array("Hello".utf8)))
    #expect(bytes == hex("81 05 48 65 6c 6c 6f"))
  }

  @Test func maskedClientHelloUsesTheInjectedKey() throws {
    var random = FixedRandom([0x37FA_213D_0000_0000])
    let bytes = FrameEncoder.encodeClientFrame(
      Frame(opcode: .text, payload: Array("Hello".utf8)), using: &random)
    #expect(bytes == hex("81 85 37 fa 21 3d 7f 9f 4d 51 58"))
    // And the server-role parser reads it back.
    let parsed = try parseFrames(bytes, chunk: Int.max, role: .server)
    #expect(parsed.frames == [Frame(opcode: .text, payload: Array("Hello".utf8))])
  }

  @Test func eachClientFrameGetsAFreshKey() {
    var random = FixedRandom([0x0102_0304_0000_0000, 0xA0B0_C0D0_0000_0000])
    let frame = Frame(opcode: .binary, payload: [0, 0, 0, 0])
    let first = FrameEncoder.encodeClientFrame(frame, using: &random)
    let second = FrameEncoder.encodeClientFrame(frame, using: &random)
    #expect(first == hex("82 84 01 02 03 04 01 02 03 04"))
    #expect(second == hex("82 84 a0 b0 c0 d0 a0 b0 c0 d0"))
  }

  @Test(arguments: 0...9) func maskingEveryTailLength(count: Int) throws {
    let payload = (0..<count).map { UInt8($0 + 1) }
    let bytes = FrameEncoder.encode(Frame(opcode: .binary, payload: payload), maskingKey: 0x0A0B_0C0D)
    // Each payload byte is XORed with key byte (index % 4).
    let key: [UInt8] = [0x0A, 0x0B, 0x0C, 0x0D]
    #expect(Array(bytes.dropFirst(6)) == payload.enumerated().map { $0.element ^ key[$0.offset % 4] })
    #expect(
      try parseFrames(bytes, chunk: 3, role: .server).frames == [Frame(opcode: .binary, payload: payload)])
  }

  @Test func fragmentsAndPing() {
    #expect(
      FrameEncoder.encodeServerFrame(Frame(fin: false, opcode: .text, payload: Array("Hel".utf8)))
        == hex("01 03 48 65 6c"))
    #expect(
      FrameEncoder.encodeServerFrame(Frame(opcode: .continuation, payload: Array("lo".utf8)))
        == hex("80 02 6c 6f"))
    #expect(
      FrameEncoder.encodeServerFrame(Frame(opcode: .ping, payload: Array("Hello".utf8)))
        == hex("89 05 48 65 6c 6c 6f"))
  }

  @Test(arguments: [
    (125, hex("82 7d")), (126, hex("82 7e 00 7e")), (256, hex("82 7e 01 00")),
    (65535, hex("82 7e ff ff")), (65536, hex("82 7f 00 00 00 00 00 01 00 00")),
  ])
  func lengthEncodings(count: Int, header: [UInt8]) throws {
    let payload = [UInt8](repeating: 0x5A, count: count)
    let bytes = FrameEncoder.encodeServerFrame(Frame(opcode: .binary, payload: payload))
    #expect(Array(bytes.prefix(header.count)) == header)
    #expect(bytes.count == header.count + count)
    #expect(try parseFrames(bytes, chunk: 4096).frames == [Frame(opcode: .binary, payload: payload)])
  }

  @Test func closeFrameCarriesCodeAndTruncatedReason() {
    let frame = Frame.close(CloseStatus(code: .normalClosure, reason: "bye"))
    #expect(frame.payload == [0x03, 0xE8] + Array("bye".utf8))
    let long = Frame.close(CloseStatus(code: .goingAway, reason: String(repeating: "é", count: 100)))
    #expect(long.payload.count <= 125)
    #expect(String(validating: long.payload[2...], as: UTF8.self) != nil)
    #expect(Frame.close(CloseStatus(code: .noStatusReceived)).payload.isEmpty)
  }
}
