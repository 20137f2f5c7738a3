/// Hyperliquid's timings and limits as the emulation enforces them, in seconds (docs/protocols.md).
public struct HyperliquidRules: EmulatorRules {
  /// A connection the venue has sent nothing to for this many seconds is closed; nil = never.
  public var idleTimeout: Double? = 60
  /// Client messages allowed in any `messageWindow` (Hyperliquid: 2,000 a minute from one
  /// address); more are answered with an error and change nothing.
  public var messagesPerWindow: Int = 2000
  /// The sliding window of `messagesPerWindow`, in seconds.
  public var messageWindow: Double = 60
  /// Subscriptions one connection may hold (Hyperliquid: 1,000 an address); more are refused.
  public var subscriptionLimit: Int = 1000

  public init() {}

  public func scaled(by factor: Double) -> HyperliquidRules {
    var rules = self
    rules.idleTimeout = idleTimeout.map { $0 * factor }
    return rules
  }

  public func patient() -> HyperliquidRules {
    var rules = self
    rules.idleTimeout = nil
    return rules
  }
}
