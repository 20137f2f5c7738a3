import TickerSupport

/// Draws a `BoardModel` as a `BoardFrame` for a terminal size: a header line, one row per symbol
/// and a status line at the bottom of the screen.
///
///     SYMBOL                LAST  CHANGE  CHANGE%  TREND       TRADE TIME    TRADES/S
///     BINANCE:BTCUSDT  ▼ 95370.5   -1.59   -0.00%      ▂▂▂█▁▁  13:18:57.176       0.8
///     AAPL             ▲   122.3   +0.2    +0.16%        ▁▁██  13:18:57.876       0.6
///     IC MARKETS:1     waiting for a trade
///
///     Finnhub (demo) · connected · 3 symbols · 13:19:00 UTC              Ctrl-C quits
///
/// Columns are as in the line view (`TerminalLineFormatter`): prices and changes aligned on their
/// points, an arrow for the last move, widths that only grow. When the terminal is narrow, the
/// least needed columns go first — the trade time, then trades per second, the sparkline, the
/// absolute change — and then the symbol is cut with `…`; the sparkline takes the room left, up
/// to 32 points. When it is short, the rows that do not fit are summed up in one line.
/// Following books (`--bid-ask`), the price column is the bid, the ask and the spread in basis
/// points come next (never dropped), and the change and the sparkline follow the mid:
///
///     SYMBOL            BID       ASK   BPS  CHANGE  CHANGE%  TREND     QUOTE TIME    QUOTES/S
///     BTCUSDT  ▲ 95370.5   95380.1  1.01   +1.25   +0.00%  ▂▂▂█▁▁  13:18:57.176       0.8
///
/// Pure: the same model, size and instants give the same frame.
public struct BoardRenderer: Sendable {
  public var useColor: Bool
  /// Whether the rows are books (`--bid-ask`) rather than trades.
  public let topOfBook: Bool
  private var book = BookColumns()
  private var symbolWidth = 6
  private var price = DecimalColumn()
  private var change = DecimalColumn(signed: true)
  private var percentWidth = 7
  private var rateWidth = 8

  static let minimumTrend = 8
  static let maximumTrend = 32
  static let timeWidth = 12

  public init(useColor: Bool = false, topOfBook: Bool = false) {
    self.useColor = useColor
    self.topOfBook = topOfBook
  }

  /// The columns shown at a width, and how wide each is.
  struct Layout: Equatable {
    var symbol: Int
    var last: Int
    /// Of books only.
    var ask: Int? = nil
    var basisPoints: Int? = nil
    var change: Int?
    var percent: Int
    var trend: Int?
    var time: Int?
    var rate: Int?
  }

  /// The frame for `model` on a terminal of `size`, at `now` (the model's clock) and `wallClock`
  /// (milliseconds since the epoch, for the status line's time).
  public mutating func render<Instant>(
    _ model: BoardModel<Instant>, size: TerminalSize, at now: Instant, wallClock: Int64
  ) -> BoardFrame {
    guard size.rows > 0 else { return BoardFrame(lines: []) }
    let limit = max(0, size.columns - 1)
    var rates: [String] = []
    for row in model.rows {
      symbolWidth = max(symbolWidth, TerminalWidth.columns(TerminalText.escaped(row.symbol)))
      let rate = PriceChange.fixed(model.tradesPerSecond(row, at: now), decimals: 1)
      rateWidth = max(rateWidth, rate.utf8.count)
      rates.append(rate)
      guard let last = row.last, let moved = row.change else { continue }
      price.fit(last.price.text)
      book.fit(last)
      change.fit(moved.absolute)
      percentWidth = max(percentWidth, PriceChange.signedWidth(moved.percent))
    }
    let layout = fit(limit)

    // Rows: the status line is the last; the header the first when there are three or more.
    let hasHeader = size.rows >= 3
    let room = size.rows - 1 - (hasHeader ? 1 : 0)
    var lines: [String] = []
    if hasHeader { lines.append(header(layout).render(limit: limit, color: useColor)) }
    let overflow = model.rows.count > room
    // With room for two rows or more, the last one says how many did not fit.
    let summarised = overflow && room >= 2
    let shown = summarised ? room - 1 : min(room, model.rows.count)
    for (index, row) in model.rows.prefix(shown).enumerated() {
      lines.append(
        line(row, rate: rates[index], layout, model: model, at: now).render(limit: limit, color: useColor))
    }
    if summarised {
      let hidden = model.rows.count - shown
      var more = StyledLine()
      more.add("… and \(hidden) more symbol\(hidden == 1 ? "" : "s"): make the window taller to see them")
      lines.append(more.render(limit: limit, color: false))
    }
    while lines.count < size.rows - 1 { lines.append("") }
    lines.append(
      Self.status(
        venue: model.venue, connection: model.connection, count: model.rows.count, stale: model.stale.count,
        message: model.message(at: now),
        wallClock: wallClock, limit: limit))
    return BoardFrame(lines: lines)
  }

