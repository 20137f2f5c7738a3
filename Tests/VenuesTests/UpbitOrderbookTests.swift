import Testing

@testable import JSON
@testable import TestSupport
@testable import Venues
@testable import WebSocketWire

/// Upbit's top of book: the `orderbook` type, its first unit the best bid and ask.
@Suite(.ownThread) struct UpbitOrderbookTests {
  let book = UpbitProvider().topOfBook!

  /// An `orderbook` message in DEFAULT keys, as Upbit sends it: numbers as Java doubles, large
  /// prices in exponent form.
  static let defaultMessage =
    #"{"type":"orderbook","code":"KRW-BTC","timestamp":1733450000000,"total_ask_size":4.79158413,"#
    + #""total_bid_size":2.65609625,"orderbook_units":[{"ask_price":1.4325E8,"bid_price":1.4324E8,"#
    + #""ask_size":0.05,"bid_size":0.1},{"ask_price":1.43251E8,"bid_price":1.43239E8,"ask_size":4.9E-4,"#
    + #""bid_size":1.20032},{"ask_price":1.43252E8,"bid_price":1.43238E8,"ask_size":0.3,"bid_size":0.4}],"#
    + #""stream_type":"REALTIME","level":0}"#

  /// The same in SIMPLE keys, its top unit's ask size in exponent form.
  static let simpleMessage =
    #"{"ty":"orderbook","cd":"KRW-ETH","tms":1733450000123,"tas":12.5,"tbs":7.25,"obu":[{"ap":5123000.0,"#
    + #""bp":5122000.0,"as":4.9E-4,"bs":2.5},{"ap":5124000.0,"bp":5121000.0,"as":1.0,"bs":3.0}],"#
    + #""st":"SNAPSHOT","lv":0}"#

  func quote(_ text: String, via provider: any Provider) throws -> Quote {
    let event = provider.decode(.binary(Array(text.utf8)))
    guard case .quotes(let quotes) = event else { throw ShapeError("not quotes: \(event)") }
    return try #require(quotes.count == 1 ? quotes.first : nil)
  }

  @Test func defaultKeysGiveTheFirstUnitExactlyWithExponentsRewritten() throws {
    let quote = try quote(Self.defaultMessage, via: book)
    #expect(quote.symbol == "KRW-BTC" && quote.time == 1_733_450_000_000 && quote.isTopOfBook)
    #expect(quote.bid.text == "143240000" && quote.bidSize?.text == "0.1")
    #expect(quote.ask?.price.text == "143250000" && quote.ask?.size?.text == "0.05")
  }

  @Test func simpleKeysDecodeAlike() throws {
    let quote = try quote(Self.simpleMessage, via: book)
    #expect(quote.symbol == "KRW-ETH" && quote.time == 1_733_450_000_123)
    #expect(quote.bid.text == "5122000.0" && quote.bidSize?.text == "2.5")
    #expect(quote.ask?.price.text == "5123000.0" && quote.ask?.size?.text == "0.00049")
  }

  @Test func theMessageSaysWhatItIsWhateverTheStream() throws {
    // A recording replayed through the trades provider still reads its books.
    #expect(try quote(Self.defaultMessage, via: UpbitProvider()) == quote(Self.defaultMessage, via: book))
    #expect(try quote(Self.simpleMessage, via: UpbitProvider()) == quote(Self.simpleMessage, via: book))
    // And the book provider still reads tickers.
    let ticker = #"{"ty":"ticker","cd":"KRW-BTC","tp":1.03156E8,"tv":4.9E-4,"ttms":1771247815101}"#
    #expect(book.decode(.text(ticker)) == UpbitProvider().decode(.text(ticker)))
  }

  @Test func theFastPathDeclinesOrderbooksAndTheModelPathReadsThem() throws {
    for text in [Self.defaultMessage, Self.simpleMessage] {
      #expect(book.fastDecode(.binary(Array(text.utf8))) == nil)
      #expect(book.fastDecode(.text(text)) == nil)
      var quotes: [Quote] = []
      #expect(book.decode(.text(text), appendingQuotesTo: &quotes) == nil)
      #expect(quotes == [try quote(text, via: book)])
    }
  }

