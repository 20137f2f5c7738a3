import TestSupport
import Testing
import TickerSupport

@testable import WebSocketClient
@testable import WebSocketWire

/// Parses `bytes` in chunks and runs every frame through an assembler; the same bytes through
/// `MessageAssembler.next(from:)` must give the same events and the same error.
func assemble(
  _ bytes: [UInt8], chunk: Int, maximumMessageSize: Int = 1 << 20
) throws(FrameError) -> [MessageAssembler.Event] {
  let framewise = assembleOutcome(bytes, chunk: chunk, maximumMessageSize: maximumMessageSize, inPlace: false)
  let inPlace = assembleOutcome(bytes, chunk: chunk, maximumMessageSize: maximumMessageSize, inPlace: true)
  #expect(framewise.events == inPlace.events)
  #expect(framewise.error == inPlace.error)
  if let error = framewise.error { throw error }
  return framewise.events
}

/// The events until the first error, and that error: frame by frame (`FrameParser.next()` then
/// `MessageAssembler.receive(_:)`), or `inPlace` (`MessageAssembler.next(from:)`).
func assembleOutcome(
  _ bytes: [UInt8], chunk: Int, maximumMessageSize: Int = 1 << 20, inPlace: Bool
) -> (events: [MessageAssembler.Event], error: FrameError?) {
  var parser = FrameParser(role: .client, maximumFrameSize: 1 << 20)
  var assembler = MessageAssembler(maximumMessageSize: maximumMessageSize)
  var events: [MessageAssembler.Event] = []
  var index = 0
  do throws(FrameError) {
    repeat {
      let end = index + min(chunk, bytes.count - index)
      parser.append(bytes[index..<end])
      index = end
      if inPlace {
        while let event = try assembler.next(from: &parser) { events.append(event) }
      } else {
        while let frame = try parser.next() {
          if let event = try assembler.receive(frame) { events.append(event) }
        }
      }
    } while index < bytes.count
  } catch {
    return (events, error)
  }
  return (events, nil)
}

func serverFrame(_ opcode: Opcode, _ payload: [UInt8], fin: Bool = true) -> [UInt8] {
  FrameEncoder.encodeServerFrame(Frame(fin: fin, opcode: opcode, payload: payload))
}

@Suite(.ownThread) struct MessageAssemblerTests {
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

  /// Random frame sequences — text (valid, invalid, split UTF-8), binary, fragments, control
  /// frames, oversized messages, frames collected apart (over 256 KiB) — in random chunks: a
  /// whole text message made in place is what the frame-by-frame path makes of it, and every
  /// error comes at the same point.
  @Test(arguments: 0..<4) func inPlaceAgreesWithFrameByFrame(seed: UInt64) {
    var random = SplitMix64(seed: seed &+ 1)
    func next() -> UInt64 { random.next() }
    let texts: [[UInt8]] = [
      Array(#"{"data":[{"c":null,"p":95372.09,"s":"BINANCE:BTCUSDT","t":1,"v":0.5}],"type":"trade"}"#.utf8),
      [], Array("€uro κόσμε".utf8), [0x48, 0xC3, 0x28], [0xE2, 0x82], [0x82, 0xAC], [0xFF],
      [0xED, 0xA0, 0x80],
      Array(repeating: UInt8(ascii: "a"), count: 300 << 10),
    ]
    var answered = 0
    for _ in 0..<300 {
      var bytes: [UInt8] = []
      for _ in 0..<(1 + next() % 6) {
        let payload = texts[Int(next() % UInt64(texts.count))]
        switch next() % 8 {
        case 0: bytes += serverFrame(.binary, payload)
        case 1: bytes += serverFrame(.text, payload, fin: false)
        case 2: bytes += serverFrame(.continuation, payload, fin: next() % 2 == 0)
        case 3: bytes += serverFrame(.ping, Array(payload.prefix(100)))
        default: bytes += serverFrame(.text, payload)
        }
      }
      // Chunks of 1 and 7 bytes are for the small sequences: through a 300 KiB message they
      // cost seconds each in a debug build, on the test pool every other test shares.
      let chunks = bytes.count > 64 << 10 ? [100, 4096, 65536, Int.max] : [1, 7, 100, 4096, 65536, Int.max]
      let chunk = chunks[Int(next() % UInt64(chunks.count))]
      let limit = next() % 4 == 0 ? 50 : 1 << 20
      let framewise = assembleOutcome(bytes, chunk: chunk, maximumMessageSize: limit, inPlace: false)
      let inPlace = assembleOutcome(bytes, chunk: chunk, maximumMessageSize: limit, inPlace: true)
      #expect(framewise.events == inPlace.events)
      #expect(framewise.error == inPlace.error)
      answered += framewise.events.count
    }
    #expect(answered > 100)
  }
}
