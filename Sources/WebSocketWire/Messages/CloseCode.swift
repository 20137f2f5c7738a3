/// A WebSocket close status code (RFC 6455 §7.4).
public struct CloseCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  public var rawValue: UInt16
  public init(rawValue: UInt16) { self.rawValue = rawValue }
  public init(_ rawValue: UInt16) { self.rawValue = rawValue }

  public static let normalClosure = CloseCode(1000)
  public static let goingAway = CloseCode(1001)
  public static let protocolError = CloseCode(1002)
  public static let unsupportedData = CloseCode(1003)
  /// Never sent on the wire: "no status code was present".
  public static let noStatusReceived = CloseCode(1005)
  /// Never sent on the wire: the connection ended without a close frame.
  public static let abnormalClosure = CloseCode(1006)
  public static let invalidFramePayloadData = CloseCode(1007)
  public static let policyViolation = CloseCode(1008)
  public static let messageTooBig = CloseCode(1009)
  public static let mandatoryExtension = CloseCode(1010)
  public static let internalServerError = CloseCode(1011)
  public static let serviceRestart = CloseCode(1012)
  public static let tryAgainLater = CloseCode(1013)
  /// Never sent on the wire: TLS handshake failure.
  public static let tlsHandshake = CloseCode(1015)

  /// Whether this code may appear in a close frame on the wire (RFC 6455 §7.4.1/§7.4.2).
  public var isValidOnWire: Bool {
    switch rawValue {
    case 1000...1003, 1007...1011, 1012, 1013, 1014: return true
    case 3000...4999: return true
    default: return false
    }
  }

  public var description: String {
    let name: String? =
      switch rawValue {
      case 1000: "normal closure"
      case 1001: "going away"
      case 1002: "protocol error"
      case 1003: "unsupported data"
      case 1005: "no status received"
      case 1006: "abnormal closure"
      case 1007: "invalid payload data"
      case 1008: "policy violation"
      case 1009: "message too big"
      case 1010: "mandatory extension"
      case 1011: "internal server error"
      case 1012: "service restart"
      case 1013: "try again later"
      case 1015: "TLS handshake failure"
      default: nil
      }
    return name.map { "\(rawValue) \($0)" } ?? "\(rawValue)"
  }
}

/// The close status a peer sent (or the one recorded when none arrived).
public struct CloseStatus: Sendable, Equatable, CustomStringConvertible {
  public var code: CloseCode
  public var reason: String
  public init(code: CloseCode, reason: String = "") {
    self.code = code
    self.reason = reason
  }
  public var description: String { reason.isEmpty ? "\(code)" : "\(code): \(reason)" }
}
