import Testing

@testable import NATS

@Suite("NATS server protocol parser")
struct NATSServerParserTests {
  static let info =
    #"INFO {"server_id":"NDX","server_name":"n1","version":"2.9.10","proto":1,"go":"go1.19","host":"127.0.0.1","port":4222,"headers":true,"max_payload":1048576,"client_id":5,"client_ip":"127.0.0.1"}"#
    + "\r\n"

  static let session =
    info
    + "+OK\r\nPING\r\nPONG\r\n-ERR 'Permissions Violation for Publish to \"x\"'\r\ninfo {\"tls_required\":true}\r\n"

  static let expected: [NATSServerMessage] = [
    .info(NATSServerInfo(serverID: "NDX", version: "2.9.10", maxPayload: 1_048_576)), .ok, .ping, .pong,
    .error(NATSServerError(text: "Permissions Violation for Publish to \"x\"")),
    .info(NATSServerInfo(tlsRequired: true)),
  ]

  static func parse(
    _ bytes: [UInt8], chunk: Int, limit: Int = NATSServerParser.defaultMaximumLineLength, payload: Int? = nil
  )
    throws(NATSProtocolError) -> [NATSServerMessage]
  {
    var parser = NATSServerParser(maximumLineLength: limit, maximumPayload: payload)
    var out: [NATSServerMessage] = []
    var offset = 0
    while offset < bytes.count {
      let end = min(bytes.count, offset + chunk)
      parser.append(bytes[offset..<end])
      offset = end
      while let message = try parser.next() { out.append(message) }
    }
    return out
  }

  @Test("a session fed in chunks of 1, 2, 5, 8, 64 and whole", arguments: [1, 2, 5, 8, 64, 100_000])
  func chunks(size: Int) throws {
    #expect(try Self.parse(Array(Self.session.utf8), chunk: size) == Self.expected)
  }

  @Test("bare LF line endings and lower-case operations are accepted; empty lines are skipped")
  func lenient() throws {
    #expect(try Self.parse(Array("ping\n\r\npong\n+ok\r\n".utf8), chunk: 3) == [.ping, .pong, .ok])
  }

