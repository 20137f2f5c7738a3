import Venues

/// The columns a board adds for books (`--bid-ask`): the ask beside the bid (which takes the
/// price column), and the venue's own spread in basis points. Aligned on their points, widths
/// only growing, as every board column.
struct BookColumns: Sendable {
  private var ask = DecimalColumn()
  private var basisPoints = DecimalColumn(signed: true)

  /// The ask column's width, its title's at least.
  var askWidth: Int { max(3, ask.width) }
  var basisPointsWidth: Int { max(3, basisPoints.width) }

  /// Widens the columns for `quote`'s ask and spread; a trade changes nothing.
  mutating func fit(_ quote: Quote) {
    guard let price = quote.ask?.price else { return }
    ask.fit(price.text)
    basisPoints.fit(Self.basisPoints(quote))
  }

  /// The ask and the spread of `quote`, padded to the columns.
  func cells(_ quote: Quote) -> (ask: String, basisPoints: String) {
    guard let price = quote.ask?.price else {
      return (String(repeating: " ", count: askWidth), String(repeating: " ", count: basisPointsWidth))
    }
    return (
      TerminalWidth.padLeft(ask.pad(price.text), to: askWidth),
      TerminalWidth.padLeft(basisPoints.pad(Self.basisPoints(quote)), to: basisPointsWidth)
    )
  }

  /// `(ask − bid) / mid` in basis points, 2 decimals; `n/a` where it cannot be computed.
  static func basisPoints(_ quote: Quote) -> String {
    guard let ask = quote.ask?.price else { return "" }
    return BookPrices.basisPoints(bid: quote.bid, ask: ask)?.description ?? "n/a"
  }
}
