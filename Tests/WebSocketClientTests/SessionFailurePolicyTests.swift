import Testing
import WebSocketClient
import WebSocketWire

@Suite("Session failure policy")
struct SessionFailurePolicyTests {
  static let transient: [WebSocketError] = [
    .abnormalClosure,
    .notConnected,
    .transport(.connectionClosed),
    .transport(.cancelled),
    .transport(.resolve(host: "ws.finnhub.io", message: "Temporary failure in name resolution")),
    .transport(.connect(host: "ws.finnhub.io", port: 443, errno: 111)),
    .transport(.timeout("read")),
    .transport(.syscall(call: "recv", errno: 104)),
    .protocolViolation(.messageTooLarge(20_000_000)),
    .protocolViolation(.invalidUTF8),
    .protocolViolation(.maskedFrameFromServer),
    .handshake(.unexpectedStatus(code: 408, reason: "Request Timeout", retryAfter: nil)),
    .handshake(.unexpectedStatus(code: 500, reason: "Internal Server Error", retryAfter: nil)),
    .handshake(.unexpectedStatus(code: 502, reason: "Bad Gateway", retryAfter: nil)),
    .handshake(.unexpectedStatus(code: 503, reason: "Service Unavailable", retryAfter: nil)),
    .handshake(.unexpectedStatus(code: 599, reason: "", retryAfter: nil)),
  ]

  @Test(arguments: transient)
  func transientErrorsReconnect(error: WebSocketError) {
    #expect(FailurePolicy.disposition(for: error) == .reconnect)
  }

  static let fatal: [WebSocketError] = [
    .handshake(.unexpectedStatus(code: 401, reason: "Unauthorized", retryAfter: nil)),
    .handshake(.unexpectedStatus(code: 403, reason: "Forbidden", retryAfter: nil)),
    .handshake(.unexpectedStatus(code: 404, reason: "Not Found", retryAfter: nil)),
    .handshake(.unexpectedStatus(code: 400, reason: "Bad Request", retryAfter: nil)),
    .handshake(.unexpectedStatus(code: 426, reason: "Upgrade Required", retryAfter: 5)),
    .handshake(.unexpectedStatus(code: 200, reason: "OK", retryAfter: nil)),
    .handshake(.unexpectedStatus(code: 301, reason: "Moved Permanently", retryAfter: nil)),
    .handshake(.malformedResponse("bad status line")),
    .handshake(.responseTooLarge),
    .handshake(.missingUpgradeHeader),
    .handshake(.missingConnectionHeader),
    .handshake(.invalidAcceptKey),
    .handshake(.unexpectedExtension("permessage-deflate")),
    .transport(.certificateVerification(code: 62, message: "hostname mismatch")),
    .transport(.tls("cannot load CA certificates from /nope.pem")),
    .transport(.tlsUnavailable),
    .transport(.tlsLibraryMissing("libssl.so.3: cannot open shared object file")),
    .invalidURL(InvalidWebSocketURL("the URL must start with ws:// or wss://")),
    .unsupported("WebSockets not supported by libcurl"),
  ]

  @Test(arguments: fatal)
  func fatalErrorsEnd(error: WebSocketError) {
    #expect(FailurePolicy.disposition(for: error) == .fatal)
  }

  @Test func tooManyRequestsIsRateLimitedWithOrWithoutRetryAfter() {
    let with = WebSocketError.handshake(.unexpectedStatus(code: 429, reason: "Too Many", retryAfter: 17))
    let without = WebSocketError.handshake(.unexpectedStatus(code: 429, reason: "Too Many", retryAfter: nil))
    #expect(FailurePolicy.disposition(for: with) == .rateLimited(retryAfterSeconds: 17))
    #expect(FailurePolicy.disposition(for: without) == .rateLimited(retryAfterSeconds: nil))
  }

  @Test func serviceUnavailableWithRetryAfterIsHonoured() {
    let error = WebSocketError.handshake(.unexpectedStatus(code: 503, reason: "", retryAfter: 30))
    #expect(FailurePolicy.disposition(for: error) == .rateLimited(retryAfterSeconds: 30))
  }

  @Test func normalClosureEndsTheSession() {
    #expect(FailurePolicy.disposition(forPeerClose: CloseStatus(code: .normalClosure)) == .endNormally)
    #expect(
      FailurePolicy.disposition(forPeerClose: CloseStatus(code: .normalClosure, reason: "bye"))
        == .endNormally)
  }

  @Test(arguments: [UInt16(1001), 1002, 1003, 1005, 1006, 1007, 1008, 1009, 1011, 1012, 1013, 1014, 4000])
  func otherPeerClosesReconnect(code: UInt16) {
    #expect(FailurePolicy.disposition(forPeerClose: CloseStatus(code: CloseCode(code))) == .reconnect)
  }

  @Test func peerCloseWithoutStatusReconnects() {
    #expect(FailurePolicy.disposition(forPeerClose: nil) == .reconnect)
  }
}

@Suite("Session disconnect reasons")
struct SessionDisconnectReasonTests {
  @Test(arguments: [
    (DisconnectReason.pongTimeout(.seconds(10)), "no pong within 10 s"),
    (.silence(.milliseconds(1500)), "no message for 1.5 s"),
    (
      .peerClosed(CloseStatus(code: .goingAway, reason: "restart")),
      "the server closed the connection (1001 going away: restart)"
    ),
    (.failed(.abnormalClosure), "abnormalClosure"),
  ])
  func reasonsDescribeThemselves(reason: DisconnectReason, text: String) {
    #expect(reason.description == text)
  }

  @Test func onlyFailuresCarryAnError() {
    #expect(DisconnectReason.failed(.notConnected).error == .notConnected)
    #expect(DisconnectReason.silence(.seconds(1)).error == nil)
    #expect(DisconnectReason.peerClosed(CloseStatus(code: .goingAway)).error == nil)
  }
}
