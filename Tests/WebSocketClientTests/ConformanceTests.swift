import TestSupport
import Testing

@testable import WebSocketClient
@testable import WebSocketWire

/// RFC 6455 conformance of the native engine, modelled on the Autobahn|Testsuite client cases
/// (case numbers follow its groups). Each case is a real connection to `Tests/Support/raw_peer.py`,
/// which sends exact (often malformed) bytes and reports what our client sent back; the tests
/// check both sides: what `messages` yielded or threw, and the pongs and close frame the peer saw.
/// Every report is also checked for unmasked client frames and repeated masking keys.
/// The time limit only bounds a hang.
@Suite(.requires(.pythonWebsockets), .timeLimit(.minutes(1)), .ownThread)
struct ConformanceTests {
  /// A case the peer ends with close 1000 "done" after the data: the stream finishes normally.
  struct CleanCase: Sendable, CustomTestStringConvertible {
    var id: String
    var note: String
    var messages: [WebSocketMessage]
    /// The payloads of the pongs the client must send, in order.
    var pongs: [[UInt8]] = []
    var testDescription: String { "\(id) \(note)" }
  }

  /// A case with a violation: the client must fail the connection with `code`.
  struct FailingCase: Sendable, CustomTestStringConvertible {
    var id: String
    var note: String
    var error: FrameError
    var code: Int
    /// Messages that arrive intact before the violation.
    var messages: [WebSocketMessage] = []
    var testDescription: String { "\(id) \(note)" }
  }

  static let done = CloseStatus(code: .normalClosure, reason: "done")
  static let sizes = [0, 125, 126, 127, 128, 65535, 65536, 1 << 20]
  static let kosme = "κόσμε"

  // MARK: 1 Framing

  @Test("1.1 text message of n bytes", arguments: sizes)
  func textMessageOfSize(_ size: Int) async throws {
    try await expectClean(CleanCase(id: "1.text.\(size)", note: "", messages: [.text(textPayload(size))]))
  }

  @Test("1.2 binary message of n bytes", arguments: sizes)
  func binaryMessageOfSize(_ size: Int) async throws {
    try await expectClean(
      CleanCase(id: "1.binary.\(size)", note: "", messages: [.binary(binaryPayload(size))]))
  }

  static let framingCases = [
    CleanCase(
      id: "1.3.1", note: "five messages in one TCP write",
      messages: [.text("one"), .binary([1, 2, 3]), .text("three"), .binary([]), .text(textPayload(300))]),
    CleanCase(id: "1.3.2", note: "a 200-byte frame one byte per write", messages: [.text(textPayload(200))]),
    CleanCase(
      id: "1.3.3", note: "fragments and a ping one byte per write",
      messages: [.text("Hello, byte by byte")], pongs: [Array("p".utf8)]),
  ]

  @Test("1.3 frame boundaries and TCP writes", arguments: framingCases)
  func framing(_ c: CleanCase) async throws { try await expectClean(c) }

  // MARK: 2 Pings and pongs

  static let pingCases = [
    CleanCase(id: "2.1", note: "empty ping", messages: [], pongs: [[]]),
    CleanCase(id: "2.2", note: "text ping", messages: [], pongs: [Array("Hello, world!".utf8)]),
    CleanCase(
      id: "2.3", note: "binary ping", messages: [], pongs: [[0x00, 0xFF, 0xFE, 0xFD, 0xFC, 0xFB, 0x00, 0xFF]]),
    CleanCase(id: "2.4", note: "125-byte ping", messages: [], pongs: [binaryPayload(125)]),
    CleanCase(id: "2.6", note: "125-byte ping one byte per write", messages: [], pongs: [binaryPayload(125)]),
    CleanCase(id: "2.7", note: "unsolicited empty pong is ignored", messages: [.text("after pong")]),
    CleanCase(id: "2.8", note: "unsolicited pong with payload is ignored", messages: [.text("after pong")]),
    CleanCase(
      id: "2.9", note: "10 pings in a row", messages: [], pongs: (0..<10).map { Array("ping \($0)".utf8) }),
  ]

  @Test("2 pings are answered with pongs echoing the payload", arguments: pingCases)
  func pings(_ c: CleanCase) async throws { try await expectClean(c) }

  @Test("2.5 ping with a 126-byte payload fails with 1002")
  func oversizedPing() async throws {
    try await expectFailure(FailingCase(id: "2.5", note: "", error: .controlFrameTooLarge(126), code: 1002))
  }

