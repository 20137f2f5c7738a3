import Venues

/// What the board of several venues shows, as data: a row per venue and symbol, grouped by asset
/// and, within an asset, by the currency it is quoted in; per asset and currency the spread
/// among the venues (`VenueSpread`); for a price in a currency a followed rate converts (Upbit's
/// `KRW-BTC` through `KRW-USDT`), the premium against the asset's USDT venues
/// (`ConversionPremium`). Currencies are never merged: USD and USDT are two groups, two spreads.
///
/// A symbol whose market the venue's notation does not say (a stock) is a group of its own. A
/// market of USDT itself in another currency (`KRW-USDT`: one USDT in KRW) is a rate, listed
/// apart (`rateRows`), not an asset. Pure: fed quotes, it answers what changed.
public struct CrossVenueBoard: Sendable {
  public struct Row: Sendable {
    /// `Quote.venue`.
    public let venue: UInt8
    /// As quotes name it.
    public let symbol: String
    public let market: Market?
    /// The first price since the row appeared: the reference for the change.
    public fileprivate(set) var first: Price?
    public fileprivate(set) var last: Quote?
    /// What the change, the direction and the premium follow: the last trade's price, or the
    /// mid of the last book (`BookPrices.reference`).
    public fileprivate(set) var current: Price?
    public fileprivate(set) var direction: PriceDirection = .unchanged

    /// USDT priced in another currency: what converts that currency on this row's venue.
    public var isRate: Bool {
      guard let market else { return false }
      return market.base == ConversionPremium.target && market.quote != ConversionPremium.target
    }

    /// The asset, or the symbol when its market is unknown.
    public var asset: String { market?.base ?? symbol }

    public var change: PriceChange? {
      guard let first, let current else { return nil }
      return PriceChange(from: first, to: current)
    }
  }

  /// One asset's rows: those of each currency together, currencies in order of appearance.
  public struct Group: Sendable {
    public var asset: String
    /// Each currency (nil: a symbol without a known market) with its rows' indices in `rows`.
    public var currencies: [(quote: String?, rows: [Int])]
  }

  /// What a quote changed.
  public enum Change: Sendable, Equatable {
    case spread(VenueSpread)
    /// In a run following books (`--bid-ask`), instead of the spread of last prices.
    case book(CrossVenueBook)
    case premium(ConversionPremium)
  }

  private struct Key: Hashable {
    var venue: UInt8
    var symbol: String
  }

  public private(set) var rows: [Row] = []
  private var index: [Key: Int] = [:]
  private let market: @Sendable (UInt8, String) -> Market?

  /// - Parameters:
  ///   - symbols: the rows to show from the start (waiting for a trade), in order.
  ///   - market: what a venue's symbol trades (`Provider.market(of:)` of the venue at that index).
  public init(
    symbols: [(venue: UInt8, symbol: String)] = [], market: @escaping @Sendable (UInt8, String) -> Market?
  ) {
    self.market = market
    for symbol in symbols { _ = row(venue: symbol.venue, symbol: symbol.symbol) }
  }

  /// Takes a quote in and says what it changed, in a fixed order: the spread of its asset and
  /// currency (of a book, its best bid and ask), then each premium it moved (a rate moves its
  /// venue's; a USDT price the asset's). A quote for a symbol not seen before gets a row.
  @discardableResult
  public mutating func receive(_ quote: Quote) -> [Change] {
    let at = row(venue: quote.venue, symbol: quote.symbol)
    let spreadKey = rows[at].isRate ? nil : rows[at].market.map { (rows[at].asset, $0.quote) }
    let spreadBefore = spreadKey.flatMap { comparison(asset: $0.0, quote: $0.1, books: quote.isTopOfBook) }
    let affected = premiumRows(affectedBy: at)
    let premiumsBefore = affected.map { premium(of: rows[$0]) }

    let current = BookPrices.reference(of: quote)
    rows[at].direction = PriceDirection(from: rows[at].current, to: current)
    if rows[at].first == nil { rows[at].first = current }
    rows[at].last = quote
    rows[at].current = current

    var changes: [Change] = []
    if let spreadKey,
      let after = comparison(asset: spreadKey.0, quote: spreadKey.1, books: quote.isTopOfBook),
      after != spreadBefore
    {
      changes.append(after)
    }
    for (offset, row) in affected.enumerated() {
      if let after = premium(of: rows[row]), after != premiumsBefore[offset] {
        changes.append(.premium(after))
      }
    }
    return changes
  }

  /// The assets in order of their first row, rates left out; within each, USDT (what premiums
  /// are against) first, then the other currencies in order of their first row.
  public var groups: [Group] {
    var groups: [Group] = []
    var positions: [String: Int] = [:]
    for (offset, row) in rows.enumerated() where !row.isRate {
      // A symbol without a market is its own group, even if it spells an asset's name.
      let key = (row.market == nil ? "\u{0}" : "") + row.asset
      let group = positions[key] ?? groups.count
      if group == groups.count {
        positions[key] = group
        groups.append(Group(asset: row.asset, currencies: []))
      }
      let quote = row.market?.quote
      if let currency = groups[group].currencies.firstIndex(where: { $0.quote == quote }) {
        groups[group].currencies[currency].rows.append(offset)
      } else {
        groups[group].currencies.append((quote, [offset]))
      }
    }
    for group in groups.indices {
      // A stable partition: USDT first, the rest in their order.
      let currencies = groups[group].currencies
      groups[group].currencies =
        currencies.filter { $0.quote == ConversionPremium.target }
        + currencies.filter { $0.quote != ConversionPremium.target }
    }
    return groups
  }

  /// The rate rows (`KRW-USDT`), in order.
  public var rateRows: [Row] { rows.filter(\.isRate) }

