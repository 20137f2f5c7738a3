import Testing

@testable import TestSupport
@testable import Venues
@testable import WebSocketWire

/// Gemini's top of book (`--bid-ask`): the `l2` subscription trades use, its first `l2_updates`
/// the whole book and the later ones its changes, kept per symbol in the connection's
/// `DecodingContext`; a quote when the top moves; trades not printed.
@Suite(.ownThread) struct GeminiBookTests {
  let provider = GeminiProvider(stream: .topOfBook)

  static func quote(
    _ bid: String, _ bidSize: String, _ ask: String, _ askSize: String, symbol: String = "BTCUSD"
  )
    -> Quote
  {
    Quote(
      symbol: symbol, bid: Price(bid)!, bidSize: Price(bidSize)!, ask: Price(ask)!, askSize: Price(askSize)!,
      time: 0)
  }

  /// A symbol's first `l2_updates` (its whole book, no trades folded in).
  static func first(_ changes: String, symbol: String = "BTCUSD") -> WebSocketMessage {
    .text(
      #"{"type":"l2_updates","symbol":"\#(symbol)","changes":\#(changes),"trades":[],"auction_events":[]}"#)
  }

  /// A later `l2_updates`: changes only.
  static func changes(_ changes: String, symbol: String = "BTCUSD") -> WebSocketMessage {
    .text(#"{"type":"l2_updates","symbol":"\#(symbol)","changes":\#(changes)}"#)
  }

  func decode(_ messages: [WebSocketMessage], context: inout DecodingContext) -> [ProviderEvent] {
    messages.map { provider.decode($0, context: &context) }
  }

  @Test("the recorded session: the whole book, then a quote for each change of the top; trades not printed")
  func recordedSession() throws {
    var context = DecodingContext()
    let events = try GeminiProviderTests.serverTexts().map { provider.decode(.text($0), context: &context) }
    let trade = ProviderEvent.ignored("trade")
    let expected: [ProviderEvent] = [
      .quotes([Self.quote("97412.58", "0.0413", "97412.61", "0.31208")]), trade,
      // The best ask's size.
      .quotes([Self.quote("97412.58", "0.0413", "97412.61", "0.31187")]), trade, trade,
      // The best bid taken: the next one, its size changed too.
      .quotes([Self.quote("97412.55", "0.07626", "97412.61", "0.31187")]), .keepalive,
      // A better ask, then gone again.
      .quotes([Self.quote("97412.55", "0.07626", "97412.59", "0.0021")]), trade,
      .quotes([Self.quote("97412.55", "0.07626", "97412.61", "0.31187")]),
      .error(VenueError(name: "NoValidTradingPairs", message: "no valid trading pairs", fatal: false)),
      // A bid below the top: the top did not move, nothing to print.
      .quotes([]), .keepalive, trade,
      .quotes([Self.quote("97412.55", "0.02626", "97412.61", "0.31187")]),
    ]
    #expect(events == expected)
    let quotes = events.flatMap(\.quotes)
    #expect(quotes.map(\.bid.text).allSatisfy { $0 == "97412.58" || $0 == "97412.55" })
    #expect(quotes.allSatisfy { $0.time == 0 && $0.isTopOfBook })
    #expect(context.books["BTCUSD"]?.bids.count == 10 && context.books["BTCUSD"]?.asks.count == 10)
  }

  @Test("the subscription is l2's in both streams; the book asks for the connection's context")
  func subscriptions() throws {
    var ids = RequestIDs(prefix: "unused")
    var same = RequestIDs(prefix: "unused")
    #expect(
      provider.subscriptionMessages(from: ["ETHUSD"], to: ["BTCUSD"], ids: &ids) == [
        .text(#"{"type":"unsubscribe","subscriptions":[{"name":"l2","symbols":["ETHUSD"]}]}"#),
        .text(#"{"type":"subscribe","subscriptions":[{"name":"l2","symbols":["BTCUSD"]}]}"#),
      ])
    #expect(
      GeminiProvider().subscriptionMessages(from: ["ETHUSD"], to: ["BTCUSD"], ids: &same)
        == provider.subscriptionMessages(from: ["ETHUSD"], to: ["BTCUSD"], ids: &ids))
    let book = try #require(GeminiProvider().topOfBook)
    #expect(book.stream == .topOfBook && book.usesDecodingContext && book.backFillsOnSubscribe)
    #expect(GeminiProvider().stream == .trades)
  }

  @Test("one-sided changes leave the other side; a deleted top gives way to the next level")
  func changes() {
    var context = DecodingContext()
    let events = decode(
      [
        Self.first(
          #"[["buy","100.00","1"],["buy","99.50","2"],["sell","101.00","3"],["sell","101.50","4"]]"#),
        Self.changes(#"[["sell","101.00","2.5"]]"#),
        Self.changes(#"[["buy","100.25","0.1"]]"#),
        Self.changes(#"[["buy","100.25","0"]]"#),
        Self.changes(#"[["buy","100.00","0"]]"#),
        // A delete of a level that is not there: nothing moves.
        Self.changes(#"[["sell","150.00","0"]]"#),
        // The only levels of a side gone: nothing to print while it is empty.
        Self.changes(#"[["sell","101.00","0"],["sell","101.50","0"]]"#),
        Self.changes(#"[["sell","102.00","7"]]"#),
      ], context: &context)
    #expect(
      events == [
        .quotes([Self.quote("100.00", "1", "101.00", "3")]),
        .quotes([Self.quote("100.00", "1", "101.00", "2.5")]),
        .quotes([Self.quote("100.25", "0.1", "101.00", "2.5")]),
        .quotes([Self.quote("100.00", "1", "101.00", "2.5")]),
        .quotes([Self.quote("99.50", "2", "101.00", "2.5")]),
        .quotes([]),
        .quotes([]),
        .quotes([Self.quote("99.50", "2", "102.00", "7")]),
      ])
  }

  @Test("changes before the symbol's book are ignored; a new subscription's book replaces the old")
  func beforeTheBook() {
    var context = DecodingContext()
    #expect(
      provider.decode(Self.changes(#"[["buy","1","1"],["sell","2","1"]]"#), context: &context)
        == .ignored("l2_updates before the symbol's book"))
    #expect(context.books.isEmpty)
    _ = provider.decode(Self.first(#"[["buy","1","1"],["sell","2","1"]]"#), context: &context)
    // Subscribed again (the runtime notes it waiting), a book without the old levels.
    context.historyDue = ["BTCUSD"]
    #expect(
      provider.decode(Self.changes(#"[["buy","0.5","3"],["sell","0.75","3"]]"#), context: &context)
        == .quotes([Self.quote("0.5", "3", "0.75", "3")]))
    #expect(context.historyDue.isEmpty && context.books["BTCUSD"]?.bids.count == 1)
  }

  @Test("each symbol's book is its own")
  func booksPerSymbol() {
    var context = DecodingContext()
    let events = decode(
      [
        Self.first(#"[["buy","100","1"],["sell","101","1"]]"#),
        Self.first(#"[["buy","3000","1"],["sell","3001","1"]]"#, symbol: "ETHUSD"),
        Self.changes(#"[["buy","100","0"]]"#),
        Self.changes(#"[["sell","3000.5","2"]]"#, symbol: "ETHUSD"),
      ], context: &context)
    #expect(
      events == [
        .quotes([Self.quote("100", "1", "101", "1")]),
        .quotes([Self.quote("3000", "1", "3001", "1", symbol: "ETHUSD")]),
        .quotes([]),
        .quotes([Self.quote("3000", "1", "3000.5", "2", symbol: "ETHUSD")]),
      ])
  }

  @Test("a hostile huge book keeps at most LocalBook's levels a side; books for at most maximumBooks symbols")
  func bounded() {
    var context = DecodingContext()
    let bids = (0..<3000).map { #"["buy","\#(10_000 + $0)","1"]"# }
    let asks = (0..<3000).map { #"["sell","\#(30_000 - $0)","1"]"# }
    let event = provider.decode(
      Self.first("[" + (bids + asks).joined(separator: ",") + "]"), context: &context)
    #expect(event == .quotes([Self.quote("12999", "1", "27001", "1")]))
    #expect(context.books["BTCUSD"]?.bids.count == LocalBook.maximumLevels)
    #expect(context.books["BTCUSD"]?.asks.count == LocalBook.maximumLevels)
    var many = DecodingContext()
    for i in 0..<DecodingContext.maximumBooks {
      many.books["S\(i)USD"] = LocalBook()
    }
    #expect(
      provider.decode(Self.first(#"[["buy","1","1"],["sell","2","1"]]"#), context: &many)
        == .malformed("l2_updates: books for more than 4096 symbols"))
    #expect(many.books["BTCUSD"] == nil)
  }

  @Test("malformed changes are left out and described; the others apply")
  func malformedChanges() {
    var context = DecodingContext()
    _ = provider.decode(Self.first(#"[["buy","100","1"],["sell","101","1"]]"#), context: &context)
    #expect(
      provider.decode(
        Self.changes(
          #"[["buy","100.5","1"],["hold","1","1"],["buy",1,"1"],["sell","x","1"],["sell","5","-1"],[]]"#),
        context: &context)
        == .partial(
          [Self.quote("100.5", "1", "101", "1")],
          dropped: [
            #"l2_updates changes[1]: side must be "buy" or "sell", not "hold""#,
            #"l2_updates changes[2]: must be ["buy"|"sell","price","size"], strings"#,
            "l2_updates changes[3]: price must be a positive decimal string",
            "l2_updates changes[4]: size must be a decimal string, zero or more",
            #"l2_updates changes[5]: must be ["buy"|"sell","price","size"], strings"#,
          ]))
    // Nothing valid and nothing moved: malformed, the count past ten given.
    let bad = (0..<12).map { _ in "[1]" }.joined(separator: ",")
    guard case .malformed(let why) = provider.decode(Self.changes("[\(bad)]"), context: &context) else {
      Issue.record("not malformed")
      return
    }
    #expect(why.hasSuffix("; l2_updates and 2 more malformed changes"), "\(why)")
  }

  @Test(
    "trades are not printed; the fast path declines; without a connection's books a first book reads alone")
  func others() {
    var context = DecodingContext()
    let trade =
      #"{"type":"trade","symbol":"BTCUSD","event_id":1,"timestamp":1791469265458,"price":"97412.61","quantity":"0.00021","side":"buy"}"#
    #expect(provider.decode(.text(trade), context: &context) == .ignored("trade"))
    #expect(provider.decode(.text(#"{"type":"heartbeat","timestamp":1}"#), context: &context) == .keepalive)
    #expect(provider.fastDecode(Self.changes(#"[["buy","1","1"]]"#)) == nil)
    #expect(GeminiProvider().fastDecode(Self.changes(#"[["buy","1","1"]]"#)) == .ignored("l2_updates"))
    #expect(
      provider.decode(Self.first(#"[["buy","1","1"],["sell","2","1"]]"#))
        == .quotes([Self.quote("1", "1", "2", "1")]))
    #expect(
      provider.decodeThroughModel(Self.changes(#"[["buy","1","1"]]"#))
        == .ignored("l2_updates before the symbol's book"))
    // The refusal is still named from the subscription that waits.
    context.historyDue = ["NOPEUSD"]
    #expect(
      provider.decode(.text(#"{"reason":"NoValidTradingPairs","result":"error"}"#), context: &context)
        == .error(
          VenueError(
            name: "NoValidTradingPairs", message: "no valid trading pairs", fatal: false, symbol: "NOPEUSD")))
  }

  @Test func garbageNeverTraps() throws {
    var generator = SplitMix64(seed: 37)
    let seed = Array(
      #"{"type":"l2_updates","symbol":"BTCUSD","changes":[["buy","97412.58","0"],["buy","97412.55","0.07626"]]}"#
        .utf8)
    var context = DecodingContext()
    _ = provider.decode(Self.first(#"[["buy","1","1"],["sell","2","1"]]"#), context: &context)
    for _ in 0..<2000 {
      var bytes = seed
      for _ in 0..<3 {
        bytes[Int(generator.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: generator.next())
      }
      _ = provider.decode(.binary(bytes), context: &context)
    }
    var fresh = DecodingContext()
    _ = provider.decode(Self.first(#"[["buy","1","1"],["sell","97413","1"]]"#), context: &fresh)
    #expect(
      provider.decode(.binary(seed), context: &fresh)
        == .quotes([Self.quote("97412.55", "0.07626", "97413", "1")]))
  }
}
