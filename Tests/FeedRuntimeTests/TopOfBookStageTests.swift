import TestSupport
import Testing

@testable import FeedRuntime
@testable import Venues

/// The price stage and the alerts on top-of-book quotes: dedupe and debounce take the bid and
/// the ask as one pair; alerts judge the side they name.
@Suite struct TopOfBookStageTests {
  typealias Stage = PriceStage<TestInstant>

  func book(_ symbol: String, _ bid: String, _ ask: String, _ time: Int64, size: String = "1") -> Quote {
    Quote(
      symbol: symbol, bid: Price(bid)!, bidSize: Price(size), ask: Price(ask)!, askSize: Price("2"),
      time: time)
  }

  @Test("dedupe drops an update that leaves both prices as they were, and passes a change of either")
  func dedupeOnThePair() {
    var stage = Stage(mode: .distinct)
    let first = book("A", "10", "11", 1)
    let sizeOnly = book("A", "10", "11", 2, size: "5")
    let askMoved = book("A", "10", "11.5", 3)
    let bidMoved = book("A", "10.5", "11.5", 4)
    let sameSpelledOtherwise = book("A", "10.50", "11.5", 5)
    #expect(
      stage.receive([first, sizeOnly, askMoved, bidMoved, sameSpelledOtherwise], at: .ms(0)) == [
        first, askMoved, bidMoved,
      ])
  }

  @Test("the debounce holds the latest pair and releases it once")
  func debounceHoldsThePair() {
    var stage = Stage(mode: .debounced(interval: .milliseconds(500), maxWait: .milliseconds(500)))
    #expect(stage.receive([book("A", "10", "11", 1), book("A", "10", "12", 2)], at: .ms(0)).isEmpty)
    #expect(stage.tick(at: .ms(500)) == [book("A", "10", "12", 2)])
    #expect(stage.receive([book("A", "10", "12", 3)], at: .ms(600)).isEmpty)
    #expect(stage.tick(at: .ms(1100)).isEmpty)
  }

  @Test("every update with --every-trade, sizes included")
  func everyUpdate() {
    var stage = Stage(mode: .everyTrade)
    let batch = [book("A", "10", "11", 1), book("A", "10", "11", 2, size: "3")]
    #expect(stage.receive(batch, at: .ms(0)) == batch)
  }

  @Test("conditions name a side: .bid and .ask, either case, kept in the description")
  func sidesParse() throws {
    let ask = try AlertCondition.parse("BTCUSDT.ask<60000").get()
    #expect(ask.symbol == "BTCUSDT" && ask.side == .ask && ask.description == "BTCUSDT.ask<60000")
    let bid = try AlertCondition.parse("BTC-USD.BID >= 70000").get()
    #expect(bid.symbol == "BTC-USD" && bid.side == .bid && bid.description == "BTC-USD.bid>=70000")
    let move = try AlertCondition.parse("KRW-BTC.bid±1%").get()
    #expect(move.side == .bid && move.symbol == "KRW-BTC")
    #expect(try AlertCondition.parse("BRK.B>1").get().side == nil)
    #expect(throws: AlertConditionError.noSymbol(".ask<1")) { try AlertCondition.parse(".ask<1").get() }
  }

  @Test("an alert judges its side's price, fires once per crossing, and moves count from the side's start")
  func alertsOnSides() throws {
    var alerts = AlertBook(rules: [
      .init(condition: try AlertCondition.parse("A.ask<11").get(), ends: false),
      .init(condition: try AlertCondition.parse("A.bid>=12").get(), ends: true),
      .init(condition: try AlertCondition.parse("A.ask+10%").get(), ends: false),
    ])
    #expect(alerts.judge([book("A", "10", "11", 1)]).isEmpty)
    let below = alerts.judge([book("A", "10", "10.9", 2), book("A", "10", "10.8", 3)])
    #expect(below.map(\.rule.condition.description) == ["A.ask<11"] && below.map(\.price) == [Price("10.9")!])
    let moved = alerts.judge([book("A", "10", "12.1", 4)])
    #expect(moved.map(\.price) == [Price("12.1")!] && moved.first?.start == Price("11"))
    let ended = alerts.judge([book("A", "12", "12.2", 5), book("A", "13", "14", 6)])
    #expect(
      ended.map(\.rule.ends) == [true] && ended.first?.price == Price("12") && ended.first?.position == 0)
  }

  @Test("a side never judges a trade, and a trade's condition never judges a book")
  func sidesAndTrades() throws {
    var alerts = AlertBook(rules: [
      .init(condition: try AlertCondition.parse("A.bid>1").get(), ends: false),
      .init(condition: try AlertCondition.parse("A>1").get(), ends: false),
    ])
    let fired = alerts.judge([q("A", "5", 1), book("A", "5", "6", 2)])
    #expect(fired.map(\.rule.condition.description) == ["A>1", "A.bid>1"])
  }
}