  /// The spread of `asset` in `quote`, of books or of last prices.
  private func comparison(asset: String, quote: String, books: Bool) -> Change? {
    books
      ? book(asset: asset, quote: quote).map(Change.book)
      : spread(asset: asset, quote: quote).map(Change.spread)
  }

  /// The best bid and the best ask of `asset` in `quote` once two venues or more have a book in
  /// it: the highest bid and the lowest ask, each the first in board order on a tie.
  public func book(asset: String, quote: String) -> CrossVenueBook? {
    var bid: (price: Price, venue: UInt8)?
    var ask: (price: Price, venue: UInt8)?
    var venues = 0
    for row in rows where !row.isRate && row.market == Market(base: asset, quote: quote) {
      guard let last = row.last, let rowAsk = last.ask?.price else { continue }
      venues += 1
      if bid.map({ last.bid > $0.price }) ?? true { bid = (last.bid, row.venue) }
      if ask.map({ rowAsk < $0.price }) ?? true { ask = (rowAsk, row.venue) }
    }
    guard venues >= 2, let bid, let ask, let bidValue = ExactDecimal(bid.price),
      let askValue = ExactDecimal(ask.price), let difference = askValue - bidValue
    else { return nil }
    return CrossVenueBook(
      asset: asset, quote: quote, bid: bid.price, bidVenue: bid.venue, ask: ask.price, askVenue: ask.venue,
      difference: difference, basisPoints: BookPrices.basisPoints(bid: bid.price, ask: ask.price),
      venues: venues)
  }

  /// The spread of `asset` in `quote` once two venues or more have a price in it.
  public func spread(asset: String, quote: String) -> VenueSpread? {
    var high: (price: Price, venue: UInt8)?
    var low: (price: Price, venue: UInt8)?
    var venues = 0
    for row in rows where !row.isRate && row.market == Market(base: asset, quote: quote) {
      guard let price = row.last?.price else { continue }
      venues += 1
      // Strictly beyond: on a tie the first in board order stays.
      if high.map({ price > $0.price }) ?? true { high = (price, row.venue) }
      if low.map({ price < $0.price }) ?? true { low = (price, row.venue) }
    }
    guard venues >= 2, let high, let low, let highValue = ExactDecimal(high.price),
      let lowValue = ExactDecimal(low.price), let difference = highValue - lowValue
    else { return nil }
    let percent = (difference * ExactDecimal(mantissa: 100, scale: 0)).flatMap {
      ExactArithmetic.divide($0, by: lowValue, decimals: 2)
    }
    return VenueSpread(
      asset: asset, quote: quote, high: high.price, highVenue: high.venue, low: low.price,
      lowVenue: low.venue,
      difference: difference, percent: percent, venues: venues)
  }

  /// The rate row that converts `row`'s currency on its venue, if one is followed.
  public func rate(for row: Row) -> Row? {
    guard let market = row.market, !row.isRate, market.quote != ConversionPremium.target else { return nil }
    return rows.first { $0.venue == row.venue && $0.isRate && $0.market?.quote == market.quote }
  }

  /// `row`'s premium, once it, its venue's rate and at least one USDT price of its asset have a
  /// price; nil for a row no rate converts. Of books, every price in it is a mid.
  public func premium(of row: Row) -> ConversionPremium? {
    guard let rateRow = rate(for: row), let market = row.market, let current = row.current,
      let rateQuote = rateRow.last, let rateCurrent = rateRow.current, let price = ExactDecimal(current),
      let rate = ExactDecimal(rateCurrent)
    else { return nil }
    let references = rows.filter {
      !$0.isRate && $0.market == Market(base: market.base, quote: ConversionPremium.target)
    }.compactMap { $0.current.flatMap { ExactDecimal($0) } }
    guard let reference = ExactArithmetic.median(references),
      let converted = ExactArithmetic.divide(
        price, by: rate,
        decimals: min(8, max(2, references.map { ExactArithmetic.trimmed($0).scale }.max() ?? 2))),
      // (price − rate × reference) / (rate × reference) × 100: one division, rounded once.
      let denominator = rate * reference, let excess = price - denominator,
      let hundredfold = excess * ExactDecimal(mantissa: 100, scale: 0),
      let percent = ExactArithmetic.divide(hundredfold, by: denominator, decimals: 2)
    else { return nil }
    return ConversionPremium(
      asset: market.base, venue: row.venue, symbol: row.symbol, currency: market.quote, price: current,
      rate: rateCurrent, rateSymbol: rateRow.symbol, rateClock: Self.clock(rateQuote),
      converted: converted, reference: reference, referenceVenues: references.count, percent: percent)
  }

  /// When a quote arrived: its `received` time when known, else its trade time (milliseconds).
  public static func clock(_ quote: Quote) -> Int64 { quote.received != 0 ? quote.received : quote.time }

  /// The rows whose premium a quote for the row at `at` may change.
  private func premiumRows(affectedBy at: Int) -> [Int] {
    let changed = rows[at]
    guard let market = changed.market else { return [] }
    return rows.indices.filter { candidate in
      let row = rows[candidate]
      guard let rowMarket = row.market, !row.isRate, rowMarket.quote != ConversionPremium.target else {
        return false
      }
      if changed.isRate { return row.venue == changed.venue && rowMarket.quote == market.quote }
      if market.quote == ConversionPremium.target { return rowMarket.base == market.base }
      return candidate == at
    }
  }

  /// The row of a venue's symbol, made when new.
  private mutating func row(venue: UInt8, symbol: String) -> Int {
    let key = Key(venue: venue, symbol: symbol)
    if let existing = index[key] { return existing }
    rows.append(Row(venue: venue, symbol: symbol, market: market(venue, symbol)))
    index[key] = rows.count - 1
    return rows.count - 1
  }
}
