import Testing

@testable import FeedRuntime
@testable import Outputs
@testable import TestSupport
@testable import Venues

@Suite struct BoardModelTests {
  typealias Model = BoardModel<TestInstant>

  func model(_ symbols: [String] = ["BTC", "ETH"]) -> Model {
    Model(venue: "Test", symbols: symbols, start: .ms(0))
  }

  @Test("the first price is the reference; the direction is since the previous price")
  func changeAndDirection() {
    var board = model()
    board.receive(q("BTC", "100", 1), at: .ms(10))
    #expect(board.rows[0].change == PriceChange(from: Price("100")!, to: Price("100")!))
    #expect(board.rows[0].direction == .unchanged)
    board.receive(q("BTC", "101.5", 2), at: .ms(20))
    #expect(board.rows[0].change?.absolute == "+1.5")
    #expect(board.rows[0].change?.percent == "+1.50%")
    #expect(board.rows[0].direction == .up)
    board.receive(q("BTC", "101", 3), at: .ms(30))
    #expect(board.rows[0].change?.absolute == "+1")
    #expect(board.rows[0].direction == .down)
    #expect(board.rows[1].last == nil)
    #expect(board.received == 3)
  }

  @Test("trades per second over a sliding window")
  func rate() {
    var board = model()
    // 30 trades in the first 3 seconds.
    for i in 0..<30 { board.receive(q("BTC", "1", Int64(i)), at: .ms(Int64(i) * 100)) }
    let row = board.rows[0]
    // Within the first second the rate is over one second; then over the time since the start.
    #expect(board.tradesPerSecond(row, at: .ms(500)) == 6)
    #expect(board.tradesPerSecond(row, at: .ms(3_000)) == 10)
    #expect(board.tradesPerSecond(row, at: .ms(5_000)) == 6)
    // The window is 10 s: trades leave it as it slides past them.
    #expect(board.tradesPerSecond(row, at: .ms(10_050)) == 2.9)
    #expect(board.tradesPerSecond(row, at: .ms(12_000)) == 0.9)
    #expect(board.tradesPerSecond(row, at: .ms(13_000)) == 0)
    #expect(board.tradesPerSecond(board.rows[1], at: .ms(13_000)) == 0)
  }

  @Test("the rate window's ring is cleared across a long quiet spell")
  func rateAfterQuiet() {
    var board = model()
    for i in 0..<5 { board.receive(q("BTC", "1", 0), at: .ms(Int64(i) * 10)) }
    board.receive(q("BTC", "1", 0), at: .ms(60_000))
    board.receive(q("BTC", "1", 0), at: .ms(60_100))
    #expect(board.tradesPerSecond(board.rows[0], at: .ms(60_500)) == 0.2)
  }

  @Test("one sparkline point per second: the last price in it, carried forward when quiet")
  func sparkline() {
    var board = model()
    board.receive(q("BTC", "10", 0), at: .ms(200))
    board.receive(q("BTC", "11", 0), at: .ms(900))  // replaces 10 in the first second
    board.receive(q("BTC", "13", 0), at: .ms(2_500))
    board.receive(q("BTC", "12", 0), at: .ms(4_100))
    let row = board.rows[0]
    #expect(board.sparkline(row, width: 6, at: .ms(4_500)) == [nil, 11, 11, 13, 13, 12])
    #expect(board.sparkline(row, width: 3, at: .ms(6_000)) == [12, 12, 12])
    #expect(Sparkline.render(board.sparkline(row, width: 6, at: .ms(4_500))) == " ▁▁██▅")
    #expect(board.sparkline(board.rows[1], width: 2, at: .ms(6_000)) == [nil, nil])
  }

  @Test("a changed subscription keeps the rows that stay; a removed symbol's late quote is only counted")
  func subscriptionChanges() {
    var board = model(["BTC", "ETH"])
    board.receive(q("ETH", "5", 0), at: .ms(100))
    board.setSymbols(["SOL", "ETH"], at: .ms(200))
    #expect(board.rows.map(\.symbol) == ["SOL", "ETH"])
    #expect(board.rows[1].last?.price == Price("5"))
    board.receive(q("BTC", "1", 0), at: .ms(300))
    #expect(board.rows.map(\.symbol) == ["SOL", "ETH"])
    #expect(board.received == 2)
  }
}

@Suite struct SparklineTests {
  @Test func scaling() {
    #expect(Sparkline.render([1, 2, 3, 4, 5, 6, 7, 8]) == "▁▂▃▄▅▆▇█")
    #expect(Sparkline.render([10, 20, 15]) == "▁█▅")  // 15 is halfway: level 3.5 rounds to 4 (▅)
    #expect(Sparkline.render([nil, nil, 5, 5]) == "  ▁▁")  // before the first trade; flat
    #expect(Sparkline.render([95372.09, 95372.1, 95380, 95370.5]) == "▂▂█▁")
    #expect(Sparkline.render([]) == "")
  }
}
