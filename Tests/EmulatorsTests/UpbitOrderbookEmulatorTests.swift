import Testing
import Venues

@testable import Emulators
@testable import Recording
@testable import TestSupport
@testable import WebSocketWire

/// Upbit's `orderbook` type as the emulator serves it: books around each ticker of a subscribed
/// code, in the request's format, that the provider reads as bid < ask.
@Suite("FeedServer: Upbit orderbook emulation (pure)")
struct UpbitOrderbookEmulatorTests {
  static func request(_ codes: [String], format: String = "SIMPLE", type: String = "orderbook") -> String {
    let list = codes.map { "\"\($0)\"" }.joined(separator: ",")
    return #"[{"ticket":"t"},{"type":"\#(type)","codes":[\#(list)]},{"format":"\#(format)"}]"#
  }

  static let book = UpbitProvider().topOfBook!

  /// The one top-of-book quote of a binary frame, and its stream type.
  static func decoded(_ action: EmulatorAction) throws -> (quote: Quote, streamType: String) {
    guard case .binary(let text) = action else { throw TestFailure("not a binary frame: \(action)") }
    let value = try VenueTest.json(text)
    let quotes = book.decode(.binary(Array(text.utf8))).quotes
    guard quotes.count == 1, quotes[0].isTopOfBook else { throw TestFailure("not a book: \(text)") }
    return (quotes[0], value["st"]?.stringValue ?? value["stream_type"]?.stringValue ?? "?")
  }

  @Test("a book request is taken without an answer; each scripted ticker brings the book around it")
  func scriptedTickersBringBooks() throws {
    var upbit = UpbitEmulator(script: UpbitEmulatorTests.twoCodes, rules: UpbitRules())
    #expect(upbit.receive(.text(Self.request(["KRW-BTC.15"])), at: .zero).isEmpty)
    #expect(upbit.subscribed == ["KRW-BTC"] && upbit.isReady(awaiting: 1))
    let actions = UpbitEmulatorTests.twoCodes.steps.flatMap { upbit.outgoing($0, at: VenueTest.at(1)) }
    let books = try actions.map(Self.decoded)
    // Books of KRW-BTC only, no tickers: its three tickers at 100, 101 and 102 won.
    #expect(books.map(\.quote.symbol) == ["KRW-BTC", "KRW-BTC", "KRW-BTC"])
    #expect(books.map(\.streamType) == ["SNAPSHOT", "REALTIME", "REALTIME"])
    #expect(books.allSatisfy { $0.quote.bid < $0.quote.ask!.price })
    #expect(books.map(\.quote.time) == [31, 33, 35])
  }

  @Test("books follow the request's format, beside tickers of the same codes")
  func formatsAndBothTypes() throws {
    var upbit = UpbitEmulator(script: UpbitEmulatorTests.twoCodes, rules: UpbitRules())
    let both =
      #"[{"ticket":"t"},{"type":"ticker","codes":["KRW-ETH"]},{"type":"orderbook","codes":["KRW-ETH"]},"#
      + #"{"format":"DEFAULT"}]"#
    _ = upbit.receive(.text(both), at: .zero)
    #expect(upbit.subscribed == ["KRW-ETH"])
    let actions = upbit.outgoing(UpbitEmulatorTests.twoCodes.steps[1], at: VenueTest.at(1))
    #expect(actions.count == 2)
    guard case .binary(let ticker)? = actions.first, case .binary(let book)? = actions.last else {
      Issue.record("\(actions)")
      return
    }
    #expect(try VenueTest.json(ticker)["type"]?.stringValue == "ticker")
    let value = try VenueTest.json(book)
    #expect(value["type"]?.stringValue == "orderbook" && value["orderbook_units"]?.arrayValue?.count == 15)
    #expect(try Self.decoded(actions[1]).quote.bid.text == "4.99")
  }

  @Test("the synthetic stream: a book per step of each subscribed code, bid below ask, SIMPLE keys")
  func synthetic() throws {
    var upbit = UpbitEmulator(script: try VenueTest.fixture("upbit"), rules: UpbitRules())
    _ = upbit.receive(.text(Self.request(["KRW-BTC", "KRW-XRP"])), at: .zero)
    #expect(upbit.walkStart(for: "KRW-XRP") == .won)
    var walk = SyntheticTrades(seed: 5, start: upbit.lastPrices)
    var seen: [String: Int] = [:]
    for _ in 0..<40 {
      let trades = walk.nextTrades(symbols: upbit.subscribed, elapsedMilliseconds: 150)
      for (trade, action) in zip(trades, upbit.synthetic(trades)) {
        let (quote, streamType) = try Self.decoded(action)
        #expect(quote.symbol == trade.symbol && quote.time == trade.time + 30)
        #expect(quote.bid < quote.ask!.price && quote.bidSize != nil && quote.ask?.size != nil)
        #expect(streamType == (seen[trade.symbol] == nil ? "SNAPSHOT" : "REALTIME"))
        seen[trade.symbol, default: 0] += 1
      }
    }
    #expect(seen["KRW-BTC", default: 0] > 0)
  }

  @Test("sizes and prices are written as Java writes doubles")
  func javaNumbers() {
    #expect(UpbitOrderbookWire.size(49) == "4.9E-4" && UpbitOrderbookWire.size(5) == "5.0E-5")
    #expect(UpbitOrderbookWire.size(150) == "0.0015" && UpbitOrderbookWire.size(100_000) == "1.0")
    #expect(UpbitOrderbookWire.price(cents: 14_325_000_000) == "1.4325E8")
    #expect(UpbitOrderbookWire.price(cents: 512_300_000) == "5123000.0")
    #expect(UpbitOrderbookWire.price(cents: 143_250) == "1432.5")
  }
}
