/// One price observation from a provider, in the provider-independent shape the pipeline and the
/// formatters use.
///
/// The initialiser is in an extension and delegates to the memberwise one, whose labels are in
/// the order of the stored properties: `received` first, so that no call of the public one can
/// mean it. An initialiser assigning the fields one by one made the optimiser (Swift 6.3) build
/// each quote twice and copy one into the other, a retain and a release of every text per quote.
public struct Quote: Sendable, Equatable {
  /// When the message carrying it arrived, milliseconds since the Unix epoch; 0 when unknown.
  /// Not part of equality: the same trade received twice is the same quote.
  public var received: Int64
  /// The provider's symbol, exactly as sent (may contain spaces: `IC MARKETS:1`).
  public var symbol: String
  public var price: Price
  /// Trade volume; nil when the provider sent none. Finnhub's `0` means a price update.
  public var volume: Price?
  /// Trade time, milliseconds since the Unix epoch (UTC).
  public var time: Int64
  /// Which venue of a run of several it came from: an index into the run's venues (0 when the
  /// run has one). Not part of equality.
  public var venue: UInt8 = 0

  public static func == (a: Quote, b: Quote) -> Bool {
    a.symbol == b.symbol && a.price == b.price && a.volume == b.volume && a.time == b.time
  }
}

extension Quote {
  public init(symbol: String, price: Price, volume: Price? = nil, time: Int64, received: Int64 = 0) {
    self.init(received: received, symbol: symbol, price: price, volume: volume, time: time)
  }
}