  @Test func subscriptionsAskForTheOrderbookTypeWithTheWholeList() {
    var ids = RequestIDs(prefix: "ticker")
    #expect(
      book.subscriptionMessages(from: [], to: ["KRW-BTC"], ids: &ids) == [
        .text(#"[{"ticket":"ticker-1"},{"type":"orderbook","codes":["KRW-BTC"]},{"format":"SIMPLE"}]"#)
      ])
    #expect(
      book.subscriptionMessages(from: ["KRW-BTC"], to: ["KRW-BTC", "KRW-ETH"], ids: &ids) == [
        .text(
          #"[{"ticket":"ticker-2"},{"type":"orderbook","codes":["KRW-BTC","KRW-ETH"]},{"format":"SIMPLE"}]"#)
      ])
    #expect(book.subscriptionMessages(from: ["KRW-BTC"], to: ["KRW-BTC"], ids: &ids).isEmpty)
    #expect(book.subscriptionMessages(from: ["KRW-BTC"], to: [], ids: &ids).isEmpty)
    // Trades keep their ticker requests; scaling keeps the stream.
    #expect(UpbitProvider().stream == .trades && book.stream == .topOfBook)
    #expect(book.scaled(by: 0.5).stream == .topOfBook)
    #expect(book.scaled(by: 0.5).keepalive?.interval == .seconds(12.5))
    #expect(!book.usesDecodingContext && !book.backFillsOnSubscribe)
  }

  @Test(arguments: [
    (
      #"{"ty":"orderbook","tms":1,"obu":[{"ap":2,"bp":1,"as":1,"bs":1}]}"#,
      #""cd"/"code" must be a non-empty string"#
    ),
    (#"{"ty":"orderbook","cd":"","obu":[]}"#, #""cd"/"code" must be a non-empty string"#),
    (#"{"ty":"orderbook","cd":"KRW-BTC","tms":1}"#, #""obu"/"orderbook_units" must be an array"#),
    (#"{"ty":"orderbook","cd":"KRW-BTC","obu":{"ap":2}}"#, #""obu"/"orderbook_units" must be an array"#),
    (#"{"ty":"orderbook","cd":"KRW-BTC","obu":[7]}"#, #""obu"/"orderbook_units"[0] must be an object"#),
    (
      #"{"ty":"orderbook","cd":"KRW-BTC","obu":[{"ap":"x","bp":1}]}"#,
      #""ap/ask_price" is not a decimal number"#
    ),
    (
      #"{"ty":"orderbook","cd":"KRW-BTC","obu":[{"ap":2,"bp":true}]}"#,
      #""bp/bid_price" must be a number, not a boolean"#
    ),
    (
      #"{"ty":"orderbook","cd":"KRW-BTC","obu":[{"ap":2,"bp":1,"as":[1]}]}"#,
      #""as/ask_size" must be a number, not an array"#
    ),
    (
      #"{"ty":"orderbook","cd":"KRW-BTC","tms":"1","obu":[]}"#,
      #""tms"/"timestamp" must be a number, not a string"#
    ),
    (
      #"{"ty":"orderbook","cd":"KRW-BTC","tms":-5,"obu":[]}"#,
      #""tms"/"timestamp" must be epoch milliseconds"#
    ),
  ])
  func malformedOrderbooks(text: String, reason: String) {
    #expect(book.decode(.text(text)) == .malformed(reason))
  }

  @Test func anEmptySideIsNothingToShowNotAnError() {
    let ignored = ProviderEvent.ignored("orderbook with an empty side")
    for text in [
      #"{"ty":"orderbook","cd":"KRW-BTC","tms":1,"obu":[]}"#,
      #"{"ty":"orderbook","cd":"KRW-BTC","obu":[{"ap":2,"bp":null}]}"#,
      #"{"ty":"orderbook","cd":"KRW-BTC","obu":[{"bp":1,"bs":1}]}"#,
      #"{"ty":"orderbook","cd":"KRW-BTC","obu":[{"ap":0.0,"bp":1,"as":0.0,"bs":1}]}"#,
    ] {
      #expect(book.decode(.text(text)) == ignored, "\(text)")
    }
  }

  @Test func noTimeLeavesItToTheRuntimeAndSizesMayBeMissing() throws {
    let quote = try quote(
      #"{"type":"orderbook","code":"KRW-BTC","orderbook_units":[{"ask_price":"2.5","bid_price":"2"}]}"#,
      via: book)
    #expect(quote.time == 0 && quote.bidSize == nil && quote.ask?.size == nil)
    #expect(quote.bid.text == "2" && quote.ask?.price.text == "2.5")
  }

  @Test func aHugeBookIsReadAtItsTopOnly() throws {
    let unit = #"{"ap":1.4325E8,"bp":1.4324E8,"as":0.05,"bs":0.1}"#
    let text =
      #"{"ty":"orderbook","cd":"KRW-BTC","tms":1,"obu":["#
      + Array(repeating: unit, count: 50_000).joined(separator: ",")
      + "]}"
    let quote = try quote(text, via: book)
    #expect(quote.bid.text == "143240000" && quote.ask?.price.text == "143250000")
  }
}