  @Test("a line without a newline fails once it passes the limit, holding no more than limit + one append")
  func endlessLine() {
    var parser = NATSServerParser(maximumLineLength: 1024)
    var failure: NATSProtocolError?
    let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 100)
    parser.append(Array("INFO ".utf8))
    for _ in 0..<1000 {
      parser.append(chunk)
      #expect(parser.bufferedCount <= 1024 + 100 + 5)
      do throws(NATSProtocolError) {
        _ = try parser.next()
      } catch {
        failure = error
        break
      }
    }
    #expect(failure == .lineTooLong(limit: 1024))
  }

  @Test("a complete line over the limit fails too")
  func longCompleteLine() {
    let line = Array(("-ERR '" + String(repeating: "y", count: 2000) + "'\r\n").utf8)
    #expect(throws: NATSProtocolError.lineTooLong(limit: 1024)) {
      try Self.parse(line, chunk: line.count, limit: 1024)
    }
  }

  @Test(
    "what a publisher cannot accept",
    arguments: [
      ("MSG a 1 2\r\nhi\r\n", NATSProtocolError.unexpectedMessage("MSG")),
      ("HELLO\r\n", .unknownOperation("HELLO")),
      ("PING extra\r\n", .unknownOperation("PING")),
      ("INFO nope\r\n", .badInfo("not JSON: ")),
      ("INFO []\r\n", .badInfo("not a JSON object")),
      ("INFO {\"tls_required\":\"yes\"}\r\n", .badInfo("tls_required is not true or false")),
      ("INFO {\"max_payload\":-1}\r\n", .badInfo("max_payload is not a positive whole number")),
    ])
  func rejects(text: String, expected: NATSProtocolError) {
    do throws(NATSProtocolError) {
      let messages = try Self.parse(Array(text.utf8), chunk: 4)
      Issue.record("parsed \(messages)")
    } catch {
      // A JSON parser's own words follow "not JSON: ": compare the prefix.
      if case .badInfo(let why) = error, case .badInfo(let start) = expected {
        #expect(why.hasPrefix(start), "\(why)")
      } else {
        #expect(error == expected)
      }
    }
  }

  @Test("-ERR: which end the connection, which are about credentials")
  func errors() {
    #expect(NATSServerError(text: "Permissions Violation for Publish to \"a\"").keepsConnection)
    #expect(NATSServerError(text: "Invalid Subject").keepsConnection)
    #expect(!NATSServerError(text: "Authorization Violation").keepsConnection)
    #expect(NATSServerError(text: "Authorization Violation").isAuthorization)
    #expect(NATSServerError(text: "Authentication Timeout").isAuthorization)
    #expect(!NATSServerError(text: "Maximum Payload Violation").keepsConnection)
    #expect(!NATSServerError(text: "Maximum Payload Violation").isAuthorization)
    #expect(!NATSServerError(text: "Stale Connection").keepsConnection)
  }

  @Test("an -ERR text is cut at 256 bytes")
  func longError() throws {
    let text = "-ERR '" + String(repeating: "z", count: 1000) + "'\r\n"
    guard case .error(let error) = try Self.parse(Array(text.utf8), chunk: 50).first else {
      Issue.record("no error parsed")
      return
    }
    #expect(error.text.utf8.count == 256)
  }

  // MARK: A subscriber's MSG

  static let deliveries =
    "PING\r\nMSG ticker.binance.BTCUSDT 1 5\r\nhello\r\nmsg a.b 22 reply.to 0\r\n\r\n"
    + "MSG x 3 12\r\nMSG in\r\nside\r\nPONG\r\n"

  static let delivered: [NATSServerMessage] = [
    .ping, .message(NATSDelivery(subject: "ticker.binance.BTCUSDT", sid: "1", payload: Array("hello".utf8))),
    .message(NATSDelivery(subject: "a.b", sid: "22", payload: [])),
    .message(NATSDelivery(subject: "x", sid: "3", payload: Array("MSG in\r\nside".utf8))), .pong,
  ]

  @Test(
    "MSG and its payload (which may hold CRLF and look like a command), in any chunks",
    arguments: [1, 3, 7, 1000])
  func messages(chunk: Int) throws {
    #expect(try Self.parse(Array(Self.deliveries.utf8), chunk: chunk, payload: 1024) == Self.delivered)
  }

  @Test(
    "a MSG a subscriber cannot accept",
    arguments: [
      ("MSG a 1 2048\r\n", NATSProtocolError.payloadTooLarge(size: 2048, limit: 1024)),
      ("MSG a 1 99999999999999999999\r\n", .badMessage("MSG's size is not a number")),
      ("MSG a 1 -1\r\n", .badMessage("MSG's size is not a number")),
      ("MSG a 1\r\n", .badMessage("MSG has 2 fields, not 3 or 4")),
      ("MSG a 1 b c 2\r\n", .badMessage("MSG has 5 fields, not 3 or 4")),
      ("MSG a 1 2\r\nhello\r\n", .badMessage("the payload is longer than its size")),
      ("MSG a 1 2\r\nhi\rX", .badMessage("the payload is not followed by CRLF")),
      ("HMSG a 1 2 2\r\nhi\r\n", .unexpectedMessage("HMSG")),
    ])
  func rejectsMessages(text: String, expected: NATSProtocolError) {
    #expect(throws: expected) { try Self.parse(Array(text.utf8), chunk: 3, payload: 1024) }
  }

  @Test("a payload size over the limit fails before any of the payload is held")
  func hugePayload() {
    var parser = NATSServerParser(maximumPayload: 1 << 20)
    parser.append(Array("MSG a 1 1073741824\r\n".utf8))
    #expect(throws: NATSProtocolError.payloadTooLarge(size: 1 << 30, limit: 1 << 20)) { try parser.next() }
  }
}
