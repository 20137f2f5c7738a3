import Testing
import WebSocketWire

@testable import Monitoring

@Suite struct MetricsResponderTests {
  static let routes = MetricsRoutes(
    metrics: { "# TYPE up gauge\nup 1\n" },
    health: { (false, ["binance: silent for 31 s", "two\r\nlines"]) })

  private func answer(_ head: String, token: String? = nil) throws -> (String, Bool) {
    let request = try HTTPRequest.parse(Array((head + "\r\n\r\n").utf8)[...])
    let (response, headOnly) = MetricsResponder(token: token, routes: Self.routes).respond(to: request)
    return (String(decoding: response.bytes(headOnly: headOnly), as: UTF8.self), headOnly)
  }

  @Test func metrics() throws {
    let (text, headOnly) = try answer("GET /metrics HTTP/1.1")
    #expect(!headOnly)
    #expect(
      text == "HTTP/1.1 200 OK\r\nContent-Type: text/plain; version=0.0.4; charset=utf-8\r\n"
        + "Content-Length: 21\r\nConnection: close\r\n\r\n# TYPE up gauge\nup 1\n")
  }

  @Test func headIsTheSameHeadWithoutTheBody() throws {
    let (text, headOnly) = try answer("HEAD /metrics HTTP/1.1")
    #expect(headOnly)
    #expect(
      text == "HTTP/1.1 200 OK\r\nContent-Type: text/plain; version=0.0.4; charset=utf-8\r\n"
        + "Content-Length: 21\r\nConnection: close\r\n\r\n")
  }

  /// One line a reason, a reason's own line breaks made spaces.
  @Test func unhealthy() throws {
    let (text, _) = try answer("GET /healthz HTTP/1.1")
    #expect(text.hasPrefix("HTTP/1.1 503 Service Unavailable\r\n"))
    #expect(text.hasSuffix("\r\n\r\nbinance: silent for 31 s\ntwo  lines\n"))
  }

  @Test func unknownPathAndMethod() throws {
    #expect(try answer("GET /metrics/ HTTP/1.1").0.hasPrefix("HTTP/1.1 404 Not Found\r\n"))
    #expect(try answer("POST /nothing HTTP/1.1").0.hasPrefix("HTTP/1.1 404 Not Found\r\n"))
    let (text, _) = try answer("POST /metrics HTTP/1.1")
    #expect(text.hasPrefix("HTTP/1.1 405 Method Not Allowed\r\n"))
    #expect(text.firstRange(of: "\r\nAllow: GET, HEAD\r\n") != nil)
  }

  @Test(arguments: [
    ("", false),
    ("Authorization: Bearer s3cret", true),
    ("authorization: bearer  s3cret", true),
    ("Authorization: Bearer s3cre", false),
    ("Authorization: Bearer s3cret2", false),
    ("Authorization: Basic s3cret", false),
    ("Authorization: Bearers3cret", false),
    ("Authorization: Bearer ", false),
  ])
  func token(field: String, allowed: Bool) throws {
    let head = "GET /nothing HTTP/1.1" + (field.isEmpty ? "" : "\r\n" + field)
    let (text, _) = try answer(head, token: "s3cret")
    if allowed {
      #expect(text.hasPrefix("HTTP/1.1 404 "))
    } else {
      #expect(text.hasPrefix("HTTP/1.1 401 Unauthorized\r\n"))
      #expect(text.firstRange(of: "\r\nWWW-Authenticate: Bearer\r\n") != nil)
      #expect(text.firstRange(of: "s3cret") == nil)
    }
  }

  @Test func constantTimeEqual() {
    #expect(MetricsResponder.constantTimeEqual(Array("abc".utf8), Array("abc".utf8)))
    #expect(!MetricsResponder.constantTimeEqual(Array("abd".utf8), Array("abc".utf8)))
    #expect(!MetricsResponder.constantTimeEqual(Array("ab".utf8), Array("abc".utf8)))
    #expect(!MetricsResponder.constantTimeEqual(Array("abcd".utf8), Array("abc".utf8)))
    #expect(!MetricsResponder.constantTimeEqual([], Array("abc".utf8)))
  }

  @Test(arguments: [
    (HTTPRequestError.requestLineTooLong(limit: 8), "HTTP/1.1 414 URI Too Long\r\n"),
    (.headTooLarge(limit: 8), "HTTP/1.1 431 Request Header Fields Too Large\r\n"),
    (.malformed("x"), "HTTP/1.1 400 Bad Request\r\n"),
    (.unsupportedVersion, "HTTP/1.1 505 HTTP Version Not Supported\r\n"),
  ])
  func refusals(error: HTTPRequestError, start: String) {
    let text = String(decoding: MetricsResponder.respond(to: error).bytes(), as: UTF8.self)
    #expect(text.hasPrefix(start))
    #expect(text.firstRange(of: "\r\nConnection: close\r\n") != nil)
  }
}
