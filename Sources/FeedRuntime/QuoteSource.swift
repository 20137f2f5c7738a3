import Venues

/// Where `serve` gets its quotes: a `QuoteFeed` whose symbol rules are known — a live `Feed`, or
/// a `Replay` of a recording. `ServeHub` needs nothing else of it.
public protocol QuoteSource: QuoteFeed {
  /// Whose symbol rules apply (canonical spelling, the spelling quotes carry).
  var provider: any Provider { get }
}

extension Feed: QuoteSource {}
