import TestSupport
import Testing

@testable import WebSocketClient
@testable import WebSocketWire

/// Chunk sizes every parser test feeds its bytes in; `Int.max` means all at once.
let chunkSizes = [1, 2, 5, 8, Int.max]

/// Feeds `bytes` to `parser` in chunks of `chunk`, collecting every frame as it completes.
func parseFrames(
  _ bytes: [UInt8], chunk: Int, role: FrameParser.Role = .client, maximumFrameSize: Int = 1 << 20
) throws(FrameError) -> (frames: [Frame], leftover: Int) {
  var parser = FrameParser(role: role, maximumFrameSize: maximumFrameSize)
  var frames: [Frame] = []
  var index = 0
  repeat {
    let end = index + min(chunk, bytes.count - index)
    parser.append(bytes[index..<end])
    index = end
    while let frame = try parser.next() { frames.append(frame) }
  } while index < bytes.count
  return (frames, parser.bufferedByteCount)
}

func hex(_ text: String) -> [UInt8] {
  text.split(separator: " ").map { UInt8($0, radix: 16)! }
}

@Suite(.ownThread) struct FrameParserTests {
  @Test(arguments: chunkSizes) func unmaskedTextHello(chunk: Int) throws {
    let result = try parseFrames(hex("81 05 48 65 6c 6c 6f"), chunk: chunk)
    #expect(result.frames == [Frame(fin: true, opcode: .text, payload: Array("Hello".utf8))])
    #expect(result.leftover == 0)
  }

  @Test(arguments: chunkSizes) func maskedHelloInServerRole(chunk: Int) throws {
    let result = try parseFrames(hex("81 85 37 fa 21 3d 7f 9f 4d 51 58"), chunk: chunk, role: .server)
    #expect(result.frames == [Frame(opcode: .text, payload: Array("Hello".utf8))])
  }

