/// Everything the session loop reacts to, funnelled through one inbox so that it is handled in
/// order by one task. (A connection's messages do not pass through it: its forwarding task puts
/// them into the session's events itself; see `Forwarding`.) Inputs carry the connection id or timer token they belong to; stale ones
/// (from an abandoned connection or a replaced timer) are ignored.
import WebSocketWire

enum SessionInput: Sendable {
  case connectFinished(id: Int, Result<any MessageConnection, WebSocketError>)
  case subscribed(id: Int, WebSocketError?)
  /// The connection's message stream finished: nil after a close handshake, else the error.
  case connectionEnded(id: Int, WebSocketError?)
  case pong(id: Int)
  case timer(token: Int)
  case stop(StopRequest)
  case stopFinished
  /// `SourceSession.reconnect(reason:)`.
  case reconnect(reason: String)
}

/// What `stop(...)` asked for.
struct StopRequest: Sendable {
  var beforeClose: [WebSocketMessage]
  var status: CloseStatus
  var timeout: Duration
}
