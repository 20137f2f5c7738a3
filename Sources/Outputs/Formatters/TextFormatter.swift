import TickerSupport
import Venues

/// The default output, one line per quote, tab-separated because symbols may contain spaces:
///
///     <trade time, ISO 8601 UTC with milliseconds>\t<symbol>\t<price exactly as sent>\n
///     2026-01-17T13:18:52.976Z	BINANCE:BTCUSDT	95372.09
///
/// `timestamps` picks the time column: the trade's time (the default), the time the ticker
/// received it, or none (then a line is `<symbol>\t<price>`).
///
/// With `useColor`, the price is wrapped in ANSI SGR codes: green (`ESC[32m`) when higher than
/// the previous line printed for that symbol, red (`ESC[31m`) when lower, reset with `ESC[0m`;
/// no codes at all for the first line of a symbol or an unchanged price. Without `useColor` the
/// output never contains an escape byte.
///
/// The symbol is written through `TerminalText`: a control character, TAB or line feed in it
/// (whatever the server sent) is shown as an escape, so every quote is exactly one line of three
/// fields.
///
/// In a run of several venues, the venue's name is a column of its own before the symbol:
/// `<time>\t<venue>\t<symbol>\t<price>`. A venue's best bid and ask (`--bid-ask`) is two
/// columns, `<bid>\t<ask>`, each coloured by its own direction.
public struct TextFormatter: QuoteFormatter {
  private var days = UTCTimestamp.DayCache()
  public var useColor: Bool
  public var timestamps: TimestampChoice
  private var previous: [String: Price] = [:]
  /// The previous ask per series, for the colour of a top-of-book quote's ask.
  private var previousAsk: [String: Price] = [:]
  /// With several venues, their names (`Quote.venue` indexes it); empty for one.
  private let venues: [String]

  public init(useColor: Bool = false, timestamps: TimestampChoice = .trade, venues: [String] = []) {
    self.useColor = useColor
    self.timestamps = timestamps
    self.venues = venues
  }

  static let green: [UInt8] = Array("\u{1B}[32m".utf8)
  static let red: [UInt8] = Array("\u{1B}[31m".utf8)
  static let reset: [UInt8] = Array("\u{1B}[0m".utf8)

  public mutating func append(_ quote: Quote, to buffer: inout [UInt8]) {
    if !useColor, venues.isEmpty, quote.ask == nil, appendPlainLine(quote, to: &buffer) { return }
    if let time = timestamps.milliseconds(of: quote) {
      UTCTimestamp.append(milliseconds: time, to: &buffer, days: &days)
      buffer.append(0x09)
    }
    let venue = Int(quote.venue) < venues.count ? venues[Int(quote.venue)] : ""
    if !venues.isEmpty {
      buffer.append(contentsOf: venue.utf8)
      buffer.append(0x09)
    }
    TerminalText.appendEscaped(quote.symbol, to: &buffer)
    buffer.append(0x09)
    var before: Price? = nil
    var askBefore: Price? = nil
    if useColor {
      // The same symbol on two venues is two series.
      let key = venues.isEmpty ? quote.symbol : venue + "\t" + quote.symbol
      before = previous.updateValue(quote.price, forKey: key)
      if let ask = quote.ask { askBefore = previousAsk.updateValue(ask.price, forKey: key) }
    }
    appendColored(quote.price, after: before, to: &buffer)
    if let ask = quote.ask {
      buffer.append(0x09)
      appendColored(ask.price, after: askBefore, to: &buffer)
    }
    buffer.append(0x0A)
  }

  /// `price`, green when above `before`, red when below, plain when unchanged or first.
  private func appendColored(_ price: Price, after before: Price?, to buffer: inout [UInt8]) {
    var color: [UInt8]? = nil
    if let before, price > before { color = Self.green }
    if let before, price < before { color = Self.red }
    if let color {
      buffer.append(contentsOf: color)
      buffer.append(contentsOf: price.text.utf8)
      buffer.append(contentsOf: Self.reset)
    } else {
      buffer.append(contentsOf: price.text.utf8)
    }
  }

  /// A line for each quote, in order: `append(_:to:)` for each, but the usual line is written
  /// from the quote's fields where they lie in the array. A quote passed on its own is copied
  /// for the call (a retain and a release of each of its texts).
  public mutating func append(contentsOf quotes: ArraySlice<Quote>, to buffer: inout [UInt8]) {
    for index in quotes.indices {
      if !useColor, venues.isEmpty, quotes[index].ask == nil,
        appendPlainLine(
          symbol: quotes[index].symbol, price: quotes[index].price.text,
          time: timestamps.milliseconds(time: quotes[index].time, received: quotes[index].received),
          to: &buffer)
      {
        continue
      }
      append(quotes[index], to: &buffer)
    }
  }

  /// The usual line without color — a four-digit year, a symbol that needs no escape, short
  /// texts — written into stack memory and appended at once; false (nothing written) otherwise.
  private mutating func appendPlainLine(_ quote: Quote, to buffer: inout [UInt8]) -> Bool {
    appendPlainLine(
      symbol: quote.symbol, price: quote.price.text,
      time: timestamps.milliseconds(time: quote.time, received: quote.received), to: &buffer)
  }

  /// `appendPlainLine(_:to:)` from the fields it shows.
  private mutating func appendPlainLine(
    symbol: String, price: String, time: Int64?, to buffer: inout [UInt8]
  ) -> Bool {
    // The texts' bytes where they are (nil, and the general path, for a non-native string).
    let written = symbol.utf8.withContiguousStorageIfAvailable { symbol in
      price.utf8.withContiguousStorageIfAvailable { price in
        guard symbol.count <= 64, price.count <= 64, TerminalText.isPlain(symbol) else { return false }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: UTCTimestamp.width + 3 + 128) { line in
          let base = line.baseAddress!
          var n = 0
          if let time {
            guard UTCTimestamp.write(milliseconds: time, to: base, days: &days) else { return false }
            base[UTCTimestamp.width] = 0x09
            n = UTCTimestamp.width + 1
          }
          if let from = symbol.baseAddress { (base + n).update(from: from, count: symbol.count) }
          n += symbol.count
          base[n] = 0x09
          n += 1
          if let from = price.baseAddress { (base + n).update(from: from, count: price.count) }
          n += price.count
          base[n] = 0x0A
          n += 1
          buffer.append(contentsOf: UnsafeBufferPointer(start: base, count: n))
          return true
        }
      }
    }
    return written.flatMap { $0 } ?? false
  }
}
