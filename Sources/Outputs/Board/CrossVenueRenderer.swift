import TickerSupport
import Venues

/// Draws a `CrossVenueBoard` as a `BoardFrame`: the board of a run of several venues, its rows
/// grouped by asset and currency, each group under a title line with its spread (or, for a
/// converted currency, what its premium is against), the rates at the end.
///
///       VENUE     SYMBOL           LAST  CHANGE  CHANGE%  TRADE TIME    SPREAD, PREMIUM
///     BTC · USDT · spread 9.60 (0.01%): high Binance, low OKX
///       Binance   BTCUSDT    ▲ 95375.72   +3.63   +0.00%  13:19:41.551
///       OKX       BTC-USDT   ▼ 95366.12   -1.00   -0.00%  13:19:41.502
///     BTC · KRW · premium: converted to USDT, against the median of 2 USDT prices
///       Upbit     KRW-BTC    ▲ 143000000  +1000   +0.00%  13:19:41.211  +3.41% (98620.69 USDT converted, rate 2s old)
///     RATES
///       Upbit     KRW-USDT   • 1450        0      0.00%  13:19:39.870  1 USDT in KRW, 2s old
///
///     Binance, OKX, Upbit (demo) · connected · 4 symbols · 13:19:42 UTC            Ctrl-C quits
///
/// Columns are aligned as on the one-venue board (`BoardRenderer`), widths only growing; when
/// the terminal is narrow the trade time goes first, then the change, and then lines are cut
/// with `…`. When it is short, the lines that do not fit are summed up in one. Everything from a
/// server (symbols, and the assets and currencies read from them) is escaped for the terminal.
/// Following books (`--bid-ask`), each row shows its venue's bid, ask and spread in basis
/// points (the change follows the mid), and a currency's title its best bid and best ask with
/// their venues, the spread between them, and `CROSSED` when one venue bids above another's ask:
///
///     BTC · USDT · best bid 95375.72 Binance, best ask 95374.1 OKX · spread -1.62 (-0.17 bp) · CROSSED
///       Binance   BTCUSDT   ▲ 95375.72  95376.5   0.82   +3.63   +0.00%  13:19:41.551
///       OKX       BTC-USDT  ▼ 95373.3   95374.1   0.08   -1.00   -0.00%  13:19:41.502
///
/// The premium is then of mids.
/// Pure: the same boards, size and instants give the same frame.
public struct CrossVenueRenderer: Sendable {
  public var useColor: Bool
  /// Whether the rows are books (`--bid-ask`) rather than trades.
  public let topOfBook: Bool
  private var book = BookColumns()
  /// The venues' names for people, in the order `Quote.venue` counts them.
  let venues: [String]
  private var venueWidth = 5
  private var symbolWidth = 6
  private var price = DecimalColumn()
  private var change = DecimalColumn(signed: true)
  private var percentWidth = 7

  public init(venues: [String], useColor: Bool = false, topOfBook: Bool = false) {
    self.venues = venues
    self.useColor = useColor
    self.topOfBook = topOfBook
  }

  /// Which of the columns that can go are shown.
  struct Layout: Equatable {
    var change = true
    var time = true
  }

