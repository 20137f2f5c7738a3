import TickerSupport
import Venues

/// The text format for a person at a terminal (used only when stdout is one): the same facts as
/// `TextFormatter` — trade time, symbol, price with the server's digits — in aligned columns, with
/// an arrow for the direction since the symbol's previous line and the change since the ticker
/// started:
///
///     2026-01-17T13:18:52.976Z  BINANCE:BTCUSDT  • 95372.09   0.00   0.00%
///     2026-01-17T13:18:53.296Z  BINANCE:BTCUSDT  ▲ 95372.1   +0.01  +0.00%
///     2026-01-17T13:18:53.500Z  AAPL             •   122.1    0.0    0.00%
///     2026-01-17T13:18:53.501Z  AAPL             ▼   122.09  -0.01  -0.01%
///
/// - The symbol column is as wide as the widest symbol given at the start (or seen since);
///   prices and changes are aligned on their decimal points; no column ever narrows again, so
///   nothing jumps back and forth.
/// - The arrow is `▲` (higher than the symbol's previous line), `▼` (lower) or `•` (the same,
///   or the symbol's first line): direction never depends on colour.
/// - The change is exact (`PriceChange`), from the symbol's first price in this run.
/// - With `useColor`, the arrow and price are green or red by direction and the change by its
///   sign; without it, the line holds no escape byte. Symbols pass through `TerminalText`.
/// - A venue's best bid and ask (`--bid-ask`) shows both, aligned, the arrow by the bid's
///   direction, and no change column (`BookLine`).
public struct TerminalLineFormatter: QuoteFormatter {
  private var days = UTCTimestamp.DayCache()
  public var useColor: Bool
  /// The time lines start with (`--timestamps`), if any.
  public var timestamps: TimestampChoice
  private var symbolWidth = 0
  private var price = DecimalColumn()
  private var change = DecimalColumn(signed: true)
  private var percentWidth = 0
  private var previous: [String: Price] = [:]
  private var ask = DecimalColumn()
  private var reference: [String: Price] = [:]
  /// In a run of several venues, their names (`Quote.venue` indexes it), padded to one width:
  /// the first column after the time.
  private let venues: [String]

  /// - Parameters:
  ///   - symbols: the subscribed symbols, as quotes name them, so the symbol column is as wide
  ///     as the widest of them from the first line on.
  ///   - venues: with several venues, their names; empty for one (no venue column).
  public init(
    symbols: [String] = [], venues: [String] = [], useColor: Bool = false,
    timestamps: TimestampChoice = .trade
  ) {
    self.useColor = useColor
    self.timestamps = timestamps
    let venueWidth = venues.map { TerminalWidth.columns($0) }.max() ?? 0
    self.venues = venues.map { TerminalWidth.padRight($0, to: venueWidth) + "  " }
    for symbol in symbols {
      symbolWidth = max(symbolWidth, TerminalWidth.columns(TerminalText.escaped(symbol)))
    }
  }

  public mutating func append(_ quote: Quote, to buffer: inout [UInt8]) {
    let symbol = TerminalText.escaped(quote.symbol)
    let venue = Int(quote.venue) < venues.count ? venues[Int(quote.venue)] : ""
    // The same symbol on two venues is two series.
    let key = venues.isEmpty ? quote.symbol : venue + quote.symbol
    let direction = PriceDirection(from: previous.updateValue(quote.price, forKey: key), to: quote.price)
    symbolWidth = max(symbolWidth, TerminalWidth.columns(symbol))
    if let ask = quote.ask {
      appendBook(quote, ask: ask, symbol: symbol, venue: venue, direction: direction, to: &buffer)
      return
    }
    let start = reference[key] ?? quote.price
    if reference[key] == nil { reference[key] = quote.price }
    let moved = PriceChange(from: start, to: quote.price)

    price.fit(quote.price.text)
    change.fit(moved.absolute)
    percentWidth = max(percentWidth, PriceChange.signedWidth(moved.percent))

    if let time = timestamps.milliseconds(of: quote) {
      UTCTimestamp.append(milliseconds: time, to: &buffer, days: &days)
      buffer.append(contentsOf: "  ".utf8)
    }
    buffer.append(contentsOf: venue.utf8)
    buffer.append(contentsOf: TerminalWidth.padRight(symbol, to: symbolWidth).utf8)
    buffer.append(contentsOf: "  ".utf8)
    let priceText = direction.arrow + " " + price.pad(quote.price.text)
    buffer.append(contentsOf: paint(priceText, direction.color).utf8)
    buffer.append(contentsOf: "  ".utf8)
    let changeColor: TerminalStyle? = moved.sign > 0 ? .green : moved.sign < 0 ? .red : nil
    let changeText =
      change.pad(moved.absolute) + "  " + TerminalWidth.padLeft(moved.percent, to: percentWidth)
    buffer.append(contentsOf: paint(changeText, changeColor).utf8)
    buffer.append(0x0A)
  }

  /// `TIME  SYMBOL  ▲ BID  ASK`: the bid and ask columns aligned on their decimal points.
  private mutating func appendBook(
    _ quote: Quote, ask: Ask, symbol: String, venue: String, direction: PriceDirection,
    to buffer: inout [UInt8]
  ) {
    price.fit(quote.price.text)
    self.ask.fit(ask.price.text)
    if let time = timestamps.milliseconds(of: quote) {
      UTCTimestamp.append(milliseconds: time, to: &buffer, days: &days)
      buffer.append(contentsOf: "  ".utf8)
    }
    buffer.append(contentsOf: venue.utf8)
    buffer.append(contentsOf: TerminalWidth.padRight(symbol, to: symbolWidth).utf8)
    buffer.append(contentsOf: "  ".utf8)
    let text = direction.arrow + " " + price.pad(quote.price.text) + "  " + self.ask.pad(ask.price.text)
    buffer.append(contentsOf: paint(text, direction.color).utf8)
    buffer.append(0x0A)
  }

  private func paint(_ text: String, _ style: TerminalStyle?) -> String {
    style?.wrap(text, enabled: useColor) ?? text
  }
}
