import Testing

@testable import WebSocketClient
@testable import WebSocketWire

/// The ASCII fast path of text messages must not change what is accepted: a non-ASCII byte at
/// any position (inside the 8-byte words or in the tail) goes to full UTF-8 validation.
@Suite struct TextValidationTests {
  func assemble(_ payload: [UInt8]) throws(FrameError) -> WebSocketMessage? {
    var assembler = MessageAssembler(maximumMessageSize: 1 << 20)
    guard case .message(let message)? = try assembler.receive(Frame(opcode: .text, payload: payload)) else {
      return nil
    }
    return message
  }

  @Test(arguments: 0..<20)
  func validMultiByteAnywhere(position: Int) throws {
    var text = String(repeating: "a", count: 19)
    text.insert("é", at: text.index(text.startIndex, offsetBy: position))
    #expect(try assemble(Array(text.utf8)) == .text(text))
  }

  @Test(arguments: 0..<20)
  func invalidByteAnywhere(position: Int) {
    var bytes = Array(repeating: UInt8(ascii: "a"), count: 20)
    bytes[position] = 0xC0
    #expect(throws: FrameError.invalidUTF8) { try assemble(bytes) }
  }

  @Test(arguments: [0, 1, 7, 8, 9, 16, 17])
  func asciiOfEveryLength(length: Int) throws {
    let bytes = (0..<length).map { UInt8(0x20 + $0 % 90) }
    #expect(MessageAssembler.isASCII(bytes))
    #expect(try assemble(bytes) == .text(String(decoding: bytes, as: UTF8.self)))
  }

  /// The word-at-a-time check finds a non-ASCII byte wherever it is, whatever the length (the
  /// 32-byte steps, the 8-byte steps and the overlapping last word).
  @Test func asciiCheckFindsEveryHighByte() {
    for length in 0..<80 {
      let plain = (0..<length).map { UInt8(0x20 + $0 % 90) }
      #expect(MessageAssembler.isASCII(plain), "\(length)")
      for position in 0..<length {
        for high: UInt8 in [0x80, 0xC3, 0xFF] {
          var bytes = plain
          bytes[position] = high
          #expect(!MessageAssembler.isASCII(bytes), "\(length) \(position)")
        }
      }
    }
  }
}