  // MARK: 3 Reserved bits, 4 reserved opcodes

  /// RSV1 is 4, RSV2 is 2, RSV3 is 1 (bits 6, 5, 4 of the first byte).
  @Test(
    "3 reserved bits on text, binary, ping and close fail with 1002", arguments: [1, 2, 9, 8], [4, 2, 1])
  func reservedBits(opcode: Int, rsv: Int) async throws {
    try await expectFailure(
      FailingCase(
        id: "3.rsv.\(opcode).\(rsv)", note: "", error: .reservedBitsSet(UInt8(rsv)), code: 1002,
        messages: [.text("hello")]))
  }

  /// The peer follows the reserved opcode with a ping that must not be answered.
  @Test("4 reserved opcodes fail with 1002", arguments: [3, 4, 5, 6, 7, 11, 12, 13, 14, 15])
  func reservedOpcode(_ opcode: Int) async throws {
    try await expectFailure(
      FailingCase(
        id: "4.opcode.\(opcode)", note: "", error: .unknownOpcode(UInt8(opcode)), code: 1002,
        messages: [.text("hello")]))
  }

  // MARK: 5 Fragmentation

  static let fragmentationCases = [
    CleanCase(id: "5.1", note: "text in 2 fragments", messages: [.text("Hello, world")]),
    CleanCase(id: "5.2", note: "text in 27 fragments", messages: [.text("fragmented into many pieces")]),
    CleanCase(id: "5.3", note: "binary in 2 fragments", messages: [.binary([0, 1, 2, 3, 0xFF])]),
    CleanCase(
      id: "5.4", note: "a ping between fragments", messages: [.text("Hello, world")],
      pongs: [Array("in between".utf8)]),
    CleanCase(
      id: "5.5", note: "pings and a pong between fragments", messages: [.text("abc")],
      pongs: [Array("one".utf8), Array("two".utf8)]),
    CleanCase(id: "5.6", note: "empty first fragment", messages: [.text("Hello")]),
    CleanCase(id: "5.7", note: "empty middle fragment", messages: [.text("Hello")]),
    CleanCase(id: "5.8", note: "empty last fragment", messages: [.text("Hello")]),
    CleanCase(id: "5.9", note: "every fragment empty", messages: [.text("")]),
  ]

  @Test("5 fragmented messages are reassembled", arguments: fragmentationCases)
  func fragmentation(_ c: CleanCase) async throws { try await expectClean(c) }

  static let badFragmentationCases = [
    FailingCase(id: "5.10", note: "continuation with no message", error: .unexpectedContinuation, code: 1002),
    FailingCase(
      id: "5.11", note: "non-final continuation with no message", error: .unexpectedContinuation, code: 1002),
    FailingCase(id: "5.12", note: "text while a message is open", error: .expectedContinuation, code: 1002),
    FailingCase(id: "5.13", note: "binary while a message is open", error: .expectedContinuation, code: 1002),
    FailingCase(id: "5.14", note: "fragmented ping", error: .fragmentedControlFrame, code: 1002),
    FailingCase(id: "5.15", note: "fragmented pong", error: .fragmentedControlFrame, code: 1002),
    FailingCase(id: "5.16", note: "fragmented close", error: .fragmentedControlFrame, code: 1002),
  ]

  @Test("5 broken fragmentation fails with 1002", arguments: badFragmentationCases)
  func badFragmentation(_ c: FailingCase) async throws { try await expectFailure(c) }

  // MARK: 6 UTF-8

  static let utf8Cases = [
    CleanCase(id: "6.1.1", note: "2-byte characters", messages: [.text(kosme)]),
    CleanCase(id: "6.1.2", note: "U+10FFFF", messages: [.text("\u{10FFFF}")]),
    CleanCase(id: "6.1.3", note: "2-, 3- and 4-byte mix", messages: [.text("€ ü 𝄞 Hello-µ@ßöäüàá-UTF-8!!")]),
    CleanCase(
      id: "6.1.4", note: "noncharacters",
      messages: [
        .text(String(decoding: [0xEF, 0xBF, 0xBF, 0xEF, 0xB7, 0x90, 0xEF, 0xBF, 0xBE], as: UTF8.self))
      ]),
    CleanCase(id: "6.2.1", note: "a 2-byte character split between fragments", messages: [.text(kosme)]),
    CleanCase(id: "6.2.2", note: "a 4-byte character in 4 fragments", messages: [.text("𝄞")]),
    CleanCase(id: "6.2.3", note: "one fragment per byte", messages: [.text(kosme)]),
  ]

