/// One price observation from a provider, in the provider-independent shape the pipeline and the
/// formatters use.
public struct Quote: Sendable, Equatable {
  /// The provider's symbol, exactly as sent (may contain spaces: `IC MARKETS:1`).
  public var symbol: String
  public var price: Price
  /// Trade volume; nil when the provider sent none. Finnhub's `0` means a price update.
  public var volume: Price?
  /// Trade time, milliseconds since the Unix epoch (UTC).
  public var time: Int64
  /// When the message carrying it arrived, milliseconds since the Unix epoch; 0 when unknown.
  /// Not part of equality: the same trade received twice is the same quote.
  public var received: Int64

  public init(symbol: String, price: Price, volume: Price? = nil, time: Int64, received: Int64 = 0) {
    self.symbol = symbol
    self.price = price
    self.volume = volume
    self.time = time
    self.received = received
  }

  public static func == (a: Quote, b: Quote) -> Bool {
    a.symbol == b.symbol && a.price == b.price && a.volume == b.volume && a.time == b.time
  }
}
