/// Upbit's timings and limits as the emulation enforces them, in seconds (docs/protocols.md).
public struct UpbitRules: EmulatorRules {
  /// Requests allowed per `rateWindow` (every text or binary message, `PING` included).
  public var messagesPerWindow: Int = 5
  /// The sliding window of `messagesPerWindow`, in seconds.
  public var rateWindow: Double = 1
  /// Requests allowed per minute (sliding), besides the per-second limit.
  public var requestsPerMinute: Int = 100
  /// Seconds between an error message and the close (1000) that follows it.
  public var errorCloseDelay: Double = 0.15
  /// After the client's first `PING`, `{"status":"UP"}` again every this many seconds; nil =
  /// only in answer to each `PING`.
  public var statusInterval: Double? = 10
  /// Refuse an upgrade request that carries an `Origin` header with 429 (the venue allows such
  /// requests once per 10 s; refusing every one makes the mistake visible).
  public var refuseOrigin = true

  public init() {}

  public func scaled(by factor: Double) -> UpbitRules {
    var rules = self
    rules.errorCloseDelay = errorCloseDelay * factor
    rules.statusInterval = statusInterval.map { $0 * factor }
    return rules
  }
}
