import Testing

@testable import TickerSupport
@testable import WebSocketClient
@testable import WebSocketServer
@testable import WebSocketWire

@Suite struct HandshakeTests {
  static let key = "dGhlIHNhbXBsZSBub25jZQ=="
  static let goodResponse =
    "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    + "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n"

  /// Feeds `bytes` in chunks, calling `parse` on the accumulated bytes after each chunk.
  static func feed<R>(
    _ bytes: [UInt8], chunk: Int, _ parse: ([UInt8]) throws(HandshakeError) -> R?
  ) throws(HandshakeError) -> (R, calls: Int)? {
    var accumulated: [UInt8] = []
    var index = 0
    var calls = 0
    while index < bytes.count {
      let end = index + min(chunk, bytes.count - index)
      accumulated += bytes[index..<end]
      index = end
      calls += 1
      if let result = try parse(accumulated) { return (result, calls) }
    }
    return nil
  }

  @Test func rfcAcceptVector() {
    #expect(Handshake.acceptValue(forKey: Self.key) == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
  }

  @Test func sha1AndBase64KnownAnswers() {
    #expect(Base64.encode(SHA1.hash(Array("abc".utf8))) == "qZk+NkcGgWq6PiVxeFDCbJzQ2J0=")
    #expect(Base64.encode(SHA1.hash([UInt8]())) == "2jmj7l5rSw0yVb/vlWAYkK/YBwk=")
    // 56 bytes: the padding spills into a second block.
    let long = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
    #expect(Base64.encode(SHA1.hash(Array(long.utf8))) == "hJg+RBw70m66rkqh+VEp5eVGcPE=")
    #expect(Base64.encode(Array("f".utf8)) == "Zg==")
    #expect(Base64.encode(Array("fo".utf8)) == "Zm8=")
    #expect(Base64.decode("Zm8=") == Array("fo".utf8))
    #expect(Base64.decode("Zm8") == nil)
  }

  @Test func keyIsBase64Of16InjectedBytes() {
    var random = FixedRandom([0x0001_0203_0405_0607, 0x0809_0A0B_0C0D_0E0F])
    let key = Handshake.makeKey(using: &random)
    #expect(key == "AAECAwQFBgcICQoLDA0ODw==")
    #expect(Base64.decode(key) == Array(0..<16))
  }

