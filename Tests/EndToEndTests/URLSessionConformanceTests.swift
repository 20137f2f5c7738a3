import TestSupport
import Testing
import WebSocketWire

/// RFC 6455 conformance side by side: cases of the native engine's conformance suite
/// (`Tests/WebSocketClientTests/ConformanceTests.swift`, same ids, same raw peer
/// `Tests/Support/raw_peer.py`) played with the native engine and with the URLSession engine
/// (stock FoundationNetworking 6.3.1 with the harness: preload + libcurl 8.14.1). The native
/// engine must conform; the URLSession engine must deviate exactly where it was measured to
/// (`urlSessionDeviations`, the table in docs/engines.md): a case that starts or stops deviating means
/// corelibs or libcurl changed, so the table and `CorelibsBugs` need measuring again.
@Suite(
  "Conformance side by side", .requires(.urlSessionHarness),
  .timeLimit(.minutes(3)))
struct URLSessionConformanceTests {
  static let done = CloseStatus(code: .normalClosure, reason: "done")

  static let cases: [ConformanceCase] = [
    ConformanceCase(id: "1.text.0", note: "empty text message", messages: [.text("")]),
    ConformanceCase(id: "1.text.125", note: "125-byte text", messages: [.text(text(125))]),
    ConformanceCase(id: "1.text.126", note: "126-byte text (16-bit length)", messages: [.text(text(126))]),
    ConformanceCase(id: "1.text.4000", note: "4000-byte text", messages: [.text(text(4000))]),
    ConformanceCase(id: "1.text.65536", note: "64 KiB text (64-bit length)", messages: [.text(text(65536))]),
    ConformanceCase(id: "1.binary.0", note: "empty binary message", messages: [.binary([])]),
    ConformanceCase(id: "1.binary.126", note: "126-byte binary", messages: [.binary(binary(126))]),
    ConformanceCase(id: "1.binary.65536", note: "64 KiB binary", messages: [.binary(binary(65536))]),
    ConformanceCase(
      id: "1.3.1", note: "five messages in one TCP write",
      messages: [.text("one"), .binary([1, 2, 3]), .text("three"), .binary([]), .text(text(300))]),
    ConformanceCase(id: "2.1", note: "empty ping", pongs: [[]]),
    ConformanceCase(id: "2.2", note: "text ping", pongs: [Array("Hello, world!".utf8)]),
    ConformanceCase(id: "2.4", note: "125-byte ping", pongs: [binary(125)]),
    ConformanceCase(id: "2.7", note: "unsolicited empty pong is ignored", messages: [.text("after pong")]),
    ConformanceCase(id: "2.9", note: "10 pings in a row", pongs: (0..<10).map { Array("ping \($0)".utf8) }),
    ConformanceCase(id: "5.1", note: "text in 2 fragments", messages: [.text("Hello, world")]),
    ConformanceCase(id: "5.3", note: "binary in 2 fragments", messages: [.binary([0, 1, 2, 3, 0xFF])]),
    ConformanceCase(
      id: "5.4", note: "a ping between fragments", messages: [.text("Hello, world")],
      pongs: [Array("in between".utf8)]),
    ConformanceCase(id: "5.9", note: "every fragment empty", messages: [.text("")]),
    ConformanceCase(id: "6.1.1", note: "2-byte UTF-8 characters", messages: [.text("κόσμε")]),
    ConformanceCase(id: "6.1.2", note: "U+10FFFF", messages: [.text("\u{10FFFF}")]),
    ConformanceCase(
      id: "6.2.1", note: "a UTF-8 character split between fragments", messages: [.text("κόσμε")]),
    ConformanceCase(
      id: "7.1.1", note: "peer close without payload", peerClose: CloseStatus(code: .noStatusReceived)),
    ConformanceCase(
      id: "7.1.2", note: "peer close 1000 with a reason",
      peerClose: CloseStatus(code: .normalClosure, reason: "bye")),
    ConformanceCase(
      id: "7.1.9", note: "close 1001 with a UTF-8 reason after a message", messages: [.text("before close")],
      peerClose: CloseStatus(code: .goingAway, reason: "κόσμε")),
    ConformanceCase(
      id: "7.code.1001", note: "close code 1001", peerClose: CloseStatus(code: .goingAway, reason: "code")),
    ConformanceCase(
      id: "7.code.3000", note: "close code 3000",
      peerClose: CloseStatus(code: CloseCode(3000), reason: "code")),
    ConformanceCase(
      id: "7.code.4000", note: "close code 4000",
      peerClose: CloseStatus(code: CloseCode(4000), reason: "code")),
    ConformanceCase(id: "2.5", note: "126-byte ping fails with 1002", peerClose: nil, failCode: 1002),
    ConformanceCase(
      id: "3.rsv.1.4", note: "RSV1 on a text frame fails with 1002", messages: [.text("hello")],
      peerClose: nil,
      failCode: 1002),
    ConformanceCase(
      id: "4.opcode.3", note: "reserved opcode 3 fails with 1002", messages: [.text("hello")], peerClose: nil,
      failCode: 1002),
    ConformanceCase(
      id: "5.10", note: "continuation with no message fails with 1002", peerClose: nil, failCode: 1002),
    ConformanceCase(
      id: "5.12", note: "text while a message is open fails with 1002", peerClose: nil, failCode: 1002),
    ConformanceCase(id: "6.3.5", note: "invalid UTF-8 (FF) fails with 1007", peerClose: nil, failCode: 1007),
    ConformanceCase(
      id: "7.1.4", note: "1-byte close payload fails with 1002", peerClose: nil, failCode: 1002),
    ConformanceCase(
      id: "7.code.999", note: "invalid close code 999 fails with 1002", peerClose: nil, failCode: 1002),
    ConformanceCase(
      id: "8.1", note: "a 2000-byte message over a 1024 limit fails with 1009", peerClose: nil,
      failCode: 1009,
      maxSize: 1024),
  ]

