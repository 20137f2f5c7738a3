import Venues

/// The exact numbers of a top-of-book quote the board and the spread records show: its mid and
/// its spread in basis points. Exact decimals throughout, never a `Double`: the mid of
/// `97261.74` and `97271.47` is `97266.605`, and a spread is rounded once.
enum BookPrices {
  /// What the change, the sparkline and the premium follow: a trade's price, or the mid of a
  /// book, `(bid + ask) / 2` exactly (the bid if its digits do not fit).
  static func reference(of quote: Quote) -> Price {
    guard let ask = quote.ask?.price else { return quote.price }
    return mid(bid: quote.price, ask: ask) ?? quote.price
  }

  /// `(bid + ask) / 2`, exact: one more digit at most.
  static func mid(bid: Price, ask: Price) -> Price? {
    guard let bid = ExactDecimal(bid), let ask = ExactDecimal(ask),
      let mid = ExactArithmetic.median([bid, ask])
    else { return nil }
    return Price(mid.description)
  }

  /// `(ask − bid) / mid × 10 000` as `(ask − bid) × 20 000 / (ask + bid)`: one division, rounded
  /// once, half away from zero, to 2 decimals. Negative when the bid is above the ask (a crossed
  /// pair of venues); nil when both are zero or the digits do not fit.
  static func basisPoints(bid: Price, ask: Price) -> ExactDecimal? {
    guard let bid = ExactDecimal(bid), let ask = ExactDecimal(ask), let difference = ask - bid,
      let scaled = difference * ExactDecimal(mantissa: 20_000, scale: 0),
      let total = ExactArithmetic.sum(bid, ask)
    else { return nil }
    return ExactArithmetic.divide(scaled, by: total, decimals: 2)
  }
}
