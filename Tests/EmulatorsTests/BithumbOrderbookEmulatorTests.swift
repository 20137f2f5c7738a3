import Testing
import Venues

@testable import Emulators
@testable import Recording
@testable import TestSupport
@testable import WebSocketWire

/// Bithumb's `orderbook` type as the emulator serves it: books around each trade of a subscribed
/// code that the provider reads as bid < ask.
@Suite("FeedServer: Bithumb orderbook emulation (pure)")
struct BithumbOrderbookEmulatorTests {
  static func request(_ codes: [String], extra: String = "") -> String {
    let list = codes.map { "\"\($0)\"" }.joined(separator: ",")
    return #"[{"ticket":"t"},{"type":"orderbook","codes":[\#(list)]\#(extra)},{"format":"DEFAULT"}]"#
  }

  static let book = BithumbProvider().topOfBook!

  static func decoded(_ action: EmulatorAction) throws -> (quote: Quote, streamType: String) {
    guard case .binary(let text) = action else { throw TestFailure("not a binary frame: \(action)") }
    let value = try VenueTest.json(text)
    let quotes = book.decode(.binary(Array(text.utf8))).quotes
    guard quotes.count == 1, quotes[0].isTopOfBook else { throw TestFailure("not a book: \(text)") }
    return (quotes[0], value["stream_type"]?.stringValue ?? "?")
  }

  @Test("a book request is taken without an answer; each scripted trade brings the book around it")
  func scriptedTradesBringBooks() throws {
    var bithumb = BithumbEmulator(script: BithumbEmulatorTests.twoCodes, rules: BithumbRules())
    #expect(bithumb.receive(.text(Self.request(["KRW-ETH"])), at: .zero).isEmpty)
    #expect(bithumb.subscribed == ["KRW-ETH"] && bithumb.isReady(awaiting: 1))
    let actions = BithumbEmulatorTests.twoCodes.steps.flatMap { bithumb.outgoing($0, at: VenueTest.at(1)) }
    let books = try actions.map(Self.decoded)
    #expect(books.map(\.quote.symbol) == ["KRW-ETH", "KRW-ETH", "KRW-ETH"])
    #expect(books.map(\.streamType) == ["SNAPSHOT", "REALTIME", "REALTIME"])
    #expect(books.map(\.quote.bid.text) == ["4.99", "5.99", "6.99"])
    #expect(books.map { $0.quote.ask?.price.text } == ["5.01", "6.01", "7.01"])
    #expect(books.map { $0.quote.bidSize?.text } == ["0.5", "0.5", "0.5"])
    // isOnlyRealtime: no snapshot.
    _ = bithumb.receive(
      .text(Self.request(["KRW-BTC"], extra: #","isOnlyRealtime":true"#)), at: VenueTest.at(2))
    let next = try bithumb.outgoing(BithumbEmulatorTests.twoCodes.steps[0], at: VenueTest.at(3)).map(
      Self.decoded)
    #expect(next.map(\.streamType) == ["REALTIME"])
  }

  @Test("the synthetic stream: a book per step of each subscribed code, bid below ask")
  func synthetic() throws {
    var bithumb = BithumbEmulator(script: try VenueTest.fixture("bithumb"), rules: BithumbRules())
    _ = bithumb.receive(.text(Self.request(["KRW-BTC"])), at: .zero)
    #expect(bithumb.walkStart(for: "KRW-BTC") == .won)
    var walk = SyntheticTrades(seed: 7, start: bithumb.lastPrices)
    var seen = 0
    for _ in 0..<30 {
      let trades = walk.nextTrades(symbols: bithumb.subscribed, elapsedMilliseconds: 150)
      for (trade, action) in zip(trades, bithumb.synthetic(trades)) {
        let (quote, streamType) = try Self.decoded(action)
        #expect(quote.symbol == "KRW-BTC" && quote.time == trade.time + 30)
        #expect(quote.bid < quote.ask!.price)
        #expect(streamType == (seen == 0 ? "SNAPSHOT" : "REALTIME"))
        seen += 1
      }
    }
    #expect(seen >= 30)
  }
}
