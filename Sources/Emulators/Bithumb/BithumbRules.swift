/// Bithumb's timings and limits as the emulation enforces them, in seconds (docs/protocols.md §12).
public struct BithumbRules: EmulatorRules {
  /// A connection whose client sent nothing (no message, no WebSocket ping) for this many seconds
  /// is closed with 1001; nil = never. Bithumb documents about 120 s without traffic either way;
  /// 60 s was observed: the emulation takes the stricter figure and counts only the client.
  public var idleTimeout: Double? = 60
  /// After the client's first `PING`, `{"status":"UP"}` again every this many seconds; nil =
  /// only in answer to each `PING`.
  public var statusInterval: Double? = 10
  /// Seconds between an error message and the close that follows it.
  public var errorCloseDelay: Double = 0.15
  /// Upgrade requests accepted in any `connectionWindow` (the venue counts per address; every
  /// client of the test server has the same one); more are refused with 429.
  public var connectionsPerSecond: Int = 10
  /// The sliding window of `connectionsPerSecond`, in seconds.
  public var connectionWindow: Double = 1

  public init() {}

  public func scaled(by factor: Double) -> BithumbRules {
    var rules = self
    rules.idleTimeout = idleTimeout.map { $0 * factor }
    rules.statusInterval = statusInterval.map { $0 * factor }
    rules.errorCloseDelay = errorCloseDelay * factor
    return rules
  }
}
