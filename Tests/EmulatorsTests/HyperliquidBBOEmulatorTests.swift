import FeedRuntime
import Testing
import Venues
import WebSocketClient

@testable import Emulators
@testable import JSON
@testable import Recording
@testable import TestSupport
@testable import WebSocketWire

/// Hyperliquid's `bbo` subscription as the emulator serves it, and its first quotes through the
/// feed runtime (no back-fill: nothing taken as history).
@Suite("FeedServer: Hyperliquid bbo emulation (pure)")
struct HyperliquidBBOEmulatorTests {
  static func request(_ method: String, _ coin: String) -> String {
    #"{"method":"\#(method)","subscription":{"type":"bbo","coin":"\#(coin)"}}"#
  }

  static let book = HyperliquidProvider().topOfBook!

  /// The top-of-book quote of a text frame.
  static func quote(_ action: EmulatorAction) throws -> Quote {
    guard case .text(let text) = action else { throw TestFailure("not a text frame: \(action)") }
    let quotes = book.decode(.text(text)).quotes
    guard quotes.count == 1, quotes[0].isTopOfBook else { throw TestFailure("not a bbo: \(text)") }
    return quotes[0]
  }

  @Test("bbo is answered like trades, without a back-fill; each block of the coin brings its bbo")
  func subscribeAndBlocks() throws {
    var hyperliquid = try HyperliquidEmulatorTests.emulator()
    let fill = HyperliquidEmulatorTests.fill
    // Trades went by before the subscription: a trades subscription would get them back.
    _ = hyperliquid.outgoing(
      HyperliquidEmulatorTests.trades(fill("BTC", "97000.0", 1)), at: VenueTest.at(0.5))
    #expect(
      hyperliquid.receive(.text(Self.request("subscribe", "BTC")), at: VenueTest.at(1)) == [
        .text(
          #"{"channel":"subscriptionResponse","data":{"method":"subscribe","subscription":{"type":"bbo","coin":"BTC"}}}"#
        )
      ])
    #expect(hyperliquid.subscribed == ["BTC"] && hyperliquid.isReady(awaiting: 1))
    #expect(
      hyperliquid.receive(.text(Self.request("subscribe", "BTC")), at: VenueTest.at(1.1))
        == HyperliquidEmulatorTests.refusal(.alreadySubscribed(subscription: #"{"type":"bbo","coin":"BTC"}"#))
    )
    #expect(
      hyperliquid.receive(.text(Self.request("subscribe", "NOPE")), at: VenueTest.at(1.2))
        == HyperliquidEmulatorTests.refusal(.invalid(subscription: #"{"type":"bbo","coin":"NOPE"}"#)))
    // A block of two fills: one bbo, around the last, and no trades (not subscribed).
    let block = hyperliquid.outgoing(
      HyperliquidEmulatorTests.trades(fill("BTC", "97100.0", 2), fill("BTC", "97200.0", 3)),
      at: VenueTest.at(2))
    #expect(block.count == 1)
    let quote = try Self.quote(block[0])
    #expect(quote.symbol == "BTC" && quote.time == 3)
    #expect(
      quote.bid.text == "97198.06" && quote.ask?.price.text == "97201.94" && quote.bidSize?.text == "0.1")
    #expect(
      hyperliquid.outgoing(HyperliquidEmulatorTests.trades(fill("ETH", "3000.0", 4)), at: VenueTest.at(3))
        .isEmpty)
    #expect(
      hyperliquid.receive(.text(Self.request("unsubscribe", "BTC")), at: VenueTest.at(4)) == [
        .text(
          #"{"channel":"subscriptionResponse","data":{"method":"unsubscribe","subscription":{"type":"bbo","coin":"BTC"}}}"#
        )
      ])
    #expect(hyperliquid.subscribed.isEmpty)
  }

  @Test("the synthetic stream: a bbo per trade of a subscribed coin, bid below ask")
  func synthetic() throws {
    var hyperliquid = try HyperliquidEmulatorTests.emulator(acceptAnySymbol: true)
    _ = hyperliquid.receive(.text(Self.request("subscribe", "BTC")), at: .zero)
    _ = hyperliquid.receive(.text(Self.request("subscribe", "XLM")), at: .zero)
    #expect(hyperliquid.walkStart(for: "XLM") == .dollars)
    var walk = SyntheticTrades(seed: 11, start: hyperliquid.lastPrices)
    var seen = 0
    for _ in 0..<30 {
      let trades = walk.nextTrades(symbols: hyperliquid.subscribed, elapsedMilliseconds: 150)
      for (trade, action) in zip(trades, hyperliquid.synthetic(trades)) {
        let quote = try Self.quote(action)
        #expect(quote.symbol == trade.symbol && quote.time == trade.time)
        #expect(quote.bid < quote.ask!.price)
        seen += 1
      }
    }
    #expect(seen >= 30)
  }

  @Test("through the feed runtime: the first bbo quotes print, none is taken as a back-fill")
  func runtimeTakesNoHistory() throws {
    var machine = FeedMachine<TestInstant>(provider: Self.book, symbols: ["BTC"], mode: .everyTrade)
    #expect(machine.opened(at: .zero) == [.text(Self.request("subscribe", "BTC"))])
    let answer =
      #"{"channel":"subscriptionResponse","data":{"method":"subscribe","subscription":{"type":"bbo","coin":"BTC"}}}"#
    let bbo = { (bid: String, ask: String, time: Int) in
      #"{"channel":"bbo","data":{"coin":"BTC","time":\#(time),"bbo":[{"px":"\#(bid)","sz":"1","n":1},{"px":"\#(ask)","sz":"2","n":1}]}}"#
    }
    let events = [answer, bbo("97250.0", "97251.0", 1), bbo("97249.0", "97251.0", 2)].map {
      SessionEvent.message(.text($0))
    }
    let published = machine.handle(events, at: .at(1)).actions.flatMap { action -> [String] in
      guard case .publish(let quotes) = action else { return [] }
      return quotes.map { "\($0.bid.text)/\($0.ask?.price.text ?? "-")" }
    }
    #expect(published == ["97250.0/97251.0", "97249.0/97251.0"])
  }
}
