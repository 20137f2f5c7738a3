import Testing

@testable import Monitoring

@Suite struct HTTPRequestTests {
  private func parse(_ text: String) throws(HTTPRequestError) -> HTTPRequest {
    try HTTPRequest.parse(Array(text.utf8)[...])
  }

  @Test(arguments: [
    ("GET /metrics HTTP/1.1", "/metrics"),
    ("GET /metrics?name[]=x HTTP/1.1", "/metrics"),
    ("GET http://127.0.0.1:9100/healthz?a HTTP/1.1", "/healthz"),
    ("GET HTTPS://example HTTP/1.0", "/"),
    ("OPTIONS * HTTP/1.1", "*"),
  ])
  func targets(line: String, path: String) throws {
    #expect(try parse(line + "\r\nHost: x\r\n\r\n").path == path)
  }

  @Test(arguments: [
    "GET /metrics",
    "GET  /metrics HTTP/1.1",
    "GET /metrics HTTP/1.1 extra",
    "G(T /metrics HTTP/1.1",
    "GET metrics HTTP/1.1",
    "GET ftp://x/metrics HTTP/1.1",
    "GET /m\u{7F} HTTP/1.1",
    "GET /metrics HTTP/1.1x",
    "GET /metrics http/1.1",
  ])
  func malformedLines(line: String) {
    do throws(HTTPRequestError) {
      let request = try parse(line + "\r\n\r\n")
      Issue.record("parsed: \(request)")
    } catch {
      #expect(error.status == 400)
    }
  }

  @Test func otherVersionsAre505() {
    #expect(throws: HTTPRequestError.unsupportedVersion) { try parse("GET /metrics HTTP/2.0\r\n\r\n") }
  }

  @Test func malformedFields() {
    #expect(throws: HTTPRequestError.self) { try parse("GET /metrics HTTP/1.1\r\n folded\r\n\r\n") }
    #expect(throws: HTTPRequestError.self) { try parse("GET /metrics HTTP/1.1\r\nNo colon\r\n\r\n") }
    #expect(throws: HTTPRequestError.self) { try parse("GET /metrics HTTP/1.1\r\nA\rB: c\r\n\r\n") }
  }
}
