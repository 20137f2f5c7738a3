/// What a provider's subscriptions follow.
public enum MarketStream: String, Sendable, Equatable, CaseIterable {
  /// Each trade (the default).
  case trades
  /// Each symbol's best bid and ask (`--bid-ask`), from the venue's channel made for it.
  case topOfBook = "top-of-book"
}
