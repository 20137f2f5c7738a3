import Venues

/// Where `serve` gets its quotes: a `QuoteFeed` whose symbol rules are known — a live `Feed`, or
/// a `Replay` of a recording. `ServeHub` needs nothing else of it.
public protocol QuoteSource: QuoteFeed {
  /// Whose symbol rules apply (canonical spelling, the spelling quotes carry).
  var provider: any Provider { get }
  /// The venues whose symbols it takes, in the order `Quote.venue` counts them: `provider` first
  /// (an unqualified symbol's), then those a qualified symbol (`coinbase/BTC-USD`) may name.
  var venues: [any Provider] { get }
}

extension QuoteSource {
  /// One venue: `provider`'s.
  public var venues: [any Provider] { [provider] }
}

extension Feed: QuoteSource {}
