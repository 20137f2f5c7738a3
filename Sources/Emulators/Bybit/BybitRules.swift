/// Bybit's timings and limits as the emulation enforces them, in seconds (docs/protocols.md §9).
public struct BybitRules: EmulatorRules {
  /// A connection that has seen no ping-pong and been pushed nothing for this many seconds is
  /// cut (dropped without a close frame); nil = never.
  public var idleTimeout: Double? = 600
  /// Topics one subscribe or unsubscribe request may name (spot); more are refused with
  /// `args size >10` and change nothing.
  public var argsPerRequest: Int = 10
  /// Upgrade requests accepted in any `connectionWindow` (the venue counts per address; every
  /// client of the test server has the same one); more are refused with 429.
  public var connectionsPerWindow: Int = 500
  /// The sliding window of `connectionsPerWindow`, in seconds.
  public var connectionWindow: Double = 300

  public init() {}

  public func scaled(by factor: Double) -> BybitRules {
    var rules = self
    rules.idleTimeout = idleTimeout.map { $0 * factor }
    return rules
  }

  public func patient() -> BybitRules {
    var rules = self
    rules.idleTimeout = nil
    return rules
  }
}
