/// Binance's timings and limits as the emulation enforces them, in seconds (docs/protocols.md).
public struct BinanceRules: EmulatorRules {
  /// A ping frame every this many seconds; nil = never.
  public var pingInterval: Double? = 20
  /// A ping not answered by a pong echoing its payload within this many seconds gets the
  /// connection dropped.
  public var pongTimeout: Double = 60
  /// Client frames allowed per `rateWindow` (text, binary, ping and pong alike); one more closes
  /// with 1008.
  public var messagesPerWindow: Int = 5
  /// The sliding window of `messagesPerWindow`, in seconds.
  public var rateWindow: Double = 1

  public init() {}

  public func scaled(by factor: Double) -> BinanceRules {
    var rules = self
    rules.pingInterval = pingInterval.map { $0 * factor }
    rules.pongTimeout = pongTimeout * factor
    return rules
  }
}
