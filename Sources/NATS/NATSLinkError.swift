import TickerSupport
import Transport

/// Why a connection to the NATS server could not be made, or ended. None of these ends the
/// ticker: the publisher reconnects (see `NATSPublisher`).
public enum NATSLinkError: Error, Sendable, Equatable, CustomStringConvertible {
  /// TCP: name lookup, connect, read or write failed.
  case transport(TransportError)
  /// The server broke the protocol (an endless line, an unknown operation, a bad INFO).
  case protocolViolation(NATSProtocolError)
  /// `tls://`, and the server's INFO offers no TLS.
  case tlsNotOffered
  /// The server answered `-ERR` and closes the connection (`'Authorization Violation'`, …).
  case refused(NATSServerError)
  /// The server closed the connection.
  case closedByServer
  /// No INFO, or no PONG to the CONNECT's PING, within the connect timeout.
  case handshakeTimeout(seconds: Double)
  /// This many PINGs in a row went unanswered: the server is gone or stuck.
  case noPong(pings: Int)
  /// A write made no progress for this long: the server stopped reading.
  case writeStalled(seconds: Double)

  public var description: String {
    switch self {
    case .transport(.connectionClosed): "the server closed the connection"
    case .transport(let error): error.text
    case .protocolViolation(let error): "\(error)"
    case .tlsNotOffered:
      "the server offers no TLS (tls:// asks for it): use nats://, or give the server a certificate"
    case .refused(let error) where error.isAuthorization:
      "the server refused the credentials: \(error) (check the user, password or token in the URL)"
    case .refused(let error): "the server answered \(error)"
    case .closedByServer: "the server closed the connection"
    case .handshakeTimeout(let seconds):
      "no answer to CONNECT within \(Duration.milliseconds(Int64(seconds * 1000)).secondsText)"
    case .noPong(let pings): "\(pings) pings went unanswered: the connection is dead"
    case .writeStalled(let seconds):
      "the server read nothing for \(Duration.milliseconds(Int64(seconds * 1000)).secondsText)"
    }
  }
}
