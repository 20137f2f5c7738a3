import WebSocketClient

/// The one place that turns a failure into the line the user reads and the exit code scripts
/// see. Every text here passes through `Diagnostics`, which removes the token.
enum ErrorReport {
  static func describe(_ error: WebSocketError) -> (code: ExitCode, message: String) {
    switch error {
    case .handshake(.unexpectedStatus(let status, let reason, let retryAfter)):
      let http = "HTTP \(status)\(reason.isEmpty ? "" : " \(reason)")"
      switch status {
      case 401, 403:
        return (.authRefused, "the server refused the API token (\(http)); check FINNHUB_TOKEN")
      case 429:
        let ceiling = Backoff.defaultRetryAfterCeiling.components.seconds
        let wait =
          retryAfter.map {
            " (Retry-After: \($0) s\(Int64($0) > ceiling ? ", more than the \(ceiling) s the ticker waits at most" : ""))"
          } ?? ""
        return (.unavailable, "the server is rate-limiting connections (\(http))\(wait)")
      case 500...599:
        return (.unavailable, "the server is unavailable (\(http))")
      default:
        return (.protocolError, "the server refused the WebSocket upgrade (\(http))")
      }
    case .handshake(let other):
      return (.protocolError, "the WebSocket handshake failed: \(describe(other))")
    case .transport(let transport):
      return describe(transport)
    case .protocolViolation(let frameError):
      return (
        .protocolError,
        "the server broke the WebSocket protocol (\(frameError)); closed with \(frameError.closeCode)"
      )
    case .abnormalClosure:
      return (.unavailable, "the connection was lost (no close frame: \(CloseCode.abnormalClosure))")
    case .unsupported(let why):
      return (.unavailable, "this engine cannot do WebSockets here: \(why)")
    case .notConnected:
      return (.unavailable, "the connection is closed")
    }
  }

  static func describe(_ error: TransportError) -> (code: ExitCode, message: String) {
    switch error {
    case .invalidURL(let why): (.usage, "invalid URL: \(why)")
    case .resolve(let host, let message): (.unavailable, "cannot resolve \(host): \(message)")
    case .connect(let host, let port, let errno):
      (.unavailable, "cannot connect to \(host) port \(port): \(SystemError.text(errno))")
    case .timeout(let what): (.unavailable, "timed out: \(what)")
    case .syscall(let call, let errno): (.unavailable, "\(call) failed: \(SystemError.text(errno))")
    case .connectionClosed: (.unavailable, "the server closed the TCP connection")
    case .cancelled: (.unavailable, "the connection was shut down")
    case .tls(let message): (.protocolError, "TLS failed: \(message)")
    case .certificateVerification(let code, let message):
      (
        .protocolError,
        "the server's TLS certificate failed verification: \(message) (verify code \(code)); "
          + "use --cacert FILE to trust a private CA"
      )
    case .tlsUnavailable: (.unavailable, "TLS is not available in this build; use --engine urlsession")
    }
  }

  static func describe(_ error: HandshakeError) -> String {
    switch error {
    case .unexpectedStatus(let code, let reason, _): "HTTP \(code) \(reason)"
    case .malformedResponse(let why): "malformed HTTP response (\(why))"
    case .responseTooLarge: "the response headers are too large"
    case .missingUpgradeHeader: "the response has no \"Upgrade: websocket\""
    case .missingConnectionHeader: "the response has no \"Connection: Upgrade\""
    case .invalidAcceptKey: "Sec-WebSocket-Accept does not match our key"
    case .unexpectedExtension(let what): "the server chose \(what), which we did not offer"
    }
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

enum SystemError {
  static func text(_ code: Int32) -> String {
    guard let c = strerror(code) else { return "errno \(code)" }
    return String(cString: c)
  }
}
