import Testing

@testable import TestSupport
@testable import Venues
@testable import WebSocketWire

/// Bybit's top of book (`--bid-ask`): `orderbook.1.<symbol>` subscribed one topic a request, its
/// snapshots and deltas kept per symbol in the connection's `DecodingContext`, the best bid and
/// ask exactly as sent.
@Suite(.ownThread) struct BybitOrderBookTests {
  let provider = BybitProvider(stream: .topOfBook)

  /// An `orderbook.1` message of `symbol`, as spot writes it.
  static func book(
    _ type: String, b: String, a: String, symbol: String = "BTCUSDT", ts: Int64 = 1_733_450_000_000,
    u: Int = 123
  ) -> WebSocketMessage {
    .text(
      #"{"topic":"orderbook.1.\#(symbol)","ts":\#(ts),"type":"\#(type)","data":{"s":"\#(symbol)","b":\#(b),"a":\#(a),"u":\#(u),"seq":456},"cts":\#(ts - 2)}"#
    )
  }

  static func quote(
    _ bid: String, _ bidSize: String, _ ask: String, _ askSize: String, symbol: String = "BTCUSDT",
    time: Int64 = 1_733_450_000_000
  ) -> Quote {
    Quote(
      symbol: symbol, bid: Price(bid)!, bidSize: Price(bidSize)!, ask: Price(ask)!, askSize: Price(askSize)!,
      time: time)
  }

  /// Decodes `messages` in order on one connection's context.
  func decode(_ messages: [WebSocketMessage], context: inout DecodingContext) -> [ProviderEvent] {
    messages.map { provider.decode($0, context: &context) }
  }

