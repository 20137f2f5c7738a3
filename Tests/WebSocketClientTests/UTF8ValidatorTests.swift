import TestSupport
import Testing

@testable import WebSocketClient
@testable import WebSocketWire

/// The incremental validator agrees with the standard library on whole inputs, whatever the
/// chunking, and reports invalid input at the first offending chunk.
@Suite(.ownThread) struct UTF8ValidatorTests {
  static let samples: [[UInt8]] = [
    Array("plain ascii, more than eight bytes long".utf8), Array("κόσμε € 𝄞 비트코인".utf8),
    [0xEF, 0xBF, 0xBF], [0xF4, 0x8F, 0xBF, 0xBF], [0xC2, 0x80], [0xE0, 0xA0, 0x80], [0xF0, 0x90, 0x80, 0x80],
    [0x80], [0xC0, 0x80], [0xC1, 0xBF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF],
    [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xFF], [0xFE], [0xCE], [0xE2, 0x82],
    Array("abc".utf8) + [0xF0, 0x9D, 0x84], Array("12345678".utf8) + [0xC3, 0x28] + Array("12345678".utf8),
  ]

  static func validate(_ bytes: [UInt8], chunk: Int) -> Bool {
    var validator = UTF8Validator()
    var start = 0
    while start < bytes.count {
      let end = min(bytes.count, start + chunk)
      guard validator.feed(bytes[start..<end]) else { return false }
      start = end
    }
    return validator.isComplete
  }

  @Test(arguments: [1, 2, 3, 5, 8, 1000])
  func agreesWithTheStandardLibrary(chunk: Int) {
    for sample in Self.samples {
      let expected = String(validating: sample, as: UTF8.self) != nil
      #expect(Self.validate(sample, chunk: chunk) == expected, "\(sample) in chunks of \(chunk)")
    }
  }

  @Test func agreesOnEveryTwoAndThreeByteSequence() {
    var disagreements = 0
    for a in UInt8(0x80)...0xFF {
      for b in UInt8(0x00)...0xFF {
        let pair = [a, b]
        if Self.validate(pair, chunk: 1) != (String(validating: pair, as: UTF8.self) != nil) {
          disagreements += 1
        }
        let triple = [a, b, 0x80]
        if Self.validate(triple, chunk: 2) != (String(validating: triple, as: UTF8.self) != nil) {
          disagreements += 1
        }
      }
    }
    #expect(disagreements == 0)
  }

  @Test func failsAtTheFirstBadChunk() {
    var validator = UTF8Validator()
    let first = validator.feed(Array("κό".utf8))
    let second = validator.feed([0xCF])
    #expect(first && second)
    #expect(!validator.isComplete)
    let third = validator.feed([0x28])
    #expect(!third)
  }
}

/// Text is checked while a frame's payload is still arriving.
@Suite struct PartialTextTests {
  @Test func theParserShowsThePayloadSoFarOfAnUnmaskedFrame() throws {
    var parser = FrameParser(role: .client, maximumFrameSize: 1 << 20)
    parser.append(serverFrame(.text, Array("hello world".utf8)).prefix(7))
    #expect(try parser.next() == nil)
    let partial = try #require(parser.partialFrame)
    #expect(partial.opcode == .text)
    #expect(Array(partial.received) == Array("hello".utf8))
    #expect(partial.serial == parser.frameSerial)
  }

  @Test func invalidBytesInAPartialTextFrameFailAtOnce() throws {
    var parser = FrameParser(role: .client, maximumFrameSize: 1 << 20)
    var assembler = MessageAssembler(maximumMessageSize: 1 << 20)
    let frame = serverFrame(.text, Array("κόσμε".utf8) + [0xF4, 0x90, 0x80, 0x80] + Array("edited".utf8))
    let kosmeEnd = 2 + "κόσμε".utf8.count
    parser.append(frame[..<kosmeEnd])
    #expect(try parser.next() == nil)
    try assembler.inspect(parser.partialFrame)  // valid so far
    parser.append(frame[kosmeEnd..<kosmeEnd + 2])
    #expect(try parser.next() == nil)
    #expect(throws: FrameError.invalidUTF8) { try assembler.inspect(parser.partialFrame) }
  }

  @Test func aPartialContinuationOfTextContinuesTheMessagesState() throws {
    var parser = FrameParser(role: .client, maximumFrameSize: 1 << 20)
    var assembler = MessageAssembler(maximumMessageSize: 1 << 20)
    // "é" split between the first fragment and the continuation that is still arriving.
    parser.append(serverFrame(.text, [0x61, 0xC3], fin: false))
    let first = try #require(try parser.next())
    #expect(try assembler.receive(first) == nil)
    let continuation = serverFrame(.continuation, [0xA9, 0x62, 0x63])
    parser.append(continuation.prefix(3))
    #expect(try parser.next() == nil)
    try assembler.inspect(parser.partialFrame)  // A9 completes the "é"
    parser.append(continuation.dropFirst(3))
    let last = try #require(try parser.next())
    #expect(try assembler.receive(last) == .message(.text("aébc")))
  }

  @Test func binaryAndControlFramesAreNotInspected() throws {
    var parser = FrameParser(role: .client, maximumFrameSize: 1 << 20)
    var assembler = MessageAssembler(maximumMessageSize: 1 << 20)
    parser.append(serverFrame(.binary, [0xFF, 0xFE, 0xFD, 0xFC]).prefix(4))
    #expect(try parser.next() == nil)
    try assembler.inspect(parser.partialFrame)
  }
}
