/// The reconnect and liveness settings of a `SourceSession`.
import Transport

public struct SessionConfiguration: Sendable, Equatable {
  /// Reconnect delays (default: 0.5 s doubling to 60 s, jitter 50 %, reset after 30 s healthy).
  public var backoff: Backoff
  /// Reconnects allowed in a row (since the last healthy connection): nil = unlimited, 0 = never.
  public var maxRetries: Int?
  /// A WebSocket ping this often; nil = no pings.
  public var pingInterval: Duration?
  /// A pong must arrive this soon after its ping, else the connection is dead.
  public var pongTimeout: Duration
  /// A connection with no data message for this long is dead; nil = no watchdog.
  public var silenceTimeout: Duration?
  /// Seconds given to the close handshake of a connection the session abandons (dead, or
  /// failed during `onConnect`); the session does not wait for it.
  public var abandonCloseTimeout: Double

  public init(
    backoff: Backoff = Backoff(),
    maxRetries: Int? = nil,
    pingInterval: Duration? = .seconds(30),
    pongTimeout: Duration = .seconds(10),
    silenceTimeout: Duration? = .seconds(150),
    abandonCloseTimeout: Double = 1
  ) {
    self.backoff = backoff
    self.maxRetries = maxRetries
    self.pingInterval = pingInterval
    self.pongTimeout = pongTimeout
    self.silenceTimeout = silenceTimeout
    self.abandonCloseTimeout = abandonCloseTimeout
  }
}