  @Test func requestText() throws {
    let url = try WebSocketURL(parsing: "wss://ws.example.com:8443/feed?token=abc")
    let bytes = Handshake.request(for: url, key: Self.key, headers: [("User-Agent", "ticker/1")])
    #expect(
      String(decoding: bytes, as: UTF8.self)
        == "GET /feed?token=abc HTTP/1.1\r\nHost: ws.example.com:8443\r\nUpgrade: websocket\r\n"
        + "Connection: Upgrade\r\nSec-WebSocket-Key: \(Self.key)\r\nSec-WebSocket-Version: 13\r\n"
        + "User-Agent: ticker/1\r\n\r\n")
    // The server side reads it back and accepts it.
    let parsed = try #require(try ServerHandshake.parseRequest(bytes))
    #expect(parsed.consumed == bytes.count)
    #expect(parsed.request.target == "/feed?token=abc")
    #expect(try ServerHandshake.validateUpgrade(parsed.request) == Self.key)
    #expect(parsed.request.head.value(of: "origin") == nil)
  }

  @Test(arguments: chunkSizes) func goodResponseKeepsTheBytesAfterTheHead(chunk: Int) throws {
    let frame = hex("81 05 48 65 6c 6c 6f")
    let bytes = Array(Self.goodResponse.utf8) + frame
    let (result, _) = try #require(
      try Self.feed(bytes, chunk: chunk) { b throws(HandshakeError) in
        try Handshake.parseResponse(b, key: Self.key)
      })
    #expect(result.response.status == 101)
    #expect(result.consumed == Self.goodResponse.utf8.count)
  }

  @Test func serverUpgradeResponseIsAcceptedByTheClient() throws {
    let bytes = ServerHandshake.upgradeResponse(forKey: Self.key)
    let parsed = try #require(try Handshake.parseResponse(bytes, key: Self.key))
    #expect(parsed.consumed == bytes.count)
  }

  @Test func incompleteHeadNeedsMoreBytes() throws {
    #expect(try Handshake.parseResponse(Array(Self.goodResponse.utf8.dropLast(1)), key: Self.key) == nil)
  }

  @Test func caseInsensitiveHeadersAndConnectionTokenList() throws {
    let text =
      "HTTP/1.1 101 OK\r\nupgrade: WebSocket\r\nCONNECTION: keep-alive, Upgrade\r\n"
      + "sec-websocket-accept:s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n"
    #expect(try Handshake.parseResponse(Array(text.utf8), key: Self.key) != nil)
  }

  static func response(replacing old: String, with new: String) -> [UInt8] {
    Array(goodResponse.replacingAll(old, with: new).utf8)
  }

  @Test(arguments: [
    (response(replacing: "Upgrade: websocket\r\n", with: ""), HandshakeError.missingUpgradeHeader),
    (response(replacing: "Upgrade: websocket", with: "Upgrade: h2c"), .missingUpgradeHeader),
    (response(replacing: "Connection: Upgrade\r\n", with: ""), .missingConnectionHeader),
    (response(replacing: "Connection: Upgrade", with: "Connection: close"), .missingConnectionHeader),
    (response(replacing: "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=", with: "AAAA"), .invalidAcceptKey),
    (
      response(replacing: "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n", with: ""),
      .invalidAcceptKey
    ),
    (
      response(replacing: "\r\n\r\n", with: "\r\nSec-WebSocket-Extensions: permessage-deflate\r\n\r\n"),
      .unexpectedExtension("permessage-deflate")
    ),
    (
      response(replacing: "\r\n\r\n", with: "\r\nSec-WebSocket-Protocol: chat\r\n\r\n"),
      .unexpectedExtension("chat")
    ),
    (response(replacing: "HTTP/1.1 101", with: "SPDY/3 101"), .malformedResponse("bad status line")),
    (
      response(replacing: "Connection: Upgrade", with: "Connection Upgrade"),
      .malformedResponse("header line without a name")
    ),
    (
      response(replacing: "HTTP/1.1 101 Switching Protocols", with: "HTTP/1.1 200 OK"),
      .unexpectedStatus(code: 200, reason: "OK", retryAfter: nil)
    ),
  ])
  func rejectsBadResponses(bytes: [UInt8], error: HandshakeError) {
    #expect(throws: error) { _ = try Handshake.parseResponse(bytes, key: Self.key) }
  }

  @Test(arguments: chunkSizes) func unauthorizedWithRetryAfter(chunk: Int) {
    let bytes = ServerHandshake.response(
      status: 401, reason: "Unauthorized", headers: [("Retry-After", "30")], body: Array("Unauthorized".utf8))
    #expect(throws: HandshakeError.unexpectedStatus(code: 401, reason: "Unauthorized", retryAfter: 30)) {
      _ = try Self.feed(bytes, chunk: chunk) { b throws(HandshakeError) in
        try Handshake.parseResponse(b, key: Self.key)
      }
    }
  }

  @Test func tooManyHeaderBytes() {
    var text = "HTTP/1.1 101 Switching Protocols\r\n"
    while text.utf8.count <= 17 * 1024 { text += "X-Filler: \(String(repeating: "a", count: 100))\r\n" }
    // No blank line yet, but already over the limit.
    #expect(throws: HandshakeError.responseTooLarge) {
      _ = try Handshake.parseResponse(Array(text.utf8), key: Self.key)
    }
    // Complete, but over the limit.
    #expect(throws: HandshakeError.responseTooLarge) {
      _ = try Handshake.parseResponse(Array((text + "\r\n").utf8), key: Self.key)
    }
  }

  @Test(arguments: chunkSizes) func serverParsesRequestInChunks(chunk: Int) throws {
    let url = WebSocketURL(isSecure: false, host: "127.0.0.1", port: 9000, target: "/")
    let request = Handshake.request(for: url, key: Self.key, headers: [])
    let bytes = request + [0x81, 0x80]
    var accumulated: [UInt8] = []
    var parsed: (request: ServerHandshake.Request, consumed: Int)?
    for start in stride(from: 0, to: bytes.count, by: min(chunk, bytes.count)) {
      accumulated += bytes[start..<min(start + chunk, bytes.count)]
      parsed = try ServerHandshake.parseRequest(accumulated)
      if parsed != nil { break }
    }
    let result = try #require(parsed)
    #expect(result.consumed == request.count)
    #expect(result.request.head.value(of: "host") == "127.0.0.1:9000")
  }

  @Test("a header we send cannot inject a line or a field, whatever its scalars")
  func headersWeWriteStayOneLine() throws {
    // "\r\n" is one Character, equal to neither "\r" nor "\n": filtering Characters let it through.
    let url = try WebSocketURL(parsing: "ws://h/")
    let request = Handshake.request(
      for: url, key: Self.key,
      headers: [(name: "X-A\r\nEvil", value: "a\r\nEvil: 1\u{0}\u{7F}\tb"), (name: "X:B", value: "\n")])
    let parsed = try #require(try ServerHandshake.parseRequest(request))
    #expect(parsed.consumed == request.count)
    #expect(parsed.request.head.fields.count == 7)
    #expect(parsed.request.head.value(of: "X-AEvil") == "aEvil: 1\tb")
    #expect(parsed.request.head.value(of: "XB") == "")
    #expect(parsed.request.head.value(of: "Evil") == nil)
    let answer = ServerHandshake.response(
      status: 503, reason: "Busy", headers: [(name: "Retry-After", value: "5\r\nSet-Cookie: x")])
    let head = try #require(try Handshake.parseResponseHead(answer))
    #expect(head.response.head.fields.map(\.name) == ["Retry-After", "Content-Length", "Connection"])
  }

  @Test("delimiters are found among bytes: a scalar that joins the next one into a Character hides none")
  func delimitersAfterAPrependedMark() throws {
    let mark = "\u{06DD}"
    // A space after the mark still ends the request target.
    let request = Array("GET /a\(mark) HTTP/1.1\r\nHost: h\r\n\r\n".utf8)
    let parsed = try #require(try ServerHandshake.parseRequest(request))
    #expect(parsed.request.target == "/a\(mark)")
    #expect(parsed.request.version == "HTTP/1.1")
    // A colon after the mark still ends the header name; a comma still separates tokens.
    let response = Self.response(
      replacing: "Connection: Upgrade", with: "X\(mark): 1\r\nConnection: keep\(mark),Upgrade")
    let accepted = try #require(try Handshake.parseResponse(response, key: Self.key))
    #expect(accepted.response.head.value(of: "X\(mark)") == "1")
    #expect(accepted.response.head.tokens(of: "Connection") == ["keep\(mark)", "upgrade"])
    // A status code cannot carry the mark.
    #expect(throws: HandshakeError.malformedResponse("bad status line")) {
      _ = try Handshake.parseResponse(Self.response(replacing: "101 ", with: "101\(mark) "), key: Self.key)
    }
  }

  @Test(arguments: ["\r\nX: a\rb", "\r\nX: a\nb", "\nX: 1"])
  func bareCROrLFInAHeadIsMalformed(insert: String) {
    let bytes = Self.response(replacing: "\r\n\r\n", with: insert + "\r\n\r\n")
    #expect(throws: HandshakeError.malformedResponse("a bare CR or LF in the head (RFC 9112 §2.2)")) {
      _ = try Handshake.parseResponse(bytes, key: Self.key)
    }
  }

  @Test func serverRejectsNonUpgradeRequests() throws {
    let bytes = Array("POST / HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
    let parsed = try #require(try ServerHandshake.parseRequest(bytes))
    #expect(throws: ServerHandshake.RequestError.notWebSocketUpgrade("method POST")) {
      _ = try ServerHandshake.validateUpgrade(parsed.request)
    }
  }
}
