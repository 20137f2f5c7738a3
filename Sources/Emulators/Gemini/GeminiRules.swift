/// Gemini's timings as the emulation enforces them, in seconds (docs/protocols.md §10).
public struct GeminiRules: EmulatorRules {
  /// `{"type":"heartbeat","timestamp":…}` this often from the connection's start, whatever else
  /// is sent; nil = never.
  public var heartbeatInterval: Double? = 5

  public init() {}

  public func scaled(by factor: Double) -> GeminiRules {
    var rules = self
    rules.heartbeatInterval = heartbeatInterval.map { $0 * factor }
    return rules
  }
}
