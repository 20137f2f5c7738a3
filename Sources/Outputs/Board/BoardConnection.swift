/// The feed's connection, as the board's status line tells it.
public enum BoardConnection: Sendable, Equatable {
  case connecting
  case connected
  /// Lost; reconnect attempt `attempt` is under way or waiting.
  case reconnecting(attempt: Int)
  /// The feed has ended.
  case ended

  var text: String {
    switch self {
    case .connecting: "connecting"
    case .connected: "connected"
    case .reconnecting(let attempt): "reconnecting (attempt \(attempt))"
    case .ended: "ended"
    }
  }
}
