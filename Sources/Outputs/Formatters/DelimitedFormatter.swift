import TickerSupport
import Venues

/// `--format csv` and `--format tsv`: a header line, then one row per quote.
///
///     time,symbol,price,volume
///     2026-01-17T13:18:52.976Z,BINANCE:BTCUSDT,95372.09,0.00063
///
/// The time column is named after what it holds (`time` for the trade's, `received` for the
/// receive time) and is left out with `--timestamps none`. An empty `volume` means the venue sent
/// none.
///
/// **csv** quotes a field per RFC 4180 when it holds a comma, a double quote or a space at either
/// end (a double quote inside is doubled); rows end with LF, as Unix tools expect, rather than the
/// RFC's CRLF. **tsv** never quotes (IANA's text/tab-separated-values has no quoting): a field
/// cannot hold a TAB or a line break anyway. In both, the symbol first goes through
/// `TerminalText`, so control characters (TAB, CR and LF included) arrive as visible escapes and a
/// row is always one line.
///
/// In a run of several venues, a `venue` column comes before `symbol`. A run of the best bid and
/// ask (`--bid-ask`) has the columns `bid,ask,bid_size,ask_size` instead of `price,volume`:
///
///     time,symbol,bid,ask,bid_size,ask_size
///     2026-12-06T03:00:32.104Z,BTCUSDT,97263.91000000,97263.93000000,0.01234000,0.50000000
public struct DelimitedFormatter: QuoteFormatter {
  private var days = UTCTimestamp.DayCache()
  public enum Separator: UInt8, Sendable {
    case comma = 0x2C
    case tab = 0x09
  }

  public let separator: Separator
  public let timestamps: TimestampChoice
  public let header: [UInt8]?
  private var field: [UInt8] = []
  /// With several venues, their names (`Quote.venue` indexes it); empty for one.
  private let venues: [String]

  public init(
    separator: Separator, timestamps: TimestampChoice = .trade, venues: [String] = [], bidAsk: Bool = false
  ) {
    self.separator = separator
    self.timestamps = timestamps
    self.venues = venues
    var names: [String] = []
    switch timestamps {
    case .trade: names.append("time")
    case .received: names.append("received")
    case .none: break
    }
    if !venues.isEmpty { names.append("venue") }
    names += bidAsk ? ["symbol", "bid", "ask", "bid_size", "ask_size"] : ["symbol", "price", "volume"]
    header = Array(names.joined(separator: String(UnicodeScalar(separator.rawValue))).utf8) + [0x0A]
  }

  public mutating func append(_ quote: Quote, to buffer: inout [UInt8]) {
    if let time = timestamps.milliseconds(of: quote) {
      UTCTimestamp.append(milliseconds: time, to: &buffer, days: &days)
      buffer.append(separator.rawValue)
    }
    if !venues.isEmpty {
      // Venue names are the catalog's (lower-case letters): never quoted.
      buffer.append(contentsOf: (Int(quote.venue) < venues.count ? venues[Int(quote.venue)] : "").utf8)
      buffer.append(separator.rawValue)
    }
    field.removeAll(keepingCapacity: true)
    TerminalText.appendEscaped(quote.symbol, to: &field)
    if separator == .comma {
      Self.appendCSVField(field, to: &buffer)
    } else {
      buffer.append(contentsOf: field)
    }
    buffer.append(separator.rawValue)
    buffer.append(contentsOf: quote.price.text.utf8)
    buffer.append(separator.rawValue)
    if let ask = quote.ask {
      buffer.append(contentsOf: ask.price.text.utf8)
      buffer.append(separator.rawValue)
      if let size = quote.bidSize { buffer.append(contentsOf: size.text.utf8) }
      buffer.append(separator.rawValue)
      if let size = ask.size { buffer.append(contentsOf: size.text.utf8) }
    } else if let volume = quote.volume {
      buffer.append(contentsOf: volume.text.utf8)
    }
    buffer.append(0x0A)
  }

  /// `field` as one CSV field: as is, or in double quotes with inner quotes doubled when it
  /// holds a comma, a quote, a line break, or starts or ends with a space.
  static func appendCSVField(_ field: [UInt8], to buffer: inout [UInt8]) {
    let quote = UInt8(ascii: "\"")
    let needsQuotes =
      field.contains { $0 == UInt8(ascii: ",") || $0 == quote || $0 == 0x0A || $0 == 0x0D }
      || field.first == 0x20 || field.last == 0x20
    guard needsQuotes else {
      buffer.append(contentsOf: field)
      return
    }
    buffer.append(quote)
    for byte in field {
      if byte == quote { buffer.append(quote) }
      buffer.append(byte)
    }
    buffer.append(quote)
  }
}