  /// The frame for `board` on a terminal of `size`; the status line from `status` (the venues,
  /// the connection, the latest message), the time and the rates' age from `wallClock`
  /// (milliseconds since the epoch).
  public mutating func render<Instant>(
    _ board: CrossVenueBoard, status: BoardModel<Instant>, size: TerminalSize, at now: Instant,
    wallClock: Int64
  ) -> BoardFrame {
    guard size.rows > 0 else { return BoardFrame(lines: []) }
    let limit = max(0, size.columns - 1)
    for row in board.rows {
      venueWidth = max(venueWidth, TerminalWidth.columns(name(row.venue)))
      symbolWidth = max(symbolWidth, TerminalWidth.columns(TerminalText.escaped(row.symbol)))
      guard let last = row.last, let moved = row.change else { continue }
      price.fit(last.price.text)
      book.fit(last)
      change.fit(moved.absolute)
      percentWidth = max(percentWidth, PriceChange.signedWidth(moved.percent))
    }
    let layout = fit(limit)
    var body: [StyledLine] = []
    for group in board.groups {
      for currency in group.currencies {
        body.append(title(board, asset: group.asset, quote: currency.quote, rows: currency.rows))
        for index in currency.rows {
          body.append(line(board.rows[index], note: note(board, board.rows[index], wallClock), layout))
        }
      }
    }
    let rates = board.rateRows
    if !rates.isEmpty {
      var title = StyledLine()
      title.add("RATES", .bold)
      body.append(title)
      for rate in rates { body.append(line(rate, note: rateNote(rate, wallClock), layout)) }
    }

    let hasHeader = size.rows >= 3
    let room = size.rows - 1 - (hasHeader ? 1 : 0)
    var lines: [String] = []
    if hasHeader { lines.append(header(layout).render(limit: limit, color: useColor)) }
    let summarised = body.count > room && room >= 2
    let shown = summarised ? room - 1 : min(room, body.count)
    for line in body.prefix(shown) { lines.append(line.render(limit: limit, color: useColor)) }
    if summarised {
      let hidden = body.count - shown
      var more = StyledLine()
      more.add("… and \(hidden) more line\(hidden == 1 ? "" : "s"): make the window taller to see them")
      lines.append(more.render(limit: limit, color: false))
    }
    while lines.count < size.rows - 1 { lines.append("") }
    lines.append(
      BoardRenderer.status(
        venue: status.venue, connection: status.connection, count: board.rows.count,
        stale: status.stale.count,
        message: status.message(at: now), wallClock: wallClock, limit: limit))
    return BoardFrame(lines: lines)
  }

  /// Drops the trade time, then the change, while the fixed columns do not fit in `limit`.
  func fit(_ limit: Int) -> Layout {
    var layout = Layout()
    func total(_ l: Layout) -> Int {
      2 + venueWidth + 2 + symbolWidth + 2 + max(4, 2 + price.width)
        + (topOfBook ? 2 + book.askWidth + 2 + book.basisPointsWidth : 0)
        + (l.change ? 2 + max(6, change.width) : 0)
        + 2 + percentWidth + (l.time ? 2 + BoardRenderer.timeWidth : 0)
    }
    if total(layout) > limit { layout.time = false }
    if total(layout) > limit { layout.change = false }
    return layout
  }

  private func name(_ venue: UInt8) -> String {
    TerminalText.escaped(Int(venue) < venues.count ? venues[Int(venue)] : "venue \(venue)")
  }

  private func header(_ layout: Layout) -> StyledLine {
    var titles = [
      "  " + TerminalWidth.padRight("VENUE", to: venueWidth),
      TerminalWidth.padRight("SYMBOL", to: symbolWidth),
      TerminalWidth.padLeft(topOfBook ? "BID" : "LAST", to: max(4, 2 + price.width)),
    ]
    if topOfBook {
      titles.append(TerminalWidth.padLeft("ASK", to: book.askWidth))
      titles.append(TerminalWidth.padLeft("BPS", to: book.basisPointsWidth))
    }
    if layout.change { titles.append(TerminalWidth.padLeft("CHANGE", to: max(6, change.width))) }
    titles.append(TerminalWidth.padLeft("CHANGE%", to: percentWidth))
    if layout.time {
      titles.append(
        TerminalWidth.padRight(topOfBook ? "QUOTE TIME" : "TRADE TIME", to: BoardRenderer.timeWidth))
    }
    titles.append("SPREAD, PREMIUM")
    var line = StyledLine()
    line.add(titles.joined(separator: "  "), .bold)
    return line
  }

  /// `BTC · USDT · spread 9.60 (0.01%): high Binance, low OKX`, or what a group has instead.
  private func title(_ board: CrossVenueBoard, asset: String, quote: String?, rows: [Int]) -> StyledLine {
    var line = StyledLine()
    guard let quote else {
      line.add(TerminalText.escaped(asset), .bold)
      return line
    }
    line.add(TerminalText.escaped(asset) + " · " + TerminalText.escaped(quote), .bold)
    if topOfBook, let book = board.book(asset: asset, quote: quote) {
      add(book, to: &line)
    } else if !topOfBook, let spread = board.spread(asset: asset, quote: quote) {
      let percent = spread.percent.map { " (\($0)%)" } ?? ""
      line.add(
        " · spread \(Self.shown(spread.difference))\(percent): high \(name(spread.highVenue)), low \(name(spread.lowVenue))"
      )
    } else if let first = rows.first, board.rate(for: board.rows[first]) != nil {
      let references = board.rows.filter {
        !$0.isRate && $0.market == Market(base: asset, quote: ConversionPremium.target) && $0.last != nil
      }.count
      line.add(
        references == 0
          ? " · premium: converted to USDT; no USDT price of \(TerminalText.escaped(asset)) to compare with yet"
          : " · premium: converted to USDT, against the median of \(references) USDT price"
            + (references == 1 ? "" : "s")
      )
    } else if rows.count == 1 {
      line.add(" · one venue")
    }
    return line
  }

