/// One complete WebSocket data message, reassembled from its fragments.
public enum WebSocketMessage: Sendable, Equatable {
  case text(String)
  case binary([UInt8])
}
