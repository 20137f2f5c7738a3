/// OKX's timings and limits as the emulation enforces them, in seconds (docs/protocols.md).
public struct OKXRules: EmulatorRules {
  /// A connection without a subscription this many seconds after the upgrade, or pushed nothing
  /// for this long after one, is closed with 4004; nil = never.
  public var quietTimeout: Double? = 30
  /// Subscribe, unsubscribe and login requests allowed per connection in any hour; more are
  /// answered with error 60014.
  public var requestsPerHour: Int = 480
  /// Upgrade requests accepted in any `connectionWindow` (the venue counts per address; every
  /// client of the test server has the same one); more are refused with 429.
  public var connectionsPerSecond: Int = 3
  /// The sliding window of `connectionsPerSecond`, in seconds (a test lengthens it, so that a
  /// burst of connections counts as one however slowly the machine makes them).
  public var connectionWindow: Double = 1

  public init() {}

  public func scaled(by factor: Double) -> OKXRules {
    var rules = self
    rules.quietTimeout = quietTimeout.map { $0 * factor }
    return rules
  }

  public func patient() -> OKXRules {
    var rules = self
    rules.quietTimeout = nil
    return rules
  }
}
