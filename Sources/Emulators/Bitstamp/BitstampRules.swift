/// Bitstamp's timings and limits as the emulation enforces them, in seconds (docs/protocols.md).
public struct BitstampRules: EmulatorRules {
  /// A WebSocket ping every this many seconds (observed: 54); nil = never.
  public var pingInterval: Double? = 54
  /// A ping no pong has echoed within this many seconds gets the connection dropped. Bitstamp does
  /// not say what it does with a client that stops answering: the emulation drops it when the
  /// next ping is due.
  public var pongTimeout: Double = 54
  /// A client frame longer than this many bytes closes the connection with 1009 (documented:
  /// keep them under 512 bytes; observed: "read limited at 513 bytes").
  public var maximumClientFrame: Int = 512
  /// Channels one connection may hold; subscribing to one more closes it without a word
  /// (documented).
  public var channelsPerConnection: Int = 1024
  /// A connection is ended this many seconds after it opened (documented: 90 days); nil = never.
  public var maximumAge: Double? = 90 * 86_400

  public init() {}

  public func scaled(by factor: Double) -> BitstampRules {
    var rules = self
    rules.pingInterval = pingInterval.map { $0 * factor }
    rules.pongTimeout = pongTimeout * factor
    rules.maximumAge = maximumAge.map { $0 * factor }
    return rules
  }
}
