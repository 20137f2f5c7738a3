import PriceFeed

/// Where `serve` gets its quotes: one upstream whose subscription can change at any time — a
/// live `Feed`, or (later) a recording played back. `ServeHub` needs nothing else of it.
public protocol QuoteSource: AnyObject, Sendable {
  /// The quotes, for any number of outputs.
  var bus: QuoteBus { get }
  /// Whose symbol rules apply (canonical spelling, the spelling quotes carry).
  var provider: any Provider { get }
  /// Adds symbols (canonical for `provider`).
  func subscribe(_ symbols: [String])
  /// Removes symbols.
  func unsubscribe(_ symbols: [String])
  /// Ends the run: `run()` returns `.stopped(reason)`.
  func stop(_ reason: StopReason)
  /// Runs until stopped or failed; the bus's outputs end after the last quote.
  func run() async -> FeedOutcome
}

extension Feed: QuoteSource {}