  /// Where the URLSession engine on Linux was measured to deviate in every run, and how (docs/engines.md
  /// table).
  static let urlSessionDeviations: [String: String] = [
    "1.text.0": "the empty message is lost",
    "1.binary.0": "the empty message is lost",
    "1.text.65536": "the message never arrives (cut at ~4 KiB, the rest stalls)",
    "1.binary.65536": "the message never arrives (cut at ~4 KiB, the rest stalls)",
    "1.3.1": "only the first of five messages in one TCP write arrives",
    "5.1": "only the first fragment arrives, as a message of its own",
    "5.3": "only the first fragment arrives, as a message of its own",
    "5.4": "only the first fragment arrives, as a message of its own",
    "5.9": "the message of empty fragments is lost",
    "6.2.1": "the process crashes (a UTF-8 character split between fragments)",
    "6.3.5": "the process crashes (invalid UTF-8) instead of closing with 1007",
    "7.1.1": "a close without a code is reported as 1000, not 1005",
    "7.code.3000": "reported as 1003",
    "7.code.4000": "reported as 1003",
    "2.5": "an oversized ping is accepted: no 1002",
    "3.rsv.1.4": "the message before it is lost; no 1002",
    "4.opcode.3": "the message before it is lost; no 1002",
    "5.10": "no 1002",
    "5.12": "no 1002",
    "7.1.4": "a 1-byte close payload is answered with 1000, not 1002",
    "7.code.999": "an invalid close code is answered with 1003, not 1002",
    "8.1": "the size limit is not enforced: a 891-byte piece arrives, no 1009",
  ]

  @Test("each case with both engines", arguments: cases)
  func sideBySide(_ c: ConformanceCase) async throws {
    let peer = try await RawConformancePeer.shared()
    let native = try await peer.playNative(c)
    #expect(native.deviation(from: c) == nil, "native: \(native.deviation(from: c) ?? "")")
    var urlSession = try await peer.playURLSession(c)
    var deviation = urlSession.deviation(from: c)
    if let known = Self.urlSessionDeviations[c.id] {
      print("conformance \(c.id) | \(c.note) | native ok | urlsession \(deviation ?? "ok")")
      #expect(deviation != nil, "\(c.id) now conforms on URLSession (was: \(known)): measure again")
      return
    }
    // Messages are sometimes lost at random (measured: 1.text.126, 1.binary.126 and
    // 1.text.4000 once each in 4–6 runs): a conforming case gets three tries, and says so.
    var tries = 1
    while deviation != nil, tries < 3 {
      tries += 1
      urlSession = try await peer.playURLSession(c)
      deviation = urlSession.deviation(from: c)
    }
    print("conformance \(c.id) | \(c.note) | native ok | urlsession \(deviation ?? "ok") (tries: \(tries))")
    #expect(deviation == nil, "\(c.id) URLSession, \(tries) tries: \(deviation ?? "")")
  }

  static func text(_ count: Int) -> String {
    String(decoding: (0..<count).map { UInt8(97 + $0 % 26) }, as: UTF8.self)
  }

  static func binary(_ count: Int) -> [UInt8] { (0..<count).map { UInt8($0 % 251) } }
}
