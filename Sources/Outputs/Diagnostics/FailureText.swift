import FeedRuntime
import TickerSupport
import Transport
import Venues
import WebSocketClient
import WebSocketWire

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The words for what went wrong with a connection, in one place (the exit codes that go with
/// them are the command line's business). Every text passes through `Diagnostics` on its way out,
/// which redacts secrets and escapes control characters.
public enum FailureText {
  /// `error`, with the venue's advice for an HTTP status where it has some (Binance's 451).
  public static func describe(_ error: WebSocketError, provider: (any Provider)? = nil) -> String {
    switch error {
    case .handshake(.unexpectedStatus(let status, let reason, let retryAfter)):
      let http = "HTTP \(status)\(reason.isEmpty ? "" : " \(reason)")"
      let advice = provider?.handshakeAdvice(status: status).map { "; \($0)" } ?? ""
      switch status {
      case 401, 403:
        return "the server refused the API token (\(http))\(advice)"
      case 429:
        let ceiling = Backoff.defaultRetryAfterCeiling.components.seconds
        let wait =
          retryAfter.map {
            " (Retry-After: \($0) s\(Int64($0) > ceiling ? ", more than the \(ceiling) s the ticker waits at most" : ""))"
          } ?? ""
        return "the server is rate-limiting connections (\(http))\(wait)\(advice)"
      case 500...599:
        return "the server is unavailable (\(http))\(advice)"
      default:
        return "the server refused the WebSocket upgrade (\(http))\(advice)"
      }
    case .handshake(let other):
      return "the WebSocket handshake failed: \(describe(other))"
    case .invalidURL(let invalid):
      return invalid.description
    case .transport(let transport):
      return describe(transport)
    case .protocolViolation(let frameError):
      return "the server broke the WebSocket protocol (\(frameError)); closed with \(frameError.closeCode)"
    case .abnormalClosure:
      return "the connection was lost (no close frame: \(CloseCode.abnormalClosure))"
    case .unsupported(let why):
      return "this engine cannot do WebSockets here: \(why)"
    case .notConnected:
      return "the connection is closed"
    }
  }

  public static func describe(_ error: TransportError) -> String { error.text }

  public static func describe(_ error: HandshakeError) -> String {
    switch error {
    case .unexpectedStatus(let code, let reason, _): "HTTP \(code) \(reason)"
    case .malformedResponse(let why): "malformed HTTP response (\(why))"
    case .responseTooLarge: "the response headers are too large"
    case .missingUpgradeHeader: "the response has no \"Upgrade: websocket\""
    case .missingConnectionHeader: "the response has no \"Connection: Upgrade\""
    case .invalidAcceptKey: "Sec-WebSocket-Accept does not match our key"
    case .unexpectedExtension(let what): "the server chose \(what), which we did not offer"
    case .invalidExtension(let why):
      "the server's answer to our permessage-deflate offer is invalid: \(why); --compression off does without it"
    }
  }

  /// The reason part of a disconnect line.
  public static func describe(_ reason: DisconnectReason, provider: (any Provider)? = nil) -> String {
    switch reason {
    case .failed(let error): describe(error, provider: provider)
    case .peerClosed(let status): "the server closed the connection (\(status))"
    case .pongTimeout(let limit): "no pong within \(seconds(limit)): the connection is dead"
    case .silence(let limit): "no message for \(seconds(limit)): the connection is dead"
    case .requested(let reason): reason
    }
  }

  /// "0.6 s", "60 s".
  public static func seconds(_ duration: Duration) -> String { duration.secondsText }

  public static func systemError(_ code: Int32) -> String { Errno.text(code) }
}