  /// ` · best bid 95375.72 Binance, best ask 95374.1 OKX · spread -1.62 (-0.17 bp) · CROSSED`
  private func add(_ book: CrossVenueBook, to line: inout StyledLine) {
    let basisPoints = book.basisPoints.map { " (\($0) bp)" } ?? ""
    line.add(
      " · best bid \(Self.shown(book.bid)) \(name(book.bidVenue)), best ask \(Self.shown(book.ask)) "
        + "\(name(book.askVenue)) · spread \(Self.shown(book.difference))\(basisPoints)")
    if book.isCrossed {
      line.add(" · ")
      line.add("CROSSED", .red)
    }
  }

  /// What the last column says of `row`: its premium when converted.
  private func note(_ board: CrossVenueBoard, _ row: CrossVenueBoard.Row, _ wallClock: Int64) -> String {
    guard let rate = board.rate(for: row) else { return "" }
    guard let premium = board.premium(of: row) else {
      return rate.last == nil ? "waiting for the rate (\(TerminalText.escaped(rate.symbol)))" : ""
    }
    let sign = premium.percent.isNegative || premium.percent.mantissa == 0 ? "" : "+"
    return "\(sign)\(premium.percent)% (\(premium.converted) USDT converted, rate "
      + Self.age(wallClock - premium.rateClock) + " old)"
  }

  private func rateNote(_ rate: CrossVenueBoard.Row, _ wallClock: Int64) -> String {
    guard let last = rate.last, let market = rate.market else { return "" }
    return "1 \(TerminalText.escaped(market.base)) in \(TerminalText.escaped(market.quote)), "
      + Self.age(wallClock - CrossVenueBoard.clock(last)) + " old"
  }

  private func line(_ row: CrossVenueBoard.Row, note: String, _ layout: Layout) -> StyledLine {
    var line = StyledLine()
    line.add("  " + TerminalWidth.padRight(name(row.venue), to: venueWidth))
    line.gap()
    line.add(TerminalWidth.padRight(TerminalText.escaped(row.symbol), to: symbolWidth))
    line.gap()
    guard let last = row.last, let moved = row.change else {
      line.add(topOfBook ? "waiting for a quote" : "waiting for a trade")
      return line
    }
    line.add(
      TerminalWidth.padLeft(
        row.direction.arrow + " " + price.pad(last.price.text), to: max(4, 2 + price.width)),
      row.direction.color)
    if topOfBook {
      let cells = book.cells(last)
      line.gap()
      line.add(cells.ask)
      line.gap()
      line.add(cells.basisPoints)
    }
    let changeStyle: TerminalStyle? = moved.sign > 0 ? .green : moved.sign < 0 ? .red : nil
    if layout.change {
      line.gap()
      line.add(TerminalWidth.padLeft(change.pad(moved.absolute), to: max(6, change.width)), changeStyle)
    }
    line.gap()
    line.add(TerminalWidth.padLeft(moved.percent, to: percentWidth), changeStyle)
    if layout.time {
      line.gap()
      line.add(BoardRenderer.timeOfDay(last.time, withMilliseconds: true))
    }
    if !note.isEmpty {
      line.gap()
      line.add(note)
    }
    return line
  }

  /// An exact difference as shown: without the trailing zeros of prices sent with a fixed
  /// number of decimals (Binance's `78854.24000000`), but with at least 2 decimals if it had them.
  static func shown(_ value: ExactDecimal) -> String {
    ExactArithmetic.trimmed(value, minimumScale: min(2, value.scale)).description
  }

  /// A price as `shown(_:)` shows an exact decimal.
  static func shown(_ price: Price) -> String {
    ExactDecimal(price).map { shown($0) } ?? price.text
  }

  /// `0s`, `42s`, `3m 5s`, `2h 10m`: how long ago, in whole units.
  static func age(_ milliseconds: Int64) -> String {
    let seconds = max(0, milliseconds) / 1000
    if seconds < 60 { return "\(seconds)s" }
    if seconds < 3600 { return "\(seconds / 60)m \(seconds % 60)s" }
    return "\(seconds / 3600)h \(seconds % 3600 / 60)m"
  }
}