  @Test(arguments: chunkSizes) func fragmentedHello(chunk: Int) throws {
    let result = try parseFrames(hex("01 03 48 65 6c 80 02 6c 6f"), chunk: chunk)
    #expect(
      result.frames == [
        Frame(fin: false, opcode: .text, payload: Array("Hel".utf8)),
        Frame(fin: true, opcode: .continuation, payload: Array("lo".utf8)),
      ])
  }

  @Test(arguments: chunkSizes) func pingHello(chunk: Int) throws {
    let result = try parseFrames(hex("89 05 48 65 6c 6c 6f"), chunk: chunk)
    #expect(result.frames == [Frame(opcode: .ping, payload: Array("Hello".utf8))])
  }

  @Test(arguments: chunkSizes) func binary256With16BitLength(chunk: Int) throws {
    let payload = (0..<256).map { UInt8($0 & 0xFF) }
    let result = try parseFrames(hex("82 7E 01 00") + payload, chunk: chunk)
    #expect(result.frames == [Frame(opcode: .binary, payload: payload)])
  }

  @Test(arguments: chunkSizes) func binary64KiBWith64BitLength(chunk: Int) throws {
    let payload = (0..<65536).map { UInt8(($0 * 7) & 0xFF) }
    let result = try parseFrames(hex("82 7F 00 00 00 00 00 01 00 00") + payload, chunk: max(chunk, 1))
    #expect(result.frames == [Frame(opcode: .binary, payload: payload)])
  }

  @Test(arguments: chunkSizes) func manyFramesBackToBackKeepOrderAndLeftover(chunk: Int) throws {
    var bytes: [UInt8] = []
    var expected: [Frame] = []
    for i in 0..<300 {
      let frame = Frame(opcode: i % 2 == 0 ? .text : .binary, payload: Array("msg \(i)".utf8))
      expected.append(frame)
      bytes += FrameEncoder.encodeServerFrame(frame)
    }
    bytes += [0x81]  // the first byte of a frame still to come
    let result = try parseFrames(bytes, chunk: chunk)
    #expect(result.frames == expected)
    #expect(result.leftover == 1)
  }

  struct Rejection: Sendable, CustomTestStringConvertible {
    var name: String
    var bytes: [UInt8]
    var role: FrameParser.Role = .client
    var maximumFrameSize = 1 << 20
    var error: FrameError
    var closeCode: UInt16
    var testDescription: String { name }
  }

  static let rejections: [Rejection] = [
    Rejection(
      name: "masked server frame", bytes: hex("81 85 37 fa 21 3d 7f 9f 4d 51 58"),
      error: .maskedFrameFromServer, closeCode: 1002),
    Rejection(
      name: "unmasked client frame", bytes: hex("81 05 48 65 6c 6c 6f"), role: .server,
      error: .unmaskedFrameFromClient, closeCode: 1002),
    Rejection(
      name: "RSV1 set", bytes: hex("c1 05 48 65 6c 6c 6f"), error: .reservedBitsSet(4), closeCode: 1002),
    Rejection(name: "RSV3 set", bytes: hex("91 00"), error: .reservedBitsSet(1), closeCode: 1002),
    Rejection(name: "unknown opcode 3", bytes: hex("83 00"), error: .unknownOpcode(3), closeCode: 1002),
    Rejection(name: "unknown opcode 0xB", bytes: hex("8b 00"), error: .unknownOpcode(0xB), closeCode: 1002),
    Rejection(name: "fragmented ping", bytes: hex("09 00"), error: .fragmentedControlFrame, closeCode: 1002),
    Rejection(
      name: "ping over 125", bytes: hex("89 7e 00 7e") + Array(repeating: 0, count: 126),
      error: .controlFrameTooLarge(126), closeCode: 1002),
    Rejection(
      name: "64-bit length MSB", bytes: hex("82 7f 80 00 00 00 00 00 00 00"), error: .invalidLength,
      closeCode: 1002),
    Rejection(
      name: "non-minimal 16-bit length", bytes: hex("82 7e 00 05 01 02 03 04 05"), error: .invalidLength,
      closeCode: 1002),
    Rejection(
      name: "frame over the limit", bytes: hex("82 0b") + Array(repeating: 1, count: 11),
      maximumFrameSize: 10,
      error: .messageTooLarge(11), closeCode: 1009),
  ]

  @Test(arguments: rejections, chunkSizes) func rejects(_ rejection: Rejection, chunk: Int) {
    #expect(throws: rejection.error) {
      _ = try parseFrames(
        rejection.bytes, chunk: chunk, role: rejection.role, maximumFrameSize: rejection.maximumFrameSize)
    }
    #expect(rejection.error.closeCode.rawValue == rejection.closeCode)
  }

  @Test func oversizedHeaderIsRejectedBeforeThePayloadArrives() {
    var parser = FrameParser(role: .client, maximumFrameSize: 1 << 20)
    parser.append(hex("82 7f 00 00 00 01 00 00 00 00"))  // 4 GiB announced, no payload sent
    #expect(throws: FrameError.messageTooLarge(1 << 32)) { try parser.next() }
    // The parser stays failed.
    parser.append([0x81, 0x00])
    #expect(throws: FrameError.messageTooLarge(1 << 32)) { try parser.next() }
  }

  @Test func needsMoreBytesUntilTheFrameIsComplete() throws {
    var parser = FrameParser(role: .client, maximumFrameSize: 100)
    parser.append(hex("81 05 48 65"))
    #expect(try parser.next() == nil)
    parser.append(hex("6c 6c 6f 81"))
    #expect(try parser.next() == Frame(opcode: .text, payload: Array("Hello".utf8)))
    #expect(try parser.next() == nil)
    #expect(parser.bufferedByteCount == 1)
  }

  /// A frame of at least `largeFrameThreshold` bytes is collected in an array of its exact size;
  /// what comes around it is parsed as usual, whatever the chunking.
  @Test(arguments: [997, 65536, Int.max])
  func largeFramesAmongSmallOnes(chunk: Int) throws {
    let large = (0..<(1 << 20) + 3).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    let bytes =
      FrameEncoder.encodeServerFrame(Frame(opcode: .text, payload: Array("before".utf8)))
      + FrameEncoder.encodeServerFrame(Frame(opcode: .binary, payload: large))
      + FrameEncoder.encodeServerFrame(Frame(opcode: .text, payload: Array("after".utf8)))
    let parsed = try parseFrames(bytes, chunk: chunk, maximumFrameSize: 4 << 20).frames
    #expect(parsed.map(\.opcode) == [.text, .binary, .text])
    #expect(parsed.count == 3 && parsed[1].payload == large)
    #expect(parsed.last?.payload == Array("after".utf8))
  }

  @Test func aLargeMaskedFrameIsUnmasked() throws {
    let large = (0..<(300 << 10)).map { UInt8(truncatingIfNeeded: $0) }
    var random = FixedRandom([0x1234_5678_0000_0000])
    let bytes = FrameEncoder.encodeClientFrame(Frame(opcode: .binary, payload: large), using: &random)
    var parser = FrameParser(role: .server, maximumFrameSize: 1 << 20)
    var frames: [Frame] = []
    var offset = 0
    while offset < bytes.count {
      let end = min(bytes.count, offset + 4096)
      parser.append(bytes[offset..<end])
      offset = end
      while let frame = try parser.next() { frames.append(frame) }
    }
    #expect(frames.count == 1 && frames.first?.payload == large)
    #expect(parser.bufferedByteCount == 0)
  }
}
