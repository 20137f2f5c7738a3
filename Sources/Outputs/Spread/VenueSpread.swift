import Venues

/// How far apart the venues quoting one asset in one currency are: the highest last price
/// against the lowest. Only ever within one currency — USD and USDT are spreads of their own.
public struct VenueSpread: Sendable, Equatable {
  public var asset: String
  /// The currency every price in it is quoted in (`USDT`).
  public var quote: String
  public var high: Price
  /// The venue (`Quote.venue`) with the highest price; the first in board order on a tie.
  public var highVenue: UInt8
  public var low: Price
  public var lowVenue: UInt8
  /// `high − low`, exact.
  public var difference: ExactDecimal
  /// `difference / low × 100`, rounded half away from zero to 2 decimals; nil when `low` is 0.
  public var percent: ExactDecimal?
  /// How many venues quote it (at least 2).
  public var venues: Int
}
