import Venues

/// The best bid and the best ask of one asset in one currency among the venues whose book the
/// run follows (`--bid-ask`), and the spread between them. Venues' books cross now and then: a
/// bid on one venue above the ask on another (`isCrossed`), which makes the spread negative.
public struct CrossVenueBook: Sendable, Equatable {
  public var asset: String
  /// The currency every price in it is quoted in (`USDT`).
  public var quote: String
  /// The highest bid, and its venue (`Quote.venue`; the first in board order on a tie).
  public var bid: Price
  public var bidVenue: UInt8
  /// The lowest ask, and its venue (the first in board order on a tie).
  public var ask: Price
  public var askVenue: UInt8
  /// `ask − bid`, exact; negative when crossed.
  public var difference: ExactDecimal
  /// `difference` against the mid of the two, in basis points (`BookPrices.basisPoints`).
  public var basisPoints: ExactDecimal?
  /// How many venues have a book in it (at least 2).
  public var venues: Int

  /// Whether one venue's bid is above another's ask. A locked market (equal) is not crossed.
  public var isCrossed: Bool { bid > ask }
}