  /// Which columns fit in `limit` columns, dropping the least needed first.
  func fit(_ limit: Int) -> Layout {
    var layout = Layout(
      symbol: symbolWidth, last: max(4, 2 + price.width), change: max(6, change.width),
      percent: percentWidth, trend: Self.minimumTrend, time: Self.timeWidth, rate: rateWidth)
    if topOfBook {
      layout.ask = book.askWidth
      layout.basisPoints = book.basisPointsWidth
    }
    func total(_ l: Layout) -> Int {
      [l.symbol, l.last, l.ask, l.basisPoints, l.change, l.percent, l.trend, l.time, l.rate].compactMap { $0 }
        .reduce(0) { $0 == 0 ? $1 : $0 + 2 + $1 }
    }
    let drops: [WritableKeyPath<Layout, Int?>] = [\.time, \.rate, \.trend, \.change]
    for drop in drops where total(layout) > limit { layout[keyPath: drop] = nil }
    let excess = total(layout) - limit
    if excess > 0 {
      layout.symbol = max(min(symbolWidth, 5), symbolWidth - excess)
    } else if layout.trend != nil {
      layout.trend = min(Self.maximumTrend, Self.minimumTrend - excess)
    }
    return layout
  }

  private func header(_ layout: Layout) -> StyledLine {
    var titles: [String] = [
      TerminalWidth.padRight("SYMBOL", to: layout.symbol),
      TerminalWidth.padLeft(topOfBook ? "BID" : "LAST", to: layout.last),
    ]
    if let width = layout.ask { titles.append(TerminalWidth.padLeft("ASK", to: width)) }
    if let width = layout.basisPoints { titles.append(TerminalWidth.padLeft("BPS", to: width)) }
    if let width = layout.change { titles.append(TerminalWidth.padLeft("CHANGE", to: width)) }
    titles.append(TerminalWidth.padLeft("CHANGE%", to: layout.percent))
    if let width = layout.trend { titles.append(TerminalWidth.padRight("TREND", to: width)) }
    let noun = topOfBook ? "QUOTE" : "TRADE"
    if let width = layout.time { titles.append(TerminalWidth.padRight("\(noun) TIME", to: width)) }
    if let width = layout.rate { titles.append(TerminalWidth.padLeft("\(noun)S/S", to: width)) }
    var line = StyledLine()
    line.add(titles.joined(separator: "  "), .bold)
    return line
  }

  private func line<Instant>(
    _ row: BoardModel<Instant>.Row, rate: String, _ layout: Layout, model: BoardModel<Instant>,
    at now: Instant
  ) -> StyledLine {
    var line = StyledLine()
    let symbol = TerminalText.escaped(row.symbol)
    line.add(TerminalWidth.padRight(TerminalWidth.truncate(symbol, to: layout.symbol), to: layout.symbol))
    line.gap()
    guard let last = row.last, let moved = row.change else {
      line.add(topOfBook ? "waiting for a quote" : "waiting for a trade")
      return line
    }
    line.add(
      TerminalWidth.padLeft(row.direction.arrow + " " + price.pad(last.price.text), to: layout.last),
      row.direction.color)
    if layout.ask != nil {
      let cells = book.cells(last)
      line.gap()
      line.add(cells.ask)
      line.gap()
      line.add(cells.basisPoints)
    }
    let changeStyle: TerminalStyle? = moved.sign > 0 ? .green : moved.sign < 0 ? .red : nil
    if let width = layout.change {
      line.gap()
      line.add(TerminalWidth.padLeft(change.pad(moved.absolute), to: width), changeStyle)
    }
    line.gap()
    line.add(TerminalWidth.padLeft(moved.percent, to: layout.percent), changeStyle)
    if let width = layout.trend {
      line.gap()
      line.add(Sparkline.render(model.sparkline(row, width: width, at: now)))
    }
    if layout.time != nil {
      line.gap()
      line.add(Self.timeOfDay(last.time, withMilliseconds: true))
    }
    if let width = layout.rate {
      line.gap()
      line.add(TerminalWidth.padLeft(rate, to: width))
    }
    return line
  }

  /// The status line: the venue(s), the connection, how many symbols, the time; the latest
  /// message, else the hint. The cross-venue board's too.
  static func status(
    venue: String, connection: BoardConnection, count: Int, stale: Int = 0, message: String?,
    wallClock: Int64,
    limit: Int
  ) -> String {
    var text =
      "\(venue) · \(connection.text) · \(count) symbol\(count == 1 ? "" : "s") · "
      + (stale > 0 ? "\(stale) stale · " : "")
      + Self.timeOfDay(wallClock, withMilliseconds: false) + " UTC"
    if let message {
      text += " · " + message
    } else {
      let hint = "Ctrl-C quits"
      let used = TerminalWidth.columns(text)
      if used + 2 + hint.count <= limit {
        text += String(repeating: " ", count: limit - used - hint.count) + hint
      }
    }
    var line = StyledLine()
    line.add(text)
    return line.render(limit: limit, color: false)
  }

  /// `13:18:52.976` (or `13:18:52`), UTC.
  static func timeOfDay(_ milliseconds: Int64, withMilliseconds: Bool) -> String {
    let stamp = UTCTimestamp.string(milliseconds: milliseconds)
    guard let t = stamp.firstIndex(of: "T") else { return stamp }
    let start = stamp.index(after: t)
    let end =
      stamp.index(start, offsetBy: withMilliseconds ? 12 : 8, limitedBy: stamp.endIndex) ?? stamp.endIndex
    return String(stamp[start..<end])
  }
}
