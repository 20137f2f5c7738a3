/// Why a connection attempt or a connection ended (and a reconnect follows).
import WebSocketWire

public enum DisconnectReason: Sendable, Equatable, CustomStringConvertible {
  /// The attempt or the connection failed with this error.
  case failed(WebSocketError)
  /// The peer closed with this status (1005 "no status received" when the close frame had none).
  case peerClosed(CloseStatus)
  /// No pong within the pong timeout: the connection was abandoned.
  case pongTimeout(Duration)
  /// No data message for the silence timeout: the connection was abandoned.
  case silence(Duration)
  /// The session's user asked for a reconnect (`SourceSession.reconnect(reason:)`).
  case requested(String)

  /// The error inside `.failed`, if any.
  public var error: WebSocketError? {
    if case .failed(let error) = self { return error }
    return nil
  }

  /// A short text for one stderr line; a CLI may describe `.failed` errors its own way.
  public var description: String {
    switch self {
    case .failed(let error): "\(error)"
    case .peerClosed(let status): "the server closed the connection (\(status))"
    case .pongTimeout(let limit): "no pong within \(limit.formattedSeconds)"
    case .silence(let limit): "no message for \(limit.formattedSeconds)"
    case .requested(let reason): reason
    }
  }
}

extension Duration {
  /// "0.5 s", "60 s": seconds with at most three decimals.
  var formattedSeconds: String {
    let (s, atto) = components
    let millis = Int64((Double(atto) / 1e15).rounded())
    if millis == 0 { return "\(s) s" }
    var fraction = String(millis)
    while fraction.count < 3 { fraction = "0" + fraction }
    while fraction.hasSuffix("0") { fraction.removeLast() }
    return "\(s).\(fraction) s"
  }
}
