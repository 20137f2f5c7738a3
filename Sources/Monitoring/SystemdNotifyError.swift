import TickerSupport

/// Why notifications to the service manager cannot be sent.
public enum SystemdNotifyError: Error, Sendable, Equatable, CustomStringConvertible {
  /// `NOTIFY_SOCKET` is neither an absolute path nor `@name` (systemd's `vsock:` addresses
  /// included: this tool speaks to Unix sockets only).
  case unsupportedAddress(String)
  /// Longer than a Unix socket address holds (`limit` bytes).
  case addressTooLong(String, limit: Int)
  /// `@name` outside Linux, which alone has the abstract namespace.
  case abstractUnavailable(String)
  /// The datagram socket could not be made.
  case socket(Errno)
  /// A datagram could not be sent (the manager gone, its queue full: the message is lost).
  case send(Errno)

  public var description: String {
    switch self {
    case .unsupportedAddress(let text):
      "NOTIFY_SOCKET=\(text) is neither an absolute path nor an abstract socket (@name)"
    case .addressTooLong(let text, let limit):
      "NOTIFY_SOCKET=\(text) is longer than a socket address holds (\(limit) bytes)"
    case .abstractUnavailable(let text):
      "NOTIFY_SOCKET=\(text) names an abstract socket, which only Linux has"
    case .socket(let errno): "cannot make the notification socket: \(errno)"
    case .send(let errno): "cannot notify the service manager: \(errno)"
    }
  }
}
