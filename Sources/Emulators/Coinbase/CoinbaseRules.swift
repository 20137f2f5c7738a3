/// Coinbase Exchange's timings as the emulation enforces them, in seconds (docs/protocols.md).
public struct CoinbaseRules: EmulatorRules {
  /// Seconds after the upgrade by which a successful subscribe must have arrived; nil = never.
  public var subscribeDeadline: Double? = 5

  public init() {}

  public func scaled(by factor: Double) -> CoinbaseRules {
    var rules = self
    rules.subscribeDeadline = subscribeDeadline.map { $0 * factor }
    return rules
  }

  public func patient() -> CoinbaseRules {
    var rules = self
    rules.subscribeDeadline = nil
    return rules
  }
}
