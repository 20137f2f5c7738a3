/// How the price stage decides what to print.
public enum PriceStageMode: Sendable, Equatable {
  /// Every quote passes, unfiltered, exact duplicates included (`--every-trade`).
  case everyTrade
  /// Every quote whose price differs from the last one printed for its symbol, at once
  /// (`--debounce 0`). Stale quotes (older trade time) are dropped.
  case distinct
  /// Trailing debounce per symbol, bounded by `maxWait`, then dedupe (the default).
  case debounced(interval: Duration, maxWait: Duration)

  /// 0.5 s debounce with a 0.5 s max wait: a continuous stream still prints about twice a second.
  public static let `default` = PriceStageMode.debounced(
    interval: .milliseconds(500), maxWait: .milliseconds(500))

  /// The mode for the command-line settings: `everyTrade` wins; a zero debounce means
  /// `.distinct`; `maxWait` defaults to the debounce interval.
  public init(debounce: Duration, maxWait: Duration? = nil, everyTrade: Bool = false) {
    if everyTrade {
      self = .everyTrade
    } else if debounce <= .zero {
      self = .distinct
    } else {
      self = .debounced(interval: debounce, maxWait: maxWait ?? debounce)
    }
  }
}
