/// One complete WebSocket data message, reassembled from its fragments.
public enum WebSocketMessage: Sendable, Equatable {
  case text(String)
  case binary([UInt8])
}

extension WebSocketMessage {
  /// The payload size in bytes (what a buffer of messages costs).
  public var byteCount: Int {
    switch self {
    case .text(let text): text.utf8.count
    case .binary(let bytes): bytes.count
    }
  }
}