  @Test("the book's topic, one a request, numbered; the trade provider's unchanged")
  func subscriptions() throws {
    var ids = RequestIDs(prefix: "unused")
    #expect(
      provider.subscriptionMessages(from: [], to: ["BTCUSDT", "ETHUSDT"], ids: &ids) == [
        .text(#"{"req_id":"1","op":"subscribe","args":["orderbook.1.BTCUSDT"]}"#),
        .text(#"{"req_id":"2","op":"subscribe","args":["orderbook.1.ETHUSDT"]}"#),
      ])
    #expect(
      provider.subscriptionMessages(from: ["BTCUSDT", "ETHUSDT"], to: ["ETHUSDT"], ids: &ids) == [
        .text(#"{"req_id":"3","op":"unsubscribe","args":["orderbook.1.BTCUSDT"]}"#)
      ])
    let book = try #require(BybitProvider().topOfBook)
    #expect(book.stream == .topOfBook && book.usesDecodingContext)
    #expect(BybitProvider().stream == .trades && !BybitProvider().usesDecodingContext)
    // Scaling keeps the stream.
    #expect(book.scaled(by: 0.5).stream == .topOfBook)
    var more = RequestIDs(prefix: "unused")
    #expect(
      book.subscriptionMessages(from: [], to: ["SOLUSDT"], ids: &more)
        == [.text(#"{"req_id":"1","op":"subscribe","args":["orderbook.1.SOLUSDT"]}"#)])
  }

  @Test("a snapshot: the best bid and ask, their sizes, the symbol and ts, every digit as sent")
  func snapshot() {
    var context = DecodingContext()
    let events = decode(
      [
        Self.book(
          "snapshot", b: #"[["97250.00","1.2"],["97249.50","3"]]"#,
          a: #"[["97250.01","0.400"],["97251","2"]]"#)
      ], context: &context)
    #expect(events == [.quotes([Self.quote("97250.00", "1.2", "97250.01", "0.400")])])
    let quote = events[0].quotes[0]
    #expect(quote.bid.text == "97250.00" && quote.ask?.price.text == "97250.01")
    #expect(quote.bidSize?.text == "1.2" && quote.ask?.size?.text == "0.400")
    #expect(context.books["BTCUSDT"]?.bids.count == 2 && context.books["BTCUSDT"]?.asks.count == 2)
  }

  @Test("one-sided deltas: an empty side is unchanged; a size changes, a better level takes the top")
  func oneSidedDeltas() {
    var context = DecodingContext()
    let events = decode(
      [
        Self.book("snapshot", b: #"[["100.0","1"]]"#, a: #"[["101.0","2"]]"#),
        Self.book("delta", b: "[]", a: #"[["101.0","2.5"]]"#, ts: 1_733_450_000_010),
        Self.book("delta", b: #"[["100.5","0.1"]]"#, a: "[]", ts: 1_733_450_000_020),
      ], context: &context)
    #expect(
      events == [
        .quotes([Self.quote("100.0", "1", "101.0", "2")]),
        .quotes([Self.quote("100.0", "1", "101.0", "2.5", time: 1_733_450_000_010)]),
        .quotes([Self.quote("100.5", "0.1", "101.0", "2.5", time: 1_733_450_000_020)]),
      ])
  }

  @Test("a \"0\" deletes the top: the next level becomes it; with none, nothing prints until one comes")
  func deletes() {
    var context = DecodingContext()
    let events = decode(
      [
        Self.book("snapshot", b: #"[["100.0","1"],["99.5","4"]]"#, a: #"[["101.0","2"]]"#),
        // The top bid deleted, another level there.
        Self.book("delta", b: #"[["100.0","0"]]"#, a: "[]", ts: 1_733_450_000_001),
        // The only ask deleted: a side empty, nothing to print.
        Self.book("delta", b: "[]", a: #"[["101.0","0"]]"#, ts: 1_733_450_000_002),
        // A delete of a level that is not there changes nothing (the side stays empty).
        Self.book("delta", b: #"[["98.0","0"]]"#, a: #"[["105.0","0"]]"#, ts: 1_733_450_000_003),
        Self.book("delta", b: "[]", a: #"[["101.5","0.7"]]"#, ts: 1_733_450_000_004),
        // Not there, with both sides full: the same top again.
        Self.book("delta", b: #"[["42","0"]]"#, a: "[]", ts: 1_733_450_000_005),
      ], context: &context)
    #expect(
      events == [
        .quotes([Self.quote("100.0", "1", "101.0", "2")]),
        .quotes([Self.quote("99.5", "4", "101.0", "2", time: 1_733_450_000_001)]),
        .quotes([]),
        .quotes([]),
        .quotes([Self.quote("99.5", "4", "101.5", "0.7", time: 1_733_450_000_004)]),
        .quotes([Self.quote("99.5", "4", "101.5", "0.7", time: 1_733_450_000_005)]),
      ])
  }

  @Test("a delta before any snapshot is ignored and keeps no book; the snapshot then starts it")
  func deltaBeforeSnapshot() {
    var context = DecodingContext()
    #expect(
      provider.decode(Self.book("delta", b: #"[["1","1"]]"#, a: #"[["2","1"]]"#), context: &context)
        == .ignored("orderbook delta before its snapshot"))
    #expect(context.books.isEmpty)
    #expect(
      provider.decode(Self.book("snapshot", b: #"[["1","1"]]"#, a: #"[["2","1"]]"#), context: &context)
        == .quotes([Self.quote("1", "1", "2", "1")]))
  }

  @Test("every snapshot replaces the book: the one re-sent unchanged, and u = 1 after a restart")
  func snapshotsReplace() {
    var context = DecodingContext()
    let events = decode(
      [
        Self.book("snapshot", b: #"[["100","1"]]"#, a: #"[["101","1"]]"#),
        Self.book("delta", b: #"[["100.5","2"]]"#, a: "[]"),
        Self.book("snapshot", b: #"[["100.5","2"]]"#, a: #"[["101","1"]]"#),
        // The service restarted: a lower book, nothing of the old one left.
        Self.book("snapshot", b: #"[["90","3"]]"#, a: #"[["91","4"]]"#, u: 1),
        Self.book("delta", b: #"[["90","0"]]"#, a: "[]", u: 2),
      ], context: &context)
    #expect(
      events.map(\.quotes) == [
        [Self.quote("100", "1", "101", "1")], [Self.quote("100.5", "2", "101", "1")],
        [Self.quote("100.5", "2", "101", "1")], [Self.quote("90", "3", "91", "4")], [],
      ])
    #expect(context.books["BTCUSDT"]?.bids.isEmpty == true)
  }

  @Test("each symbol's book is its own")
  func booksPerSymbol() {
    var context = DecodingContext()
    let events = decode(
      [
        Self.book("snapshot", b: #"[["100","1"]]"#, a: #"[["101","1"]]"#),
        Self.book("delta", b: #"[["3000","1"]]"#, a: #"[["3001","1"]]"#, symbol: "ETHUSDT"),
        Self.book("snapshot", b: #"[["3000","1"]]"#, a: #"[["3001","1"]]"#, symbol: "ETHUSDT"),
        Self.book("delta", b: #"[["100","0"]]"#, a: "[]"),
        Self.book("delta", b: "[]", a: #"[["3000.5","2"]]"#, symbol: "ETHUSDT"),
      ], context: &context)
    #expect(
      events == [
        .quotes([Self.quote("100", "1", "101", "1")]),
        .ignored("orderbook delta before its snapshot"),
        .quotes([Self.quote("3000", "1", "3001", "1", symbol: "ETHUSDT")]),
        .quotes([]),
        .quotes([Self.quote("3000", "1", "3000.5", "2", symbol: "ETHUSDT")]),
      ])
    #expect(context.books["BTCUSDT"]?.asks.first?.price == Price("101"))
  }

  @Test("a hostile huge snapshot keeps at most LocalBook's levels a side, the best ones")
  func hugeSnapshot() {
    var context = DecodingContext()
    // 5000 levels a side, worst first (every level inserted at the top).
    let bids = (0..<5000).map { #"["\#(10_000 + $0)","1"]"# }.joined(separator: ",")
    let asks = (0..<5000).map { #"["\#(30_000 - $0)","1"]"# }.joined(separator: ",")
    let event = provider.decode(Self.book("snapshot", b: "[\(bids)]", a: "[\(asks)]"), context: &context)
    #expect(event == .quotes([Self.quote("14999", "1", "25001", "1")]))
    #expect(context.books["BTCUSDT"]?.bids.count == LocalBook.maximumLevels)
    #expect(context.books["BTCUSDT"]?.asks.count == LocalBook.maximumLevels)
  }

  @Test("books for at most DecodingContext.maximumBooks symbols; the one more is refused")
  func boundedBooks() {
    var context = DecodingContext()
    for i in 0..<DecodingContext.maximumBooks {
      _ = provider.decode(
        Self.book("snapshot", b: #"[["1","1"]]"#, a: #"[["2","1"]]"#, symbol: "S\(i)"), context: &context)
    }
    #expect(context.books.count == DecodingContext.maximumBooks)
    #expect(
      provider.decode(
        Self.book("snapshot", b: #"[["1","1"]]"#, a: #"[["2","1"]]"#, symbol: "MORE"), context: &context)
        == .malformed("orderbook: books for more than 4096 symbols"))
    #expect(context.books.count == DecodingContext.maximumBooks)
  }

  @Test(
    "malformed book messages are reported and change nothing",
    arguments: [
      (
        #"{"topic":"orderbook.1.BTCUSDT","ts":1,"data":{"b":[],"a":[]}}"#,
        #"orderbook: "type" must be "snapshot" or "delta""#
      ),
      (#"{"topic":"orderbook.1.BTCUSDT","ts":1,"type":"delta"}"#, #"orderbook: "data" must be an object"#),
      (
        #"{"topic":"orderbook.1.BTCUSDT","ts":1,"type":"delta","data":[]}"#,
        #"orderbook: "data" must be an object"#
      ),
      (
        #"{"topic":"orderbook.1.BTCUSDT","ts":1,"type":"delta","data":{"b":{},"a":[]}}"#,
        #"orderbook: "b" must be an array"#
      ),
      (
        #"{"topic":"orderbook.1.BTCUSDT","ts":1,"type":"delta","data":{"b":[],"a":[["1"]]}}"#,
        #"orderbook: "a"[0] must be ["price","size"], positive decimal strings"#
      ),
      (
        #"{"topic":"orderbook.1.BTCUSDT","ts":1,"type":"delta","data":{"b":[[1,"2"]],"a":[]}}"#,
        #"orderbook: "b"[0] must be ["price","size"], positive decimal strings"#
      ),
      (
        #"{"topic":"orderbook.1.BTCUSDT","ts":1,"type":"delta","data":{"b":[["1","-2"]],"a":[]}}"#,
        #"orderbook: "b"[0] must be ["price","size"], positive decimal strings"#
      ),
      (
        #"{"topic":"orderbook.1.BTCUSDT","ts":1,"type":"delta","data":{"b":[["x","2"]],"a":[]}}"#,
        #"orderbook: "b"[0] must be ["price","size"], positive decimal strings"#
      ),
      (
        #"{"topic":"orderbook.1.BTCUSDT","ts":"soon","type":"delta","data":{"b":[],"a":[]}}"#,
        #"orderbook: "ts" must be epoch milliseconds"#
      ),
      (
        #"{"topic":"orderbook.1.BTCUSDT","ts":1,"type":"delta","data":{"s":5,"b":[],"a":[]}}"#,
        #"orderbook: "s" must be a non-empty string"#
      ),
      (#"{"topic":"orderbook.1.","ts":1,"type":"delta","data":{"b":[],"a":[]}}"#, #"orderbook: no symbol"#),
    ])
  func malformed(text: String, reason: String) {
    var context = DecodingContext()
    _ = provider.decode(Self.book("snapshot", b: #"[["1","1"]]"#, a: #"[["2","1"]]"#), context: &context)
    let before = context
    #expect(provider.decode(.text(text), context: &context) == .malformed(reason))
    #expect(context == before)
  }

  @Test("without a connection's books: a snapshot reads alone, a delta is ignored; other depths ignored")
  func withoutContext() {
    let trades = BybitProvider()
    #expect(
      trades.decode(Self.book("snapshot", b: #"[["1","1"]]"#, a: #"[["2","1"]]"#))
        == .quotes([Self.quote("1", "1", "2", "1")]))
    #expect(
      trades.decode(Self.book("delta", b: #"[["1","1"]]"#, a: "[]"))
        == .ignored("orderbook delta before its snapshot"))
    #expect(
      trades.decode(.text(#"{"topic":"orderbook.50.BTCUSDT","ts":1,"type":"snapshot","data":{}}"#))
        == .ignored("topic orderbook"))
  }

  @Test("a refused book topic names its symbol, refused alone")
  func refusal() {
    #expect(
      provider.decode(
        .text(
          #"{"success":false,"ret_msg":"Invalid symbol :[orderbook.1.NOPEUSDT]","conn_id":"c","req_id":"2","op":"subscribe"}"#
        ))
        == .error(
          VenueError(
            message: "Invalid symbol :[orderbook.1.NOPEUSDT]", requestID: 2, fatal: false, symbol: "NOPEUSDT")
        ))
  }

  @Test func garbageNeverTraps() {
    var generator = SplitMix64(seed: 31)
    let seed = Array(
      #"{"topic":"orderbook.1.BTCUSDT","ts":1733450000000,"type":"delta","data":{"s":"BTCUSDT","b":[["97250.00","1.2"]],"a":[["97250.01","0"]],"u":123,"seq":456}}"#
        .utf8)
    var context = DecodingContext()
    _ = provider.decode(Self.book("snapshot", b: #"[["1","1"]]"#, a: #"[["2","1"]]"#), context: &context)
    for _ in 0..<2000 {
      var bytes = seed
      for _ in 0..<3 {
        bytes[Int(generator.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: generator.next())
      }
      _ = provider.decode(.binary(bytes), context: &context)
    }
    var fresh = DecodingContext()
    _ = provider.decode(Self.book("snapshot", b: #"[["1","1"]]"#, a: #"[["2","1"]]"#), context: &fresh)
    #expect(provider.decode(.binary(seed), context: &fresh).quotes.count == 1)
  }
}
