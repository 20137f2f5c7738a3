/// A feed's figures at one instant (`Feed.statistics()`): what `--metrics` exposes and
/// `/healthz` judges.
public struct FeedStatistics: Sendable, Equatable {
  /// A followed symbol (the server's spelling).
  public struct Symbol: Sendable, Equatable {
    public var symbol: String
    /// Since its last price; nil before its first.
    public var sinceLastPrice: Duration?
    /// Reported stale (`--stale-after`) and not recovered.
    public var stale: Bool

    public init(symbol: String, sinceLastPrice: Duration?, stale: Bool) {
      self.symbol = symbol
      self.sinceLastPrice = sinceLastPrice
      self.stale = stale
    }
  }

  public var connected: Bool
  /// Whether a connection was ever open and subscribed.
  public var everConnected: Bool
  /// Since the venue's last message, whichever connection brought it; nil before the first.
  public var sinceLastMessage: Duration?
  public var messages: Int
  public var pricesReceived: Int
  /// Prices that passed the filters and went to the outputs.
  public var pricesOutput: Int
  /// Disconnects by kind (`DisconnectReason.label`).
  public var reconnects: [String: Int]
  public var subscribed: Int
  /// Each followed symbol, when kept (metrics or `--stale-after`).
  public var symbols: [Symbol]
  public var staleAfter: Duration?
  /// The session's silence timeout: no message for this long means the connection is dead.
  public var silenceLimit: Duration?

  public init(
    connected: Bool, everConnected: Bool, sinceLastMessage: Duration?, messages: Int, pricesReceived: Int,
    pricesOutput: Int, reconnects: [String: Int], subscribed: Int, symbols: [Symbol], staleAfter: Duration?
  ) {
    self.connected = connected
    self.everConnected = everConnected
    self.sinceLastMessage = sinceLastMessage
    self.messages = messages
    self.pricesReceived = pricesReceived
    self.pricesOutput = pricesOutput
    self.reconnects = reconnects
    self.subscribed = subscribed
    self.symbols = symbols
    self.staleAfter = staleAfter
  }

  /// The symbols reported stale.
  public var staleSymbols: [String] { symbols.filter(\.stale).map(\.symbol) }
}
