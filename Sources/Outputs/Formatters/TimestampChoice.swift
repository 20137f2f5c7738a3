import Venues

/// Which time the formats with a time column show (`--timestamps`).
public enum TimestampChoice: String, Sendable, CaseIterable {
  /// When the trade happened, as the venue says.
  case trade
  /// When the message carrying it reached the ticker (this machine's clock).
  case received
  /// No time column.
  case none

  /// The time `quote` is shown with; nil for `none`.
  public func milliseconds(of quote: Quote) -> Int64? {
    milliseconds(time: quote.time, received: quote.received)
  }

  /// The time a quote with these times is shown with; nil for `none`.
  public func milliseconds(time: Int64, received: Int64) -> Int64? {
    switch self {
    case .trade: time
    case .received: received
    case .none: nil
    }
  }
}
