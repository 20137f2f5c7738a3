import Testing
import Venues

@testable import Emulators
@testable import Recording
@testable import TestSupport
@testable import TickerSupport

/// Bybit's level-1 book (`orderbook.1.<symbol>`) as the emulation serves it: subscribed and
/// answered as trades are, a snapshot first, then deltas, and a snapshot again when unchanged.
@Suite("FeedServer: Bybit emulation, the level-1 book (pure)")
struct BybitBookEmulatorTests {
  static func subscribe(_ topics: [String], op: String = "subscribe", id: String = "1") -> String {
    BybitEmulatorTests.request(op, topics, id: id)
  }

  @Test(
    "book topics are answered as trades are; unknown symbols and other depths refused; both kinds side by side"
  )
  func subscriptions() throws {
    var bybit = try BybitEmulatorTests.emulator()
    #expect(
      bybit.receive(.text(Self.subscribe(["orderbook.1.BTCUSDT"], id: "7")), at: .zero)
        == [.text(BybitWire.answer(op: "subscribe", requestID: "7"))])
    #expect(bybit.subscribed == ["orderbook.1.BTCUSDT"])
    #expect(bybit.receive(.text(BybitEmulatorTests.subscribe(["BTCUSDT"])), at: .zero).count == 1)
    #expect(bybit.subscribed == ["BTCUSDT", "orderbook.1.BTCUSDT"])
    #expect(
      bybit.receive(.text(Self.subscribe(["orderbook.1.NOPEUSDT"], id: "2")), at: .zero)
        == BybitEmulatorTests.refusal(.invalidSymbol(topic: "orderbook.1.NOPEUSDT"), id: "2"))
    #expect(
      bybit.receive(.text(Self.subscribe(["orderbook.1.BTCUSDT"], id: "3")), at: .zero)
        == BybitEmulatorTests.refusal(.alreadySubscribed(topic: "orderbook.1.BTCUSDT"), id: "3"))
    #expect(
      bybit.receive(.text(Self.subscribe(["orderbook.50.BTCUSDT"], id: "4")), at: .zero)
        == BybitEmulatorTests.refusal(.handlerNotFound(topic: "orderbook.50.BTCUSDT"), id: "4"))
    #expect(
      bybit.receive(.text(Self.subscribe(["orderbook.1.BTCUSDT"], op: "unsubscribe", id: "5")), at: .zero)
        == [.text(BybitWire.answer(op: "unsubscribe", requestID: "5"))])
    #expect(bybit.subscribed == ["BTCUSDT"])
    // What the synthetic stream asks of a book subscription.
    #expect(bybit.walkStart(for: "orderbook.1.XLMUSDT") == .dollars)
    #expect(bybit.walkStart(for: "orderbook.1.") == nil && bybit.walkStart(for: "orderbook.1.x") == nil)
    #expect(bybit.market(of: "orderbook.1.ETHBTC") == Market(base: "ETH", quote: "BTC"))
    #expect(bybit.market(of: "ETHBTC") == nil)
  }

  @Test(
    "the book's messages: a snapshot, deltas (a side unchanged empty, a moved top deleted), a snapshot when unchanged"
  )
  func synthetic() throws {
    var bybit = try BybitEmulatorTests.emulator(acceptAnySymbol: true)
    _ = bybit.receive(.text(Self.subscribe(["orderbook.1.BTCUSDT"])), at: .zero)
    #expect(bybit.lastPrices["orderbook.1.BTCUSDT"]?.price == "79409.4")
    let key = "orderbook.1.BTCUSDT"
    let trades = [
      SyntheticTrade(symbol: key, cents: 7_941_000, time: 1_791_370_956_000, volume: 63, up: true),
      SyntheticTrade(symbol: key, cents: 7_941_000, time: 1_791_370_956_001, volume: 1500, up: true),
      SyntheticTrade(symbol: key, cents: 7_950_000, time: 1_791_370_956_002, volume: 1500, up: true),
      SyntheticTrade(symbol: key, cents: 7_950_000, time: 1_791_370_956_002, volume: 1500, up: true),
      SyntheticTrade(symbol: "BTCUSDT", cents: 7_950_000, time: 1_791_370_956_003, volume: 1, up: true),
    ]
    func message(_ type: String, _ b: String, _ a: String, u: Int, seq: Int, time: Int64) -> EmulatorAction {
      .text(
        #"{"topic":"orderbook.1.BTCUSDT","ts":\#(time + 1),"type":"\#(type)","data":{"s":"BTCUSDT","b":\#(b),"a":\#(a),"u":\#(u),"seq":\#(seq)},"cts":\#(time)}"#
      )
    }
    #expect(
      bybit.synthetic(trades) == [
        message(
          "snapshot", #"[["79408.42","0.00063"]]"#, #"[["79411.58","0.01159"]]"#, u: 30_512_001,
          seq: 115_032_991_038, time: 1_791_370_956_000),
        message(
          "delta", #"[["79408.42","0.015"]]"#, #"[["79411.58","0.01219"]]"#, u: 30_512_002,
          seq: 115_032_991_039, time: 1_791_370_956_001),
        message(
          "delta", #"[["79408.42","0"],["79498.41","0.015"]]"#, #"[["79411.58","0"],["79501.59","0.0122"]]"#,
          u: 30_512_003, seq: 115_032_991_040, time: 1_791_370_956_002),
        message(
          "snapshot", #"[["79498.41","0.015"]]"#, #"[["79501.59","0.0122"]]"#, u: 30_512_004,
          seq: 115_032_991_041, time: 1_791_370_956_002),
      ])
    // Subscribed again: a snapshot first again.
    _ = bybit.receive(.text(Self.subscribe(["orderbook.1.BTCUSDT"], op: "unsubscribe")), at: .zero)
    _ = bybit.receive(.text(Self.subscribe(["orderbook.1.BTCUSDT"])), at: .zero)
    guard case .text(let text)? = bybit.synthetic([trades[0]]).first else {
      Issue.record("no book message")
      return
    }
    #expect(text.contains(#""type":"snapshot""#))
  }

  @Test("the walk's books decode through the provider, one connection's context: bid < ask every time")
  func walk() throws {
    var bybit = try BybitEmulatorTests.emulator(acceptAnySymbol: true)
    _ = bybit.receive(.text(Self.subscribe(["orderbook.1.BTCUSDT", "orderbook.1.XLMUSDT"])), at: .zero)
    let provider = try #require(BybitProvider().topOfBook)
    var context = DecodingContext()
    var walk = SyntheticTrades(seed: 9, start: bybit.lastPrices)
    // XLM never traded in the script: it starts where the venue's walk would.
    walk.admit("orderbook.1.XLMUSDT", from: try #require(bybit.walkStart(for: "orderbook.1.XLMUSDT")))
    var quotes: [Quote] = []
    var messages = 0
    for _ in 0..<30 {
      for action in bybit.synthetic(walk.nextTrades(symbols: bybit.subscribed, elapsedMilliseconds: 150)) {
        guard case .text(let text) = action else {
          Issue.record("\(action)")
          continue
        }
        messages += 1
        let event = provider.decode(.text(text), context: &context)
        #expect(event.quotes.count == 1, "\(event)")
        quotes += event.quotes
      }
    }
    #expect(messages >= 30 && quotes.count == messages)
    #expect(quotes.allSatisfy { $0.isTopOfBook && $0.bid < $0.ask!.price })
    #expect(Set(quotes.map(\.symbol)) == ["BTCUSDT", "XLMUSDT"])
    // The book stays one level a side: each moved top was deleted.
    #expect(context.books.values.allSatisfy { $0.bids.count == 1 && $0.asks.count == 1 })
  }
}
