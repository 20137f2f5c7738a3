/// One price observation from a provider, in the provider-independent shape the pipeline and the
/// formatters use: a trade, or a venue's best bid and ask (a top-of-book quote, `ask` set).
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
  /// The trade's price; of a top-of-book quote, the best bid.
  public var price: Price
  /// Trade volume; nil when the provider sent none. Finnhub's `0` means a price update. Of a
  /// top-of-book quote, the size at the best bid (nil when the venue gives none).
  public var volume: Price?
  /// Trade time, milliseconds since the Unix epoch (UTC); of a top-of-book quote, the venue's
  /// time of the update, or when it arrived where the venue gives none.
  public var time: Int64
  /// Which venue of a run of several it came from: an index into the run's venues (0 when the
  /// run has one). Not part of equality.
  public var venue: UInt8 = 0
  /// The best ask of a top-of-book quote; nil for a trade. A reference (one word in every
  /// quote) so that trades, the hot path, do not carry two more prices inline.
  public var ask: Ask? = nil

  public static func == (a: Quote, b: Quote) -> Bool {
    a.symbol == b.symbol && a.price == b.price && a.volume == b.volume && a.time == b.time && a.ask == b.ask
  }
}

extension Quote {
  public init(symbol: String, price: Price, volume: Price? = nil, time: Int64, received: Int64 = 0) {
    self.init(received: received, symbol: symbol, price: price, volume: volume, time: time)
  }

  /// A top-of-book quote: the best bid and ask of `symbol`, and their sizes where the venue gives them.
  public init(
    symbol: String, bid: Price, bidSize: Price?, ask: Price, askSize: Price?, time: Int64, received: Int64 = 0
  ) {
    self.init(
      received: received, symbol: symbol, price: bid, volume: bidSize, time: time,
      ask: Ask(price: ask, size: askSize))
  }

  /// Whether this is a venue's best bid and ask rather than a trade.
  public var isTopOfBook: Bool { ask != nil }
  /// The best bid of a top-of-book quote (its `price`).
  public var bid: Price { price }
  /// The size at the best bid of a top-of-book quote (its `volume`).
  public var bidSize: Price? { volume }

  /// Whether `other` has the same bid and ask prices (for a trade: the same price): what dedupe
  /// compares, sizes aside.
  public func hasSameLevels(as other: Quote) -> Bool {
    price == other.price && ask?.price == other.ask?.price
  }
}

/// The ask side of a top-of-book quote: the lowest price a seller asks, and how much is offered
/// there.
public final class Ask: Sendable, Equatable {
  public let price: Price
  /// nil where the venue gives no size.
  public let size: Price?

  public init(price: Price, size: Price?) {
    self.price = price
    self.size = size
  }

  public static func == (a: Ask, b: Ask) -> Bool { a.price == b.price && a.size == b.size }
}
