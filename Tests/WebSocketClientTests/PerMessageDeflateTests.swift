import TestSupport
import Testing

@testable import WebSocketClient
@testable import WebSocketWire

/// permessage-deflate's negotiation (RFC 7692 §5, §7.1), its framing rules (§6) and its data
/// (§7.2), with the RFC's own examples as the reference bytes.
@Suite(.ownThread) struct PerMessageDeflateTests {
  // MARK: - The client's view of the server's answer

  static let accepted: [(values: [String], agreed: PerMessageDeflate)] = [
    (["permessage-deflate"], PerMessageDeflate()),
    (["PerMessage-Deflate"], PerMessageDeflate(agreement: "permessage-deflate")),
    (
      [
        "permessage-deflate; server_no_context_takeover; client_no_context_takeover; "
          + "server_max_window_bits=10; client_max_window_bits=9"
      ],
      PerMessageDeflate(
        inboundNoContextTakeover: true, inboundWindowBits: 10, outboundNoContextTakeover: true,
        outboundWindowBits: 9,
        agreement: "permessage-deflate; server_no_context_takeover; client_no_context_takeover; "
          + "server_max_window_bits=10; client_max_window_bits=9")
    ),
    // A quoted value is the token inside the quotes (RFC 6455 §9.1).
    (
      [#"permessage-deflate;client_max_window_bits="10""#],
      PerMessageDeflate(outboundWindowBits: 10, agreement: "permessage-deflate; client_max_window_bits=10")
    ),
    // An 8-bit server window is inflated with a 9-bit one (a larger window reads it).
    (
      ["permessage-deflate; server_max_window_bits=8"],
      PerMessageDeflate(inboundWindowBits: 9, agreement: "permessage-deflate; server_max_window_bits=8")
    ),
    // Empty list elements and a second, empty header field are nothing.
    ([" , permessage-deflate ,", ""], PerMessageDeflate()),
  ]

  @Test(arguments: 0..<accepted.count) func validAnswersAreAgreedTo(_ index: Int) throws {
    let (values, agreed) = Self.accepted[index]
    #expect(try PerMessageDeflate.clientAgreement(to: values, offered: true) == agreed)
  }

  @Test func noAnswerMeansNoCompression() throws {
    #expect(try PerMessageDeflate.clientAgreement(to: [], offered: true) == nil)
    #expect(try PerMessageDeflate.clientAgreement(to: [""], offered: true) == nil)
    #expect(try PerMessageDeflate.clientAgreement(to: [], offered: false) == nil)
  }

  static let refused: [(values: [String], offered: Bool, says: String)] = [
    (["permessage-deflate"], false, "permessage-deflate"),
    (["x-webkit-deflate-frame"], true, "x-webkit-deflate-frame"),
    (["permessage-deflate, x-custom"], true, "x-custom"),
    (["permessage-deflate", "permessage-deflate"], true, "2 times"),
    (["permessage-deflate; foo"], true, "unknown permessage-deflate parameter foo"),
    (["permessage-deflate; server_no_context_takeover; server_no_context_takeover"], true, "twice"),
    (["permessage-deflate; server_no_context_takeover=1"], true, "takes no value"),
    (["permessage-deflate; client_no_context_takeover=true"], true, "takes no value"),
    (["permessage-deflate; server_max_window_bits"], true, "needs a value"),
    (["permessage-deflate; client_max_window_bits"], true, "needs a value"),
    (["permessage-deflate; server_max_window_bits=16"], true, "not a window size"),
    (["permessage-deflate; server_max_window_bits=7"], true, "not a window size"),
    (["permessage-deflate; server_max_window_bits=09"], true, "not a window size"),
    (["permessage-deflate; client_max_window_bits=+9"], true, "not a window size"),
    (["permessage-deflate; client_max_window_bits=8"], true, "zlib cannot compress with"),
    (["permessage-deflate;"], true, "expected a parameter name"),
    (["permessage-deflate; client_max_window_bits=\"1 0\""], true, "not a token"),
    (["permessage-deflate; client_max_window_bits=\"10"], true, "unterminated"),
    (["permessage-deflate client_max_window_bits"], true, "expected"),
  ]

  /// RFC 7692 §5: a client fails the connection on an answer that is not a valid acceptance of
  /// its offer; an extension it did not offer is refused as before.
  @Test(arguments: 0..<refused.count) func invalidAnswersFailTheHandshake(_ index: Int) {
    let (values, offered, says) = Self.refused[index]
    #expect {
      _ = try PerMessageDeflate.clientAgreement(to: values, offered: offered)
    } throws: { error in
      switch error as? HandshakeError {
      case .invalidExtension(let why): why.contains(says)
      case .unexpectedExtension(let what): what.contains(says)
      default: false
      }
    }
  }

