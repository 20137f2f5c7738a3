/// A WebSocket frame opcode (RFC 6455 §5.2). Reserved opcodes are not representable; the parser
/// rejects them with `FrameError.unknownOpcode`.
public enum Opcode: UInt8, Sendable, Equatable, CustomStringConvertible {
  case continuation = 0x0
  case text = 0x1
  case binary = 0x2
  case close = 0x8
  case ping = 0x9
  case pong = 0xA

  /// Close, ping and pong: at most 125 payload bytes and never fragmented.
  public var isControl: Bool { rawValue & 0x8 != 0 }

  public var description: String {
    switch self {
    case .continuation: "continuation"
    case .text: "text"
    case .binary: "binary"
    case .close: "close"
    case .ping: "ping"
    case .pong: "pong"
    }
  }
}