  @Test("6 valid UTF-8 arrives intact", arguments: utf8Cases)
  func validUTF8(_ c: CleanCase) async throws { try await expectClean(c) }

  static let invalidUTF8Cases = [
    ("6.3.1", "lone continuation byte 80"), ("6.3.2", "overlong C0 80"), ("6.3.3", "surrogate ED A0 80"),
    ("6.3.4", "F5 80 80 80"), ("6.3.5", "FF"), ("6.3.6", "truncated at the end"),
    ("6.3.7", "overlong E0 80 AF"), ("6.3.8", "above U+10FFFF"), ("6.3.9", "surrogate inside valid text"),
    ("6.4.1", "invalid middle fragment"), ("6.4.2", "surrogate split between fragments"),
    ("6.4.3", "truncated last fragment"),
  ].map { FailingCase(id: $0.0, note: $0.1, error: .invalidUTF8, code: 1007) }

  @Test("6 invalid UTF-8 fails with 1007", arguments: invalidUTF8Cases)
  func invalidUTF8(_ c: FailingCase) async throws { try await expectFailure(c) }

  /// Autobahn 6.4.1–6.4.4 strictly: the peer sends the offending fragment (or chop of a single
  /// frame), then waits for our close before it sends the rest. A client that validates only
  /// complete messages would wait for the rest and never close.
  @Test(
    "6.4 invalid UTF-8 fails as soon as the offending bytes arrive",
    arguments: [
      ("6.4.1.strict", "a code point above U+10FFFF in the middle fragment"),
      ("6.4.2.strict", "a surrogate split between fragments"),
      ("6.4.3.strict", "one frame, the invalid bytes in the second chop"),
      ("6.4.4.strict", "one frame, the invalid byte alone in the second chop"),
    ])
  func invalidUTF8FailsFast(id: String, note: String) async throws {
    let played = try await play(id)
    #expect(played.error == .protocolViolation(.invalidUTF8))
    #expect(played.messages.isEmpty)
    #expect(played.report.closeCode == 1007)
    #expect(
      played.report.closedBeforeRest == true, "\(id): the close came only after the rest of the message")
    #expect(played.report.framesBeforeClose.isEmpty)
  }

  // MARK: Delivered before a violation

  /// Autobahn 3.2, 3.3, 4.1.3/4, 4.2.3/4 and 5.15 with an echoing client: the message that came
  /// before the violation is delivered, and the client's echo of it reaches the peer before the
  /// close frame, as with a client that handles frames one at a time.
  @Test(
    "a message before a violation is delivered and answered before the close",
    arguments: [
      ("3.rsv.1.2", "hello", 1002), ("3.rsv.2.1", "hello", 1002), ("3.rsv.9.4", "hello", 1002),
      ("4.opcode.5", "hello", 1002), ("4.opcode.13", "hello", 1002), ("5.15.echo", "fragment", 1002),
      ("6.3.9.echo", "before", 1007),
    ])
  func echoBeforeTheViolation(id: String, text: String, code: Int) async throws {
    let played = try await play(id, echo: true)
    #expect(played.messages == [.text(text)])
    #expect(played.report.closeCode == code)
    #expect(played.report.framesBeforeClose.map(\.opcode) == [1])
    #expect(played.report.framesBeforeClose.first?.payload == Array(text.utf8))
  }

  /// And the same for the peer's close (Autobahn 7.1.x with an echoing client).
  @Test("a message before the peer's close is answered before our close")
  func echoBeforeThePeersClose() async throws {
    let played = try await play("7.1.9", echo: true)
    #expect(played.error == nil)
    #expect(played.messages == [.text("before close")])
    #expect(played.report.framesBeforeClose.map(\.opcode) == [1])
    #expect(played.report.framesBeforeClose.first?.payload == Array("before close".utf8))
    #expect(played.report.closeCode == 1001)
  }

  // MARK: 7 Close

  static let closeCases: [(id: String, note: String, messages: [WebSocketMessage], status: CloseStatus)] = [
    ("7.1.1", "no payload", [], CloseStatus(code: .noStatusReceived)),
    ("7.1.2", "1000 with a reason", [], CloseStatus(code: .normalClosure, reason: "bye")),
    (
      "7.1.3", "123-byte reason", [],
      CloseStatus(code: .normalClosure, reason: String(repeating: "r", count: 123))
    ),
    ("7.1.7", "frames after the close are ignored", [], CloseStatus(code: .normalClosure, reason: "first")),
    (
      "7.1.8", "TCP closed right after the close", [.text("last words")],
      CloseStatus(code: .normalClosure, reason: "hanging up")
    ),
    (
      "7.1.9", "UTF-8 reason after a message", [.text("before close")],
      CloseStatus(code: .goingAway, reason: kosme)
    ),
  ]

  @Test("7.1 the peer's close finishes the stream with its status", arguments: closeCases)
  func peerClose(_ c: (id: String, note: String, messages: [WebSocketMessage], status: CloseStatus))
    async throws
  {
    let hangsUp = c.id == "7.1.8"
    let played = try await play(c.id, peerHangsUp: hangsUp)
    #expect(played.error == nil)
    #expect(played.messages.map(summary) == c.messages.map(summary))
    #expect(played.peerClose == c.status)
    guard !hangsUp else { return }
    // Our answer echoes the code; an empty close is answered with an empty close.
    let code = c.status.code.rawValue
    #expect(played.report.closePayloadHex == (code == 1005 ? "" : hex(code)))
    // No pong for the ping that came after the close (7.1.7).
    #expect(played.report.framesBeforeClose.isEmpty)
  }

  static let badCloseCases = [
    FailingCase(id: "7.1.4", note: "1-byte payload", error: .invalidClosePayload, code: 1002),
    FailingCase(
      id: "7.1.5", note: "124-byte reason (payload 126)", error: .controlFrameTooLarge(126), code: 1002),
    FailingCase(id: "7.1.6", note: "reason not UTF-8", error: .invalidUTF8, code: 1007),
  ]

  @Test("7.1 broken close frames fail the connection", arguments: badCloseCases)
  func badClose(_ c: FailingCase) async throws { try await expectFailure(c) }

  @Test(
    "7.7 valid close codes are echoed",
    arguments: [1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 3000, 3999, 4000, 4999])
  func validCloseCode(_ code: Int) async throws {
    let played = try await play("7.code.\(code)")
    #expect(played.error == nil)
    #expect(played.peerClose == CloseStatus(code: CloseCode(UInt16(code)), reason: "code"))
    #expect(played.report.closeCode == code)
  }

  @Test(
    "7.9 invalid close codes fail with 1002",
    arguments: [0, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000, 65535])
  func invalidCloseCode(_ code: Int) async throws {
    try await expectFailure(
      FailingCase(id: "7.code.\(code)", note: "", error: .invalidCloseCode(UInt16(code)), code: 1002))
  }

  // MARK: 8 Message size limit

  static let limited = ConnectOptions(maximumMessageSize: 1024)

  @Test("8 messages over maximumMessageSize fail with 1009")
  func messageTooLarge() async throws {
    let single = FailingCase(
      id: "8.1", note: "one 2000-byte frame", error: .messageTooLarge(2000), code: 1009)
    let fragmented = FailingCase(id: "8.2", note: "3 × 800 bytes", error: .messageTooLarge(1600), code: 1009)
    try await expectFailure(single, options: Self.limited)
    try await expectFailure(fragmented, options: Self.limited)
  }

  @Test("8.3 messages of exactly maximumMessageSize arrive")
  func messageAtTheLimit() async throws {
    let c = CleanCase(
      id: "8.3", note: "",
      messages: [.text(textPayload(1024)), .binary(binaryPayload(512) + binaryPayload(512))])
    try await expectClean(c, options: Self.limited)
  }

  // MARK: 12 Compression (permessage-deflate, RFC 7692)

  static let compressionCases = [
    CleanCase(
      id: "12.1", note: "RFC 7692's Hello twice, the second referring to the first, then a plain message",
      messages: [.text("Hello"), .text("Hello"), .text("plain")]),
    CleanCase(
      id: "12.2", note: "server_no_context_takeover: each message alone",
      messages: [.text("Hello"), .binary(Array("Hello".utf8))]),
    CleanCase(
      id: "12.3", note: "300 KB of text from a 10-bit window", messages: [.text(textPayload(300_000))]),
    CleanCase(
      id: "12.4", note: "fragmented, a ping between the fragments", messages: [.text("Hello")],
      pongs: [Array("between".utf8)]),
  ]

  @Test("12 compressed messages inflate", arguments: compressionCases)
  func compressedMessages(_ c: CleanCase) async throws {
    try await expectClean(c)
  }

  static let compressionFailures = [
    FailingCase(id: "12.5", note: "RSV1 on a continuation", error: .reservedBitsSet(0b100), code: 1002),
    FailingCase(id: "12.6", note: "RSV1 on a ping", error: .reservedBitsSet(0b100), code: 1002),
    FailingCase(id: "12.7", note: "not DEFLATE data", error: .invalidCompressedData, code: 1007),
  ]

  @Test("12 compression misused fails the connection", arguments: compressionFailures)
  func compressionMisused(_ c: FailingCase) async throws {
    try await expectFailure(c)
  }

  /// 2 MiB of zeros in about 2 KB: refused at the first 16 KiB piece past the 1 MiB limit.
  @Test("12.8 a decompression bomb fails with 1009 while inflating")
  func decompressionBomb() async throws {
    let bomb = FailingCase(
      id: "12.8", note: "", error: .messageTooLarge(UInt64((1 << 20) + Inflater.pieceSize)), code: 1009)
    try await expectFailure(bomb, options: ConnectOptions(maximumMessageSize: 1 << 20))
  }

  /// RFC 7692 §5: a client fails the connection (here: the handshake; no frame is sent) on an
  /// answer that is not a valid acceptance of its offer.
  @Test(
    "12 invalid answers to the offer fail the handshake",
    arguments: [
      ("12.10", "server_max_window_bits=16 is not a window size"),
      ("12.11", "client_max_window_bits needs a value"),
      ("12.12", "permessage-deflate accepted 2 times"),
      ("12.13", "x-webkit-deflate-frame"),
      ("12.14", "unknown permessage-deflate parameter unknown"),
    ])
  func invalidAnswer(_ id: String, _ says: String) async throws {
    let peer = try await RawPeer.shared()
    let (url, key) = try peer.url(for: id)
    await #expect {
      _ = try await NativeEngine().connect(to: url, options: ConnectOptions())
    } throws: { error in
      switch error as? WebSocketError {
      case .handshake(.invalidExtension(let why)): why.contains(says)
      case .handshake(.unexpectedExtension(let what)): what.contains(says)
      default: false
      }
    }
    let report = try #require(await peer.report(key))
    #expect(report.offered == PerMessageDeflate.clientOffer)
    #expect(report.frames.isEmpty && report.tcpClosed && report.errors.isEmpty)
  }

  /// `compression: false` offers nothing, and compressed frames are then a protocol error.
  @Test("12.9 without the offer RSV1 is a protocol error")
  func noOffer() async throws {
    let played = try await play("3.rsv.1.4", options: ConnectOptions(compression: false))
    #expect(played.report.offered == nil)
    #expect(played.error == .protocolViolation(.reservedBitsSet(0b100)))
    #expect(played.report.closeCode == 1002)
  }

  // MARK: 9 What the client sends

  @Test("9 every client frame is masked with a fresh key and a 70 KB message arrives intact")
  func clientFramesAreMasked() async throws {
    let large = binaryPayload(70_000)
    let medium = binaryPayload(200)
    let played = try await play("9.1") { connection in
      try await connection.send(.text("one"))
      try await connection.send(.binary(medium))
      try await connection.send(.text("three"))
      try await connection.send(.binary(large))
      try await connection.ping(Array("keepalive".utf8))
      await connection.close(CloseStatus(code: .normalClosure, reason: "bye"), timeout: 10)
    }
    #expect(played.error == nil)
    #expect(played.messages.isEmpty)
    #expect(played.peerClose == CloseStatus(code: .normalClosure))
    let frames = played.report.frames
    #expect(frames.map(\.opcode) == [1, 2, 1, 2, 9, 8])
    #expect(frames.map(\.len7) == [3, 126, 5, 127, 9, 5])
    #expect(frames.allSatisfy { $0.fin && $0.rsv == 0 } as Bool)
    #expect(
      frames.compactMap(\.payload) == [
        Array("one".utf8), medium, Array("three".utf8), Array("keepalive".utf8),
        [0x03, 0xE8] + Array("bye".utf8),
      ])
    #expect(frames.count == 6 && frames[3].length == large.count)
    #expect(frames.count == 6 && frames[3].sha1 == hex(SHA1.hash(large)))
  }
}

