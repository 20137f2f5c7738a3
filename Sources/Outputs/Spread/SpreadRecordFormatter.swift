import JSON
import Venues

/// `--format json --spread` in a run of several venues: the price lines of `JSONLinesFormatter`,
/// each followed by a record of every spread and premium it changed (`CrossVenueBoard`), one
/// JSON object a line. Price lines are unchanged (they carry no `type`); records do:
///
///     {"type":"spread","asset":"BTC","quote":"USDT","high":95375.72,"highVenue":"binance","low":95366.12,"lowVenue":"okx","spread":9.60,"percent":0.01,"venues":2,"t":1768655932976}
///     {"type":"premium","asset":"BTC","venue":"upbit","symbol":"KRW-BTC","currency":"KRW","price":143000000,"rate":1450,"rateSymbol":"KRW-USDT","rateAge":1200,"converted":98620.69,"reference":95370.92,"referenceQuote":"USDT","referenceVenues":2,"percent":3.41,"t":1768655932976}
///
/// In a run following books (`--bid-ask`) a spread record is of the best bid and the best ask
/// (`CrossVenueBook`) and a premium's prices are mids:
///
///     {"type":"spread","asset":"BTC","quote":"USDT","bid":95375.72,"bidVenue":"binance","ask":95374.10,"askVenue":"okx","spread":-1.62,"bps":-0.17,"crossed":true,"venues":2,"t":1768655932976}
///
/// Numbers are exact decimals: prices as the venues sent them, `spread` exactly `high − low`,
/// `reference` the exact median; `percent` (and `converted`) are divisions, rounded half away
/// from zero as `VenueSpread` and `ConversionPremium` say. `t` is the trade time of the price
/// that changed it; `rateAge` how much earlier the rate's last quote arrived, in milliseconds.
public struct SpreadRecordFormatter: QuoteFormatter {
  private var prices: JSONLinesFormatter
  private var board: CrossVenueBoard
  private let venues: [String]

  /// - Parameters:
  ///   - venues: the run's venues (`--provider`'s spelling), in the order `Quote.venue` counts them.
  ///   - market: what a venue's symbol trades.
  public init(venues: [String], market: @escaping @Sendable (UInt8, String) -> Market?) {
    prices = JSONLinesFormatter(providers: venues)
    board = CrossVenueBoard(market: market)
    self.venues = venues
  }

  public mutating func append(_ quote: Quote, to buffer: inout [UInt8]) {
    prices.append(quote, to: &buffer)
    for change in board.receive(quote) {
      switch change {
      case .spread(let spread): append(spread, time: quote.time, to: &buffer)
      case .book(let book): append(book, time: quote.time, to: &buffer)
      case .premium(let premium):
        append(
          premium, age: max(0, CrossVenueBoard.clock(quote) - premium.rateClock), time: quote.time,
          to: &buffer)
      }
    }
  }

  private func append(_ spread: VenueSpread, time: Int64, to buffer: inout [UInt8]) {
    let record = Record(type: "spread", to: &buffer)
    record.string("asset", spread.asset, &buffer)
    record.string("quote", spread.quote, &buffer)
    record.number("high", spread.high.text, &buffer)
    record.string("highVenue", name(spread.highVenue), &buffer)
    record.number("low", spread.low.text, &buffer)
    record.string("lowVenue", name(spread.lowVenue), &buffer)
    record.number("spread", spread.difference.description, &buffer)
    record.number("percent", spread.percent?.description ?? "null", &buffer)
    record.number("venues", String(spread.venues), &buffer)
    record.number("t", String(time), &buffer)
    buffer.append(contentsOf: "}\n".utf8)
  }

  /// A run following books (`--bid-ask`): the spread between the best bid and the best ask.
  private func append(_ book: CrossVenueBook, time: Int64, to buffer: inout [UInt8]) {
    let record = Record(type: "spread", to: &buffer)
    record.string("asset", book.asset, &buffer)
    record.string("quote", book.quote, &buffer)
    record.number("bid", book.bid.text, &buffer)
    record.string("bidVenue", name(book.bidVenue), &buffer)
    record.number("ask", book.ask.text, &buffer)
    record.string("askVenue", name(book.askVenue), &buffer)
    record.number("spread", book.difference.description, &buffer)
    record.number("bps", book.basisPoints?.description ?? "null", &buffer)
    record.number("crossed", book.isCrossed ? "true" : "false", &buffer)
    record.number("venues", String(book.venues), &buffer)
    record.number("t", String(time), &buffer)
    buffer.append(contentsOf: "}\n".utf8)
  }

  private func append(_ premium: ConversionPremium, age: Int64, time: Int64, to buffer: inout [UInt8]) {
    let record = Record(type: "premium", to: &buffer)
    record.string("asset", premium.asset, &buffer)
    record.string("venue", name(premium.venue), &buffer)
    record.string("symbol", premium.symbol, &buffer)
    record.string("currency", premium.currency, &buffer)
    record.number("price", premium.price.text, &buffer)
    record.number("rate", premium.rate.text, &buffer)
    record.string("rateSymbol", premium.rateSymbol, &buffer)
    record.number("rateAge", String(age), &buffer)
    record.number("converted", premium.converted.description, &buffer)
    record.number("reference", premium.reference.description, &buffer)
    record.string("referenceQuote", ConversionPremium.target, &buffer)
    record.number("referenceVenues", String(premium.referenceVenues), &buffer)
    record.number("percent", premium.percent.description, &buffer)
    record.number("t", String(time), &buffer)
    buffer.append(contentsOf: "}\n".utf8)
  }

  private func name(_ venue: UInt8) -> String {
    Int(venue) < venues.count ? venues[Int(venue)] : String(venue)
  }

  /// Writes `"key":value` pairs after the record's `type`.
  private struct Record {
    init(type: String, to buffer: inout [UInt8]) {
      buffer.append(contentsOf: #"{"type":"#.utf8)
      JSONEscaping.appendQuoted(type, to: &buffer)
    }

    func string(_ key: String, _ value: String, _ buffer: inout [UInt8]) {
      self.key(key, &buffer)
      JSONEscaping.appendQuoted(value, to: &buffer)
    }

    /// `value` is a JSON number's text (or `null`).
    func number(_ key: String, _ value: String, _ buffer: inout [UInt8]) {
      self.key(key, &buffer)
      buffer.append(contentsOf: value.utf8)
    }

    private func key(_ key: String, _ buffer: inout [UInt8]) {
      buffer.append(UInt8(ascii: ","))
      JSONEscaping.appendQuoted(key, to: &buffer)
      buffer.append(UInt8(ascii: ":"))
    }
  }
}
