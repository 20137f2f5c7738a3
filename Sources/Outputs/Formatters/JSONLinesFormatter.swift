import JSON
import TickerSupport
import Venues

/// Machine-readable output, one JSON object per line (JSON Lines), keys always in this order:
///
///     {"symbol":"BINANCE:BTCUSDT","price":95372.09,"time":"2026-01-17T13:18:52.976Z","t":1768655932976,"volume":0.00063,"received":"2026-01-17T13:18:53.012Z","rt":1768655933012,"provider":"finnhub"}
///
/// `price` and `volume` are JSON numbers written from the exact decimal text the server sent (no
/// binary rounding); `volume` is `null` when the provider sent none. `time` is the trade time as
/// ISO 8601 UTC with milliseconds, `t` the same instant in epoch milliseconds; `received` and
/// `rt` are when the message carrying the trade reached the ticker (this machine's clock; both
/// `null` when unknown), so `rt - t` is the feed's latency as far as the two clocks agree.
/// `provider` is the venue as `--provider` names it — in a run of several venues, the quote's.
///
/// A venue's best bid and ask (`--bid-ask`) has `bid`, `bid_size`, `ask`, `ask_size` in place of
/// `price` and `volume` (a size `null` where the venue gives none), `time` the venue's time of
/// the update (the receive time where it gives none):
///
///     {"symbol":"BTCUSDT","bid":97250.01,"bid_size":3.41877,"ask":97250.02,"ask_size":0.5841,"time":…,"t":…,"received":…,"rt":…,"provider":"binance"}
public struct JSONLinesFormatter: QuoteFormatter {
  private var days = UTCTimestamp.DayCache()
  /// `,"provider":"finnhub"}` and the newline for each venue (`Quote.venue` indexes it), made once.
  private let tails: [[UInt8]]

  public init(provider: String = ProviderCatalog.defaultProvider.name) { self.init(providers: [provider]) }

  /// - Parameter providers: the run's venues, in the order `Quote.venue` counts them.
  public init(providers: [String]) {
    tails = (providers.isEmpty ? [ProviderCatalog.defaultProvider.name] : providers).map { provider in
      var tail = Array(#","provider":"#.utf8)
      JSONEscaping.appendQuoted(provider, to: &tail)
      tail.append(contentsOf: "}\n".utf8)
      return tail
    }
  }

  public mutating func append(_ quote: Quote, to buffer: inout [UInt8]) {
    buffer.append(contentsOf: #"{"symbol":"#.utf8)
    JSONEscaping.appendQuoted(quote.symbol, to: &buffer)
    if let ask = quote.ask {
      buffer.append(contentsOf: #","bid":"#.utf8)
      buffer.append(contentsOf: quote.price.text.utf8)
      buffer.append(contentsOf: #","bid_size":"#.utf8)
      Self.append(quote.volume, to: &buffer)
      buffer.append(contentsOf: #","ask":"#.utf8)
      buffer.append(contentsOf: ask.price.text.utf8)
      buffer.append(contentsOf: #","ask_size":"#.utf8)
      Self.append(ask.size, to: &buffer)
      appendTime(quote.time, to: &buffer)
    } else {
      buffer.append(contentsOf: #","price":"#.utf8)
      buffer.append(contentsOf: quote.price.text.utf8)
      appendTime(quote.time, to: &buffer)
      buffer.append(contentsOf: #","volume":"#.utf8)
      Self.append(quote.volume, to: &buffer)
    }
    if quote.received != 0 {
      buffer.append(contentsOf: #","received":""#.utf8)
      UTCTimestamp.append(milliseconds: quote.received, to: &buffer, days: &days)
      buffer.append(contentsOf: #"","rt":"#.utf8)
      buffer.append(contentsOf: String(quote.received).utf8)
    } else {
      buffer.append(contentsOf: #","received":null,"rt":null"#.utf8)
    }
    buffer.append(contentsOf: Int(quote.venue) < tails.count ? tails[Int(quote.venue)] : tails[0])
  }

  private mutating func appendTime(_ time: Int64, to buffer: inout [UInt8]) {
    buffer.append(contentsOf: #","time":""#.utf8)
    UTCTimestamp.append(milliseconds: time, to: &buffer, days: &days)
    buffer.append(contentsOf: #"","t":"#.utf8)
    buffer.append(contentsOf: String(time).utf8)
  }

  /// A number's exact text, or `null`.
  private static func append(_ number: Price?, to buffer: inout [UInt8]) {
    if let number {
      buffer.append(contentsOf: number.text.utf8)
    } else {
      buffer.append(contentsOf: "null".utf8)
    }
  }
}