// MARK: - Playing a case

/// What happened on both sides of one case.
private struct Played {
  var messages: [WebSocketMessage]
  var error: WebSocketError?
  var peerClose: CloseStatus?
  var report: RawPeer.Report
}

/// Connects to the raw peer's case `id`, lets `client` act, reads `messages` to its end (sending
/// each back when `echo`), and
/// returns that with the peer's report, which must show a well-behaved client: every frame
/// masked with a key of its own, a valid handshake, and (unless the peer hung up itself) the TCP
/// connection closed by the client once the close handshake was done.
private func play(
  _ id: String, options: ConnectOptions = ConnectOptions(), peerHangsUp: Bool = false, echo: Bool = false,
  client: (any MessageConnection) async throws -> Void = { _ in }
) async throws -> Played {
  let peer = try await RawPeer.shared()
  let (url, key) = try peer.url(for: id)
  let connection = try await NativeEngine().connect(to: url, options: options)
  try await client(connection)
  var messages: [WebSocketMessage] = []
  var failure: WebSocketError? = nil
  do {
    for try await message in connection.messages {
      messages.append(message)
      // An echoing client (Autobahn's testee) sends every message back as it reads it.
      if echo { try? await connection.send(message) }
    }
  } catch {
    failure = error as? WebSocketError
    #expect(failure != nil, "messages threw \(error), not a WebSocketError")
  }
  let report = try #require(await peer.report(key), "raw_peer.py reported nothing for \(id)")
  #expect(report.errors.isEmpty, "\(id): \(report.errors)")
  #expect(report.offered == (options.compression ? PerMessageDeflate.clientOffer : nil), "\(id): the offer")
  #expect(report.frames.allSatisfy { $0.masked }, "\(id): an unmasked client frame")
  #expect(Set(report.frames.map(\.key)).count == report.frames.count, "\(id): a masking key repeated")
  if !peerHangsUp { #expect(report.tcpClosed, "\(id): the client did not close TCP") }
  return Played(messages: messages, error: failure, peerClose: connection.peerCloseStatus, report: report)
}

/// The peer sends the case, then close 1000 "done": the messages and pongs arrive in order and
/// the client echoes the close.
private func expectClean(_ c: ConformanceTests.CleanCase, options: ConnectOptions = ConnectOptions())
  async throws
{
  let played = try await play(c.id, options: options)
  #expect(played.error == nil)
  #expect(played.messages.map(summary) == c.messages.map(summary))
  #expect(played.peerClose == ConformanceTests.done)
  #expect(played.report.closeCode == 1000)
  let before = played.report.framesBeforeClose
  #expect(before.map(\.opcode) == Array(repeating: 10, count: c.pongs.count))
  #expect(before.compactMap(\.payload) == c.pongs)
}

/// The client fails the connection: `messages` yields what came before the violation and then
/// throws it, and the only frame the peer gets is a close with the expected code.
private func expectFailure(_ c: ConformanceTests.FailingCase, options: ConnectOptions = ConnectOptions())
  async throws
{
  let played = try await play(c.id, options: options)
  #expect(played.error == .protocolViolation(c.error))
  #expect(played.messages.map(summary) == c.messages.map(summary))
  #expect(played.peerClose == nil)
  #expect(played.report.closeCode == c.code)
  #expect(played.report.framesBeforeClose.isEmpty)
}

/// n ASCII bytes "abc…z" repeated, as raw_peer.py builds them.
private func textPayload(_ count: Int) -> String {
  String(decoding: (0..<count).map { UInt8(97 + $0 % 26) }, as: UTF8.self)
}

/// n bytes with byte i = i % 251, as raw_peer.py builds them.
private func binaryPayload(_ count: Int) -> [UInt8] { (0..<count).map { UInt8($0 % 251) } }

private func hex(_ bytes: [UInt8]) -> String {
  let digits = Array("0123456789abcdef")
  return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] })
}

private func hex(_ code: UInt16) -> String { hex([UInt8(code >> 8), UInt8(code & 0xFF)]) }

/// A message as a short text for comparisons whose failures stay readable: small payloads in
/// full, large ones by size and SHA-1.
private func summary(_ message: WebSocketMessage) -> String {
  let (kind, bytes): (String, [UInt8]) =
    switch message {
    case .text(let text): ("text", Array(text.utf8))
    case .binary(let bytes): ("binary", bytes)
    }
  if bytes.count <= 64 {
    return "\(kind) \(kind == "text" ? String(decoding: bytes, as: UTF8.self) : hex(bytes))"
  }
  return "\(kind) of \(bytes.count) bytes, SHA-1 \(hex(SHA1.hash(bytes)))"
}
