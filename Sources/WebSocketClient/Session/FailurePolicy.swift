/// The one place that decides which failures are retried: pure functions of the error or the
/// peer's close status.
import Transport
import WebSocketWire

public enum FailurePolicy {
  /// How the session treats a failed connection attempt or a failed connection.
  public static func disposition(for error: WebSocketError) -> Disposition {
    switch error {
    case .transport(let transport): disposition(for: transport)
    case .handshake(.unexpectedStatus(let code, _, let retryAfter)):
      disposition(forHTTPStatus: code, retryAfter: retryAfter)
    // A server that answers the upgrade with broken HTTP or headers will do so again.
    case .handshake: .fatal
    // Our own close for the peer's violation (1002/1007/1009): the next connection may be fine.
    case .protocolViolation: .reconnect
    case .abnormalClosure: .reconnect
    case .notConnected: .reconnect
    case .unsupported: .fatal
    case .invalidURL: .fatal
    }
  }

  /// How the session treats a close frame from the peer (nil: the connection finished without
  /// our close and without a status, treated like 1005).
  ///
  /// Only 1000 ends the feed. Every other code — 1001 going away, 1005, 1006, 1011, 1012, 1013,
  /// and also codes that blame us (1002, 1008 …) or application codes (4000–4999) — reconnects
  /// with backoff; `maxRetries` bounds a peer that keeps refusing.
  public static func disposition(forPeerClose status: CloseStatus?) -> Disposition {
    guard let status else { return .reconnect }
    return status.code == .normalClosure ? .endNormally : .reconnect
  }

  static func disposition(for error: TransportError) -> Disposition {
    switch error {
    case .resolve, .connect, .timeout, .syscall, .connectionClosed, .cancelled: .reconnect
    // TLS setup or protocol errors (unreadable CA file, no common version, alerts);
    // a certificate that failed verification; no TLS in this build.
    case .tls, .certificateVerification, .tlsUnavailable, .tlsLibraryMissing: .fatal
    case .peer(_, let retry): retry ? .reconnect : .fatal
    }
  }

  static func disposition(forHTTPStatus code: Int, retryAfter: Int?) -> Disposition {
    switch code {
    case 429: .rateLimited(retryAfterSeconds: retryAfter)
    case 503 where retryAfter != nil: .rateLimited(retryAfterSeconds: retryAfter)
    case 408, 500...599: .reconnect
    // 401/403 (token refused), other 4xx, and anything else that is not an upgrade (2xx, 3xx).
    default: .fatal
    }
  }
}
