/// Bitfinex's timings and limits as the emulation enforces them, in seconds (docs/protocols.md §11).
public struct BitfinexRules: EmulatorRules {
  /// A channel that carried nothing for this many seconds gets `[CHANNEL_ID,"hb"]`; nil = never.
  public var heartbeatInterval: Double? = 15
  /// A connection with no channel open, and no client message for this many seconds (since it
  /// opened, or since the client's last message), is dropped without a close frame, as observed;
  /// nil = never. A connection with a channel is never closed for quiet: its heartbeats flow.
  public var idleTimeout: Double? = 60
  /// Channels one connection may have open; one more subscription is refused (10305).
  public var channelsPerConnection: Int = 25
  /// Upgrade requests accepted in any `connectionWindow` (Bitfinex counts 20 a minute per address
  /// on its public endpoint; every client of the test server has the same one); more get 429.
  public var connectionsPerWindow: Int = 20
  /// The sliding window of `connectionsPerWindow`, in seconds.
  public var connectionWindow: Double = 60

  public init() {}

  public func scaled(by factor: Double) -> BitfinexRules {
    var rules = self
    rules.heartbeatInterval = heartbeatInterval.map { $0 * factor }
    rules.idleTimeout = idleTimeout.map { $0 * factor }
    return rules
  }

  public func patient() -> BitfinexRules {
    var rules = self
    rules.idleTimeout = nil
    return rules
  }
}
