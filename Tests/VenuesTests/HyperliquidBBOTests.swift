import Testing

@testable import JSON
@testable import TestSupport
@testable import Venues
@testable import WebSocketWire

/// Hyperliquid's top of book: the `bbo` subscription, `bbo[0]` the bid and `bbo[1]` the ask.
@Suite(.ownThread) struct HyperliquidBBOTests {
  let book = HyperliquidProvider().topOfBook!

  static let message =
    #"{"channel":"bbo","data":{"coin":"BTC","time":1733450000000,"bbo":[{"px":"97250.0","sz":"1.2","n":3},{"px":"97251.0","sz":"0.40","n":1}]}}"#

  @Test func bothSidesExactly() throws {
    let quotes = book.decode(.text(Self.message)).quotes
    let quote = try #require(quotes.count == 1 ? quotes.first : nil)
    #expect(quote.symbol == "BTC" && quote.time == 1_733_450_000_000 && quote.isTopOfBook)
    #expect(quote.bid.text == "97250.0" && quote.bidSize?.text == "1.2")
    #expect(quote.ask?.price.text == "97251.0" && quote.ask?.size?.text == "0.40")
    // The message says what it is: the trades provider reads it too (a recording replays).
    #expect(HyperliquidProvider().decode(.text(Self.message)) == book.decode(.text(Self.message)))
  }

  @Test func aNullSideIsNothingToShow() {
    for data in [
      #"{"coin":"BTC","time":1,"bbo":[null,{"px":"2","sz":"1","n":1}]}"#,
      #"{"coin":"BTC","time":1,"bbo":[{"px":"1","sz":"1","n":1},null]}"#,
      #"{"coin":"BTC","time":1,"bbo":[null,null]}"#,
    ] {
      #expect(book.decode(.text(#"{"channel":"bbo","data":\#(data)}"#)) == .ignored("bbo with an empty side"))
    }
  }

  @Test(arguments: [
    (#"{"channel":"bbo"}"#, #"a bbo message needs a "data" object"#),
    (#"{"channel":"bbo","data":[]}"#, #"a bbo message needs a "data" object"#),
    (#"{"channel":"bbo","data":{"time":1,"bbo":[null,null]}}"#, #""coin" must be a non-empty string"#),
    (
      #"{"channel":"bbo","data":{"coin":"BTC","time":"1","bbo":[null,null]}}"#,
      #""time" must be epoch milliseconds"#
    ),
    (
      #"{"channel":"bbo","data":{"coin":"BTC","time":1,"bbo":[null]}}"#,
      #""bbo" must be an array of two levels (bid, ask)"#
    ),
    (
      #"{"channel":"bbo","data":{"coin":"BTC","time":1}}"#,
      #""bbo" must be an array of two levels (bid, ask)"#
    ),
    (
      #"{"channel":"bbo","data":{"coin":"BTC","time":1,"bbo":[{"px":1,"sz":"1"},null]}}"#,
      "bbo[0].px must be a decimal string"
    ),
    (
      #"{"channel":"bbo","data":{"coin":"BTC","time":1,"bbo":[null,{"px":"1"}]}}"#,
      "bbo[1].sz must be a decimal string"
    ),
    (
      #"{"channel":"bbo","data":{"coin":"BTC","time":1,"bbo":[7,null]}}"#,
      "bbo[0] must be an object or null, not a number"
    ),
  ])
  func malformed(text: String, reason: String) {
    #expect(book.decode(.text(text)) == .malformed(reason))
  }

  @Test func aHugeMessageIsRefusedOrReadBounded() {
    // Thousands of levels where two are due: refused by shape, nothing kept.
    let level = #"{"px":"1","sz":"1","n":1}"#
    let huge =
      #"{"channel":"bbo","data":{"coin":"BTC","time":1,"bbo":["#
      + Array(repeating: level, count: 50_000)
      .joined(separator: ",") + "]}}"
    #expect(book.decode(.text(huge)) == .malformed(#""bbo" must be an array of two levels (bid, ask)"#))
  }

  @Test func subscriptionsAndAnswers() {
    var ids = RequestIDs(prefix: "ticker")
    #expect(
      book.subscriptionMessages(from: ["ETH"], to: ["BTC"], ids: &ids) == [
        .text(#"{"method":"unsubscribe","subscription":{"type":"bbo","coin":"ETH"}}"#),
        .text(#"{"method":"subscribe","subscription":{"type":"bbo","coin":"BTC"}}"#),
      ])
    #expect(
      book.decode(
        .text(
          #"{"channel":"subscriptionResponse","data":{"method":"subscribe","subscription":{"type":"bbo","coin":"BTC"}}}"#
        ))
        == .acknowledged(id: nil))
    // A refused bbo subscription names its coin, taken back alone.
    let refusal = #"{"channel":"error","data":"Invalid subscription: {\"type\":\"bbo\",\"coin\":\"NOPE\"}"}"#
    guard case .error(let error) = book.decode(.text(refusal)) else {
      Issue.record("not an error")
      return
    }
    #expect(error.symbol == "NOPE" && !error.fatal)
    // No back-fill on bbo: its first quotes are live; trades keep theirs.
    #expect(!book.backFillsOnSubscribe && !book.sendsHistory && !book.usesDecodingContext)
    #expect(HyperliquidProvider().backFillsOnSubscribe)
    #expect(book.scaled(by: 0.5).stream == .topOfBook && !book.scaled(by: 0.5).backFillsOnSubscribe)
  }
}
