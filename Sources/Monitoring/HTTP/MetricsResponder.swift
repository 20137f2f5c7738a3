import WebSocketWire

/// The answer to each request of the metrics endpoint, decided without a socket: the token check,
/// the routes, the methods. Pure apart from the routes' closures.
///
/// Order: a head that cannot be read is refused first (400, 414, 431, 505); then, with a token, a
/// request without it (401, whatever its path, so that nothing is learnt without the token); then
/// an unknown path (404); then a method other than `GET` and `HEAD` (405 with `Allow`).
struct MetricsResponder: Sendable {
  static let exposition = "text/plain; version=0.0.4; charset=utf-8"

  /// The bytes of the expected bearer token; nil: no token asked.
  let token: [UInt8]?
  let routes: MetricsRoutes

  init(token: String?, routes: MetricsRoutes) {
    self.token = token.map { Array($0.utf8) }
    self.routes = routes
  }

  /// The response and whether it goes without its body (any answer to `HEAD`).
  func respond(to request: HTTPRequest) -> (response: HTTPResponse, headOnly: Bool) {
    (response(to: request), request.method == "HEAD")
  }

  private func response(to request: HTTPRequest) -> HTTPResponse {
    if let token, !Self.isAuthorized(request.head, token: token) {
      return .text(401, "unauthorized\n", fields: [.init(name: "WWW-Authenticate", value: "Bearer")])
    }
    guard request.path == "/metrics" || request.path == "/healthz" else { return .text(404, "not found\n") }
    guard request.method == "GET" || request.method == "HEAD" else {
      return .text(405, "method not allowed\n", fields: [.init(name: "Allow", value: "GET, HEAD")])
    }
    return request.path == "/metrics" ? metrics() : health()
  }

  /// The refusal of a head that could not be read.
  static func respond(to error: HTTPRequestError) -> HTTPResponse {
    switch error {
    case .requestLineTooLong: .text(414, "request line too long\n")
    case .headTooLarge: .text(431, "request head too large\n")
    case .malformed: .text(400, "bad request\n")
    case .unsupportedVersion: .text(505, "HTTP/1.1 only\n")
    }
  }

  /// The answer to a connection beyond the limit (every slot writing a response).
  static let busy = HTTPResponse.text(503, "too many connections\n")

  private func metrics() -> HTTPResponse {
    HTTPResponse(
      status: 200, fields: [.init(name: "Content-Type", value: Self.exposition)],
      body: Array(routes.metrics().utf8))
  }

  /// `ok`, or a line a reason (control characters made spaces, so that each stays one line).
  private func health() -> HTTPResponse {
    let (healthy, reasons) = routes.health()
    if healthy { return .text(200, "ok\n") }
    var body = ""
    for reason in reasons.isEmpty ? ["unhealthy"] : reasons {
      body.unicodeScalars.append(
        contentsOf: reason.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : $0 })
      body += "\n"
    }
    return .text(503, body)
  }

  /// Whether the head carries `Authorization: Bearer <token>` (the scheme in any case, RFC 9110
  /// §11.1), the credential compared in constant time.
  static func isAuthorized(_ head: HTTPHead, token: [UInt8]) -> Bool {
    guard let value = head.value(of: "Authorization") else { return false }
    let bytes = Array(value.utf8)
    guard bytes.count > 7, String(decoding: bytes[0..<6], as: UTF8.self).lowercased() == "bearer",
      bytes[6] == 0x20
    else { return false }
    var credential = bytes[7...]
    while credential.first == 0x20 { credential = credential.dropFirst() }
    return constantTimeEqual(Array(credential), token)
  }

  /// Whether `given` equals `expected`, in a time that depends on `expected`'s length only.
  static func constantTimeEqual(_ given: [UInt8], _ expected: [UInt8]) -> Bool {
    var difference = UInt8(given.count == expected.count ? 0 : 1)
    for index in 0..<expected.count {
      difference |= (index < given.count ? given[index] : 0) ^ expected[index]
    }
    return difference == 0
  }
}
