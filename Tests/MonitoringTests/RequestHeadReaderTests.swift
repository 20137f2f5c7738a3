import Testing

@testable import Monitoring

@Suite struct RequestHeadReaderTests {
  static let request = Array(
    "GET /metrics?x=1 HTTP/1.1\r\nHost: 127.0.0.1:9\r\nAuthorization: Bearer abc\r\n\r\n".utf8)

  /// Fed in chunks of each size, the reader gives the request exactly when its blank line is in.
  @Test(arguments: [1, 2, 5, 8, 1000])
  func chunked(size: Int) throws {
    var reader = RequestHeadReader(maximumSize: 8192)
    var parsed: HTTPRequest?
    var fed = 0
    while parsed == nil, fed < Self.request.count {
      let chunk = Self.request[fed..<min(fed + size, Self.request.count)]
      fed += chunk.count
      parsed = try reader.append(chunk)
    }
    #expect(fed == Self.request.count)
    let request = try #require(parsed)
    #expect(request.method == "GET")
    #expect(request.path == "/metrics")
    #expect(request.head.value(of: "authorization") == "Bearer abc")
  }

  @Test func bytesAfterTheHeadAreIgnored() throws {
    var reader = RequestHeadReader(maximumSize: 8192)
    let request = try reader.append(Array("HEAD /healthz HTTP/1.0\r\n\r\nGET / HTTP/1.1\r\n".utf8))
    #expect(request?.method == "HEAD")
    #expect(request?.path == "/healthz")
  }

  /// A line that never ends is 414 once one byte past the limit has come, and the reader never
  /// takes more than that.
  @Test func requestLineTooLong() throws {
    var reader = RequestHeadReader(maximumSize: 100)
    #expect(try reader.append([UInt8](repeating: 0x41, count: 100)) == nil)
    #expect(reader.room == 1)
    #expect(throws: HTTPRequestError.requestLineTooLong(limit: 100)) {
      try reader.append([UInt8](repeating: 0x41, count: 5000))
    }
    #expect(reader.bytes.count == 101)
  }

  @Test func headTooLarge() throws {
    var reader = RequestHeadReader(maximumSize: 100)
    #expect(try reader.append(Array("GET /metrics HTTP/1.1\r\n".utf8)) == nil)
    #expect(throws: HTTPRequestError.headTooLarge(limit: 100)) {
      for _ in 0..<20 { _ = try reader.append(Array("X-Filler: 0123456789\r\n".utf8)) }
    }
  }

  /// A head of exactly the limit is read; one byte more is not.
  @Test func headOfExactlyTheLimit() throws {
    let line = "GET /metrics HTTP/1.1\r\n"
    let head = Array(
      (line + "X: " + String(repeating: "a", count: 100 - line.utf8.count - 7) + "\r\n\r\n").utf8)
    #expect(head.count == 100)
    var exact = RequestHeadReader(maximumSize: 100)
    #expect(try exact.append(head)?.path == "/metrics")
    var smaller = RequestHeadReader(maximumSize: 99)
    #expect(throws: HTTPRequestError.headTooLarge(limit: 99)) { try smaller.append(head) }
  }

  @Test func bareLineFeedIsRefusedAtOnce() {
    var reader = RequestHeadReader(maximumSize: 8192)
    #expect(throws: HTTPRequestError.malformed("a bare LF in the head")) {
      try reader.append(Array("GET /metrics HTTP/1.1\n".utf8))
    }
  }
}
