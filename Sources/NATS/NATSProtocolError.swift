/// A NATS server that broke the client protocol (or could not be understood).
public enum NATSProtocolError: Error, Sendable, Equatable, CustomStringConvertible {
  /// A line longer than the limit (no newline within it): the server is broken or hostile.
  case lineTooLong(limit: Int)
  /// An operation the client protocol does not have (its first bytes).
  case unknownOperation(String)
  /// `MSG` to a publisher, which never subscribes, or `HMSG` (headers are never asked for).
  case unexpectedMessage(String)
  /// An `INFO` whose JSON cannot be used.
  case badInfo(String)
  /// A `MSG` that does not follow the protocol.
  case badMessage(String)
  /// A `MSG` larger than the subscriber takes.
  case payloadTooLarge(size: Int, limit: Int)

  public var description: String {
    switch self {
    case .lineTooLong(let limit): "the NATS server sent a line longer than \(limit) bytes"
    case .unknownOperation(let op): "the NATS server sent an unknown operation \"\(op)\""
    case .unexpectedMessage(let op): "the NATS server sent \(op) although nothing was subscribed"
    case .badInfo(let why): "the NATS server's INFO is unusable: \(why)"
    case .badMessage(let why): "the NATS server sent a broken MSG: \(why)"
    case .payloadTooLarge(let size, let limit):
      "the NATS server sent a message of \(size) bytes, more than the \(limit) taken"
    }
  }
}
