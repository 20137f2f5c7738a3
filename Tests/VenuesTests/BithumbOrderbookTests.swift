import Testing

@testable import JSON
@testable import TestSupport
@testable import Venues
@testable import WebSocketWire

/// Bithumb's top of book: the `orderbook` type of its Upbit-style feed, its first unit the best
/// bid and ask.
@Suite(.ownThread) struct BithumbOrderbookTests {
  let book = BithumbProvider().topOfBook!

  /// An `orderbook` message as Bithumb sends it: DEFAULT keys, won prices as bare integers.
  static let message =
    #"{"type":"orderbook","code":"KRW-BTC","total_ask_size":1.20384512,"total_bid_size":3.40718307,"#
    + #""orderbook_units":[{"ask_price":95540000,"bid_price":95539000,"ask_size":0.0123,"bid_size":0.51002},"#
    + #"{"ask_price":95541000,"bid_price":95538000,"ask_size":0.4,"bid_size":1.1}],"timestamp":1783658381398,"#
    + #""level":1,"stream_type":"REALTIME"}"#

  func quote(_ text: String, via provider: any Provider) throws -> Quote {
    let event = provider.decode(.binary(Array(text.utf8)))
    guard case .quotes(let quotes) = event else { throw ShapeError("not quotes: \(event)") }
    return try #require(quotes.count == 1 ? quotes.first : nil)
  }

  @Test func theFirstUnitIsTheTopExactly() throws {
    let top = try quote(Self.message, via: book)
    #expect(top.symbol == "KRW-BTC" && top.time == 1_783_658_381_398)
    #expect(top.bid.text == "95539000" && top.bidSize?.text == "0.51002")
    #expect(top.ask?.price.text == "95540000" && top.ask?.size?.text == "0.0123")
    // Whatever the stream: a recording replays through the trades provider too.
    #expect(try quote(Self.message, via: BithumbProvider()) == top)
    // Exponent forms and decimal strings are read exactly.
    let other =
      #"{"type":"orderbook","code":"KRW-ETH","orderbook_units":[{"ask_price":4.1461E6,"bid_price":"4146000","ask_size":4.9E-4,"bid_size":"2"}],"timestamp":1}"#
    let quote2 = try quote(other, via: book)
    #expect(
      quote2.bid.text == "4146000" && quote2.ask?.price.text == "4146100"
        && quote2.ask?.size?.text == "0.00049")
  }

  @Test func requestsAskForTheOrderbookType() {
    var ids = RequestIDs(prefix: "ticker")
    #expect(
      book.subscriptionMessages(from: [], to: ["KRW-BTC"], ids: &ids) == [
        .text(#"[{"ticket":"ticker-1"},{"type":"orderbook","codes":["KRW-BTC"]},{"format":"DEFAULT"}]"#)
      ])
    // A change: the added code's snapshot alone, then every code in real time.
    #expect(
      book.subscriptionMessages(from: ["KRW-BTC"], to: ["KRW-BTC", "KRW-ETH"], ids: &ids) == [
        .text(
          #"[{"ticket":"ticker-2"},{"type":"orderbook","codes":["KRW-ETH"],"isOnlySnapshot":true},{"format":"DEFAULT"}]"#
        ),
        .text(
          #"[{"ticket":"ticker-3"},{"type":"orderbook","codes":["KRW-BTC","KRW-ETH"],"isOnlyRealtime":true},{"format":"DEFAULT"}]"#
        ),
      ])
    #expect(book.subscriptionMessages(from: ["KRW-BTC"], to: [], ids: &ids).isEmpty)
    #expect(book.stream == .topOfBook && BithumbProvider().stream == .trades)
    #expect(book.scaled(by: 0.5).stream == .topOfBook && !book.usesDecodingContext)
    // Trades keep their request.
    var tradeIDs = RequestIDs(prefix: "ticker")
    #expect(
      BithumbProvider().subscriptionMessages(from: [], to: ["KRW-BTC"], ids: &tradeIDs) == [
        .text(#"[{"ticket":"ticker-1"},{"type":"trade","codes":["KRW-BTC"]},{"format":"DEFAULT"}]"#)
      ])
  }

  @Test(arguments: [
    (#"{"type":"orderbook","orderbook_units":[]}"#, #""cd"/"code" must be a non-empty string"#),
    (#"{"type":"orderbook","code":"KRW-BTC"}"#, #""obu"/"orderbook_units" must be an array"#),
    (
      #"{"type":"orderbook","code":"KRW-BTC","orderbook_units":["x"]}"#,
      #""obu"/"orderbook_units"[0] must be an object"#
    ),
    (
      #"{"type":"orderbook","code":"KRW-BTC","orderbook_units":[{"ask_price":"1e","bid_price":1}]}"#,
      #""ap/ask_price" is not a decimal number"#
    ),
    (
      #"{"type":"orderbook","code":"KRW-BTC","timestamp":{},"orderbook_units":[]}"#,
      #""tms"/"timestamp" must be a number, not an object"#
    ),
  ])
  func malformed(text: String, reason: String) {
    #expect(book.decode(.text(text)) == .malformed(reason))
  }

  @Test func emptySidesShowNothingAndAHugeBookIsReadAtItsTop() throws {
    #expect(
      book.decode(.text(#"{"type":"orderbook","code":"KRW-BTC","orderbook_units":[{"ask_price":1}]}"#))
        == .ignored("orderbook with an empty side"))
    let unit = #"{"ask_price":95540000,"bid_price":95539000,"ask_size":0.1,"bid_size":0.2}"#
    let huge =
      #"{"type":"orderbook","code":"KRW-BTC","orderbook_units":["#
      + Array(repeating: unit, count: 50_000).joined(separator: ",") + "]}"
    #expect(try quote(huge, via: book).bid.text == "95539000")
  }
}
