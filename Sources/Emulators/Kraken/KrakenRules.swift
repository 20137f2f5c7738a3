/// Kraken's timings and limits as the emulation enforces them, in seconds (docs/protocols.md).
public struct KrakenRules: EmulatorRules {
  /// While something is subscribed, `{"channel":"heartbeat"}` after this many seconds without
  /// another channel message; nil = never.
  public var heartbeatInterval: Double? = 1
  /// A connection whose client sent no request for this many seconds is closed; nil = never.
  public var idleTimeout: Double? = 60
  /// Requests allowed per `rateWindow`; one more is refused with `Exceeded msg rate`.
  public var messagesPerWindow: Int = 5
  /// The sliding window of `messagesPerWindow`, in seconds.
  public var rateWindow: Double = 1

  public init() {}

  public func scaled(by factor: Double) -> KrakenRules {
    var rules = self
    rules.heartbeatInterval = heartbeatInterval.map { $0 * factor }
    rules.idleTimeout = idleTimeout.map { $0 * factor }
    return rules
  }
}