  @Test func theOfferAsksForNothingButLetsTheServerChooseOurWindow() throws {
    let url = try WebSocketURL(parsing: "ws://example.com/")
    let request = String(
      decoding: Handshake.request(for: url, key: "k", headers: [], offerDeflate: true), as: UTF8.self)
    #expect(request.contains("\r\nSec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n"))
    let plain = String(decoding: Handshake.request(for: url, key: "k", headers: []), as: UTF8.self)
    #expect(!plain.contains("Sec-WebSocket-Extensions"))
  }

  // MARK: - The server's answer to an offer

  @Test func serverAnswersTheFirstOfferItCanAccept() throws {
    let policy = PerMessageDeflate.ServerPolicy()
    let plain = try #require(
      PerMessageDeflate.serverAgreement(to: [PerMessageDeflate.clientOffer], policy: policy))
    #expect(plain.response == "permessage-deflate")
    #expect(plain.agreed == PerMessageDeflate(agreement: "permessage-deflate"))
    // The first offer has an unknown parameter, the second an 8-bit server window (zlib cannot):
    // the third is taken, and its request for no server context takeover is honoured.
    let offers = [
      "permessage-deflate; x=1, permessage-deflate; server_max_window_bits=8",
      "permessage-deflate; server_no_context_takeover; client_max_window_bits=11",
    ]
    let strict = PerMessageDeflate.ServerPolicy(
      clientNoContextTakeover: true, serverMaxWindowBits: 12, clientMaxWindowBits: 13)
    let answer = try #require(PerMessageDeflate.serverAgreement(to: offers, policy: strict))
    #expect(
      answer.response
        == "permessage-deflate; server_no_context_takeover; client_no_context_takeover; "
        + "server_max_window_bits=12; client_max_window_bits=11")
    #expect(answer.agreed.outboundNoContextTakeover && answer.agreed.inboundNoContextTakeover)
    #expect(answer.agreed.outboundWindowBits == 12 && answer.agreed.inboundWindowBits == 15)
    // Without client_max_window_bits in the offer the server must not send it.
    let noClientBits = try #require(
      PerMessageDeflate.serverAgreement(to: ["permessage-deflate"], policy: strict))
    #expect(!noClientBits.response.contains("client_max_window_bits"))
    #expect(PerMessageDeflate.serverAgreement(to: ["x-webkit-deflate-frame"], policy: policy) == nil)
    #expect(PerMessageDeflate.serverAgreement(to: ["permessage-deflate;;"], policy: policy) == nil)
  }

  /// What our server answers, our client agrees to, with the sides' parameters mirrored.
  @Test func serverAnswerIsAValidAnswerForTheClient() throws {
    let policy = PerMessageDeflate.ServerPolicy(
      serverNoContextTakeover: true, serverMaxWindowBits: 10, clientMaxWindowBits: 9)
    let answer = try #require(
      PerMessageDeflate.serverAgreement(to: [PerMessageDeflate.clientOffer], policy: policy))
    let client = try #require(try PerMessageDeflate.clientAgreement(to: [answer.response], offered: true))
    #expect(client.inboundNoContextTakeover == answer.agreed.outboundNoContextTakeover)
    #expect(client.inboundWindowBits == answer.agreed.outboundWindowBits)
    #expect(client.outboundWindowBits == 9)
  }

  // MARK: - Data: the RFC 7692 §7.2.3 examples

  static let helloCompressed = hex("f2 48 cd c9 c9 07 00")

  func inflate(_ payloads: [[UInt8]], inflater: Inflater, limit: Int = 1 << 20) throws -> [String] {
    try payloads.map { payload in
      var out: [UInt8] = []
      try inflater.inflate(payload, into: &out, limit: limit)
      try inflater.finishMessage(into: &out, limit: limit)
      return String(decoding: out, as: UTF8.self)
    }
  }

  @Test func rfcExamplesInflate() throws {
    // §7.2.3.1, §7.2.3.3 (a stored block), §7.2.3.5 (two blocks in one message).
    for example in [
      Self.helloCompressed, hex("00 05 00 fa ff 48 65 6c 6c 6f"),
      hex("f2 48 05 00 00 00 ff ff ca c9 c9 07 00"),
    ] {
      #expect(try inflate([example], inflater: Inflater(windowBits: 15)) == ["Hello"])
    }
    // §7.2.3.2: the second "Hello" refers back to the first.
    let shared = Inflater(windowBits: 15)
    #expect(
      try inflate([Self.helloCompressed, hex("f2 00 11 00 00")], inflater: shared) == ["Hello", "Hello"])
  }

  /// §7.2.3.4: a message may end its DEFLATE stream (BFINAL); the next one may still refer to its
  /// window, which is carried over.
  @Test func windowSurvivesAFinalBlock() throws {
    let inflater = Inflater(windowBits: 15)
    #expect(
      try inflate([hex("f3 48 cd c9 c9 07 00 00"), hex("f2 00 11 00 00")], inflater: inflater) == [
        "Hello", "Hello",
      ])
  }

  @Test func deflaterMatchesTheRFCBytes() {
    let deflater = Deflater(windowBits: 15)
    #expect(deflater.compress(Array("Hello".utf8)) == Self.helloCompressed)
    #expect(deflater.compress(Array("Hello".utf8)) == hex("f2 00 11 00 00"))
    deflater.reset()
    #expect(deflater.compress(Array("Hello".utf8)) == Self.helloCompressed)
  }

  @Test func invalidDataIsRefused() {
    #expect(throws: FrameError.invalidCompressedData) {
      _ = try inflate([hex("ff ff ff ff")], inflater: Inflater(windowBits: 15))
    }
    #expect(FrameError.invalidCompressedData.closeCode == .invalidFramePayloadData)
  }

  /// No context takeover: after each message the window is forgotten, so a reference into the
  /// previous message is invalid data.
  @Test func resetForgetsTheWindow() throws {
    let inflater = Inflater(windowBits: 15)
    #expect(try inflate([Self.helloCompressed], inflater: inflater) == ["Hello"])
    inflater.reset()
    #expect(throws: FrameError.invalidCompressedData) {
      _ = try inflate([hex("f2 00 11 00 00")], inflater: inflater)
    }
  }

  /// 16 MiB of zeros is about 16 KiB compressed; with a 1 MiB limit, inflating stops at the first
  /// piece past it: at most the limit is ever held.
  @Test func bombStopsAtTheLimit() throws {
    let bomb = Deflater(windowBits: 15).compress([UInt8](repeating: 0, count: 16 << 20))
    #expect(bomb.count < 32 << 10)
    var out: [UInt8] = []
    #expect {
      try Inflater(windowBits: 15).inflate(bomb, into: &out, limit: 1 << 20)
    } throws: { error in
      guard case .messageTooLarge(let size) = error as? FrameError else { return false }
      return size > 1 << 20 && size <= (1 << 20) + UInt64(Inflater.pieceSize)
    }
    #expect(out.count <= 1 << 20)
  }

  // MARK: - Frames and messages

  func parse(_ bytes: [UInt8], deflate: PerMessageDeflate?, limit: Int = 1 << 20) throws(FrameError)
    -> [MessageAssembler.Event]
  {
    var parser = FrameParser(role: .client, maximumFrameSize: limit, allowsCompression: deflate != nil)
    var assembler = MessageAssembler(maximumMessageSize: limit, inflation: deflate)
    parser.append(bytes)
    var events: [MessageAssembler.Event] = []
    while let event = try assembler.next(from: &parser) { events.append(event) }
    return events
  }

  /// `parse` frame by frame (`FrameParser.next()`, then `MessageAssembler.receive`), the way
  /// `next(from:)` does not take for a whole compressed message: the two must agree.
  func parseFramewise(_ bytes: [UInt8], deflate: PerMessageDeflate?) throws(FrameError) -> [MessageAssembler
    .Event]
  {
    var parser = FrameParser(role: .client, maximumFrameSize: 1 << 20, allowsCompression: deflate != nil)
    var assembler = MessageAssembler(maximumMessageSize: 1 << 20, inflation: deflate)
    parser.append(bytes)
    var events: [MessageAssembler.Event] = []
    while let frame = try parser.next() {
      if let event = try assembler.receive(frame) { events.append(event) }
    }
    return events
  }

  /// A stream of compressed messages with context takeover, without, and interleaved with plain
  /// ones: in place and frame by frame give the same messages.
  @Test(arguments: [false, true]) func inPlaceAndFramewiseAgree(noContextTakeover: Bool) throws {
    let agreed = PerMessageDeflate(inboundNoContextTakeover: noContextTakeover)
    var compressor = MessageCompressor(
      agreed: PerMessageDeflate(outboundNoContextTakeover: noContextTakeover))
    var bytes: [UInt8] = []
    var expected: [MessageAssembler.Event] = []
    for i in 0..<50 {
      let text =
        #"{"data":[{"p":\#(95000 + i),"s":"BINANCE:BTCUSDT","t":\#(1_768_655_932_976 + i)}],"type":"trade"}"#
      let frame = compressor.encode(Frame(opcode: i % 7 == 3 ? .binary : .text, payload: Array(text.utf8)))
      bytes += FrameEncoder.encodeServerFrame(
        i % 5 == 4 ? Frame(opcode: .text, payload: Array(text.utf8)) : frame)
      if i % 5 == 4 {
        compressor = MessageCompressor(agreed: PerMessageDeflate(outboundNoContextTakeover: true))
      }
      expected.append(.message(i % 7 == 3 && i % 5 != 4 ? .binary(Array(text.utf8)) : .text(text)))
    }
    #expect(try parse(bytes, deflate: agreed) == expected)
    #expect(try parseFramewise(bytes, deflate: agreed) == expected)
  }

  @Test func compressedMessagesInOneFrameOrFragmented() throws {
    let agreed = PerMessageDeflate()
    // RSV1 on the first frame; the continuation carries the rest of the DEFLATE data.
    #expect(try parse(hex("c1 07") + Self.helloCompressed, deflate: agreed) == [.message(.text("Hello"))])
    #expect(
      try parse(hex("41 03 f2 48 cd 80 04 c9 c9 07 00"), deflate: agreed) == [.message(.text("Hello"))])
    // A ping between the fragments, and an uncompressed message after.
    #expect(
      try parse(hex("42 03 f2 48 cd 89 00 80 04 c9 c9 07 00 81 02 68 69"), deflate: agreed) == [
        .ping([]), .message(.binary(Array("Hello".utf8))), .message(.text("hi")),
      ])
  }

  static let rsvMisuse: [(bytes: String, negotiated: Bool, error: FrameError)] = [
    ("c1 07 f2 48 cd c9 c9 07 00", false, .reservedBitsSet(0b100)),  // not agreed
    ("41 03 f2 48 cd c0 04 c9 c9 07 00", true, .reservedBitsSet(0b100)),  // RSV1 on a continuation
    ("c9 00", true, .reservedBitsSet(0b100)),  // on a ping
    ("c8 02 03 e8", true, .reservedBitsSet(0b100)),  // on a close
    ("a1 00", true, .reservedBitsSet(0b010)),  // RSV2
    ("91 00", true, .reservedBitsSet(0b001)),  // RSV3
    ("e1 00", true, .reservedBitsSet(0b110)),
  ]

  /// RFC 7692 §6: RSV1 marks the first frame of a compressed message, nothing else; any other
  /// RSV bit, or RSV1 without the extension, is a protocol error (1002).
  @Test(arguments: 0..<rsvMisuse.count) func rsvMisuseIsAProtocolError(_ index: Int) {
    let (bytes, negotiated, error) = Self.rsvMisuse[index]
    #expect(throws: error) { _ = try parse(hex(bytes), deflate: negotiated ? PerMessageDeflate() : nil) }
    #expect(error.closeCode == .protocolError)
  }

  @Test func inflatedTextMustBeUTF8() throws {
    let invalid = Deflater(windowBits: 15).compress([0x48, 0xC3, 0x28])
    #expect(throws: FrameError.invalidUTF8) {
      _ = try parse([0xC1, UInt8(invalid.count)] + invalid, deflate: PerMessageDeflate())
    }
  }

  /// The limit is on the inflated size: a compressed frame far under it is refused once
  /// inflating passes it.
  @Test func limitAppliesToTheInflatedSize() throws {
    let payload = Deflater(windowBits: 15).compress([UInt8](repeating: 0x61, count: 70_000))
    let frame = FrameEncoder.encodeServerFrame(Frame(rsv: 0b100, opcode: .text, payload: payload))
    #expect(payload.count < 1000)
    #expect(throws: FrameError.messageTooLarge(70_000)) {
      _ = try parse(frame, deflate: PerMessageDeflate(), limit: 65_536)
    }
    #expect(
      try parse(frame, deflate: PerMessageDeflate(), limit: 70_000) == [
        .message(.text(String(repeating: "a", count: 70_000)))
      ])
  }

  // MARK: - What we send

  /// A message that does not get smaller goes out as it is, and the deflater forgets it (the
  /// peer never saw it): a later message that repeats it still inflates on the peer's side.
  @Test func compressOnlyWhenItHelps() throws {
    var compressor = MessageCompressor(agreed: PerMessageDeflate(), windowBits: 12, memoryLevel: 4)
    let peer = Inflater(windowBits: 15)
    var random = SystemRandomNumberGenerator()
    let noise = (0..<1000).map { _ in UInt8.random(in: 0...255, using: &random) }
    let first = compressor.encode(
      Frame(opcode: .text, payload: Array(String(repeating: "subscribe ", count: 9).utf8)))
    let raw = compressor.encode(Frame(opcode: .binary, payload: noise))
    let again = compressor.encode(Frame(opcode: .binary, payload: noise + noise))
    #expect(first.rsv == 0b100 && raw.rsv == 0 && again.rsv == 0b100)
    #expect(raw.payload == noise)
    #expect(again.payload.count < noise.count + 100)
    var out: [UInt8] = []
    try peer.inflate(first.payload + Inflater.tail, into: &out, limit: 1 << 20)
    #expect(out == Array(String(repeating: "subscribe ", count: 9).utf8))
    out = []
    try peer.inflate(again.payload + Inflater.tail, into: &out, limit: 1 << 20)
    #expect(out == noise + noise)
    // Control frames, fragments and empty messages are never compressed.
    for frame in [
      Frame(opcode: .ping, payload: Array(repeating: 0x61, count: 100)),
      Frame(fin: false, opcode: .text, payload: Array(repeating: 0x61, count: 100)), Frame(opcode: .text),
    ] {
      #expect(compressor.encode(frame) == frame)
    }
  }

  /// With client_no_context_takeover every message stands alone: each inflates with a fresh
  /// inflater.
  @Test func noContextTakeoverOnOurSide() throws {
    var compressor = MessageCompressor(agreed: PerMessageDeflate(outboundNoContextTakeover: true))
    let text = Array(String(repeating: "BINANCE:BTCUSDT ", count: 8).utf8)
    for _ in 0..<3 {
      let frame = compressor.encode(Frame(opcode: .text, payload: text))
      #expect(frame.rsv == 0b100)
      var out: [UInt8] = []
      try Inflater(windowBits: 15).inflate(frame.payload + Inflater.tail, into: &out, limit: 1 << 20)
      #expect(out == text)
    }
  }
}
