/// What the session does after a failure or a peer's close.
public enum Disposition: Sendable, Equatable {
  /// A transient failure: reconnect after the backoff delay.
  case reconnect
  /// HTTP 429 at the handshake: reconnect, but not before `Retry-After` seconds (when the server
  /// sent it) or the backoff's rate-limit delay (60 s by default).
  case rateLimited(retryAfterSeconds: Int?)
  /// A permanent failure (token refused, certificate rejected, bad URL …): end, no retry.
  case fatal
  /// The peer closed with 1000: the feed is over, end the session without an error.
  case endNormally
}
