import Testing

@testable import FeedRuntime
@testable import Outputs
@testable import Recording
@testable import Venues

@Suite struct AlertConditionTests {
  func parse(_ text: String) -> AlertCondition? {
    if case .success(let condition) = AlertCondition.parse(text) { return condition }
    return nil
  }

  func failure(_ text: String) -> AlertConditionError? {
    if case .failure(let error) = AlertCondition.parse(text) { return error }
    return nil
  }

  @Test(arguments: [
    (
      "BINANCE:BTCUSDT>100000", "BINANCE:BTCUSDT",
      AlertCondition.Test.above(Price("100000")!, inclusive: false)
    ),
    ("BINANCE:BTCUSDT >= 100000.5", "BINANCE:BTCUSDT", .above(Price("100000.5")!, inclusive: true)),
    ("KRW-BTC<90000000", "KRW-BTC", .below(Price("90000000")!, inclusive: false)),
    ("BTC-USD<=0.5", "BTC-USD", .below(Price("0.5")!, inclusive: true)),
  ])
  func thresholds(text: String, symbol: String, test: AlertCondition.Test) throws {
    let condition = try #require(parse(text))
    #expect(condition.symbol == symbol)
    #expect(condition.test == test)
  }

  /// Read from the right: a symbol's own `-` is never taken for the move's sign.
  @Test(arguments: [
    ("BTC-USD-2%", "BTC-USD", "2", true, false),
    ("BTC-USD+2.5%", "BTC-USD", "2.5", false, true),
    ("BTC-USD±2%", "BTC-USD", "2", true, true),
    ("KRW-BTC+-0.25%", "KRW-BTC", "0.25", true, true),
    ("AAPL ± 1 %", "AAPL", "1", true, true),
  ])
  func moves(text: String, symbol: String, percent: String, down: Bool, up: Bool) throws {
    let condition = try #require(parse(text))
    #expect(condition.symbol == symbol)
    #expect(condition.test == .move(percent: ExactDecimal(percent)!, up: up, down: down))
  }

  @Test func writtenBackAsAPersonWritesIt() {
    for text in ["A>1", "A>=1.50", "B-C<2", "B-C<=2", "X+2%", "X-2.5%", "X±0.1%"] {
      #expect(parse(text)?.description == text)
    }
    #expect(parse("X+-3%")?.description == "X±3%")
    #expect(parse(" A > 1 ")?.description == "A>1")
  }

  @Test(arguments: [
    ("", AlertConditionError.empty),
    ("BTC", .noNumber("BTC")),
    ("BTC>", .noNumber("BTC>")),
    ("BTC=5", .noComparison("BTC=5")),
    ("BTC 5", .noComparison("BTC 5")),
    ("BTC 2%", .noMoveSign("BTC 2%")),
    (">5", .noSymbol(">5")),
    ("BTC>>5", .badOperator("BTC>>5")),
    ("BTC=>5", .badOperator("BTC=>5")),
    ("BTC<>5", .badOperator("BTC<>5")),
    ("BTC>1.2.3", .badNumber("1.2.3")),
    ("BTC+.%", .badNumber(".")),
    ("BTC+0%", .zeroMove("BTC+0%")),
    ("BTC++2%", .badOperator("BTC++2%")),
  ])
  func errors(text: String, error: AlertConditionError) {
    #expect(failure(text) == error)
  }

  @Test func thresholdsCompareExactDigits() throws {
    // 0.1 + 0.2 != 0.3 in binary floating point; the venue's digits are compared exactly.
    let condition = try #require(parse("X>=0.3"))
    #expect(condition.holds(price: Price("0.3")!, start: nil))
    #expect(condition.holds(price: Price("0.30")!, start: nil))
    #expect(!condition.holds(price: Price("0.2999999999999999999")!, start: nil))
    let above = try #require(parse("X>95372.09"))
    #expect(!above.holds(price: Price("95372.09")!, start: nil))
    #expect(above.holds(price: Price("95372.0900000001")!, start: nil))
  }

  @Test func movesAreExactToo() throws {
    // Start 0.1, up 200%: the line is exactly 0.3, where 0.1 * 3.0 in Double is 0.30000000000000004.
    let up = try #require(parse("X+200%"))
    #expect(up.holds(price: Price("0.3")!, start: Price("0.1")!))
    #expect(!up.holds(price: Price("0.2999999")!, start: Price("0.1")!))
    let down = try #require(parse("X-0.0002%"))
    // 95372.09 × 0.999998 = 95371.89925582
    #expect(down.holds(price: Price("95371.89925582")!, start: Price("95372.09")!))
    #expect(!down.holds(price: Price("95371.89925583")!, start: Price("95372.09")!))
    let either = try #require(parse("X±10%"))
    #expect(either.holds(price: Price("110")!, start: Price("100")!))
    #expect(either.holds(price: Price("90")!, start: Price("100")!))
    #expect(!either.holds(price: Price("109.99")!, start: Price("100")!))
    #expect(!either.holds(price: Price("100")!, start: nil))
  }
}

@Suite struct AlertBookTests {
  func rule(_ text: String, ends: Bool = false) -> AlertBook.Rule {
    guard case .success(let condition) = AlertCondition.parse(text) else { fatalError(text) }
    return AlertBook.Rule(condition: condition, ends: ends)
  }

  func quotes(_ symbol: String, _ prices: [String]) -> [Quote] {
    prices.enumerated().map { Quote(symbol: symbol, price: Price($1)!, time: Int64($0)) }
  }

  @Test func firesWhenItBecomesTrueAndAgainOnlyAfterItWasFalse() {
    var book = AlertBook(rules: [rule("A>10")])
    let fired = book.judge(quotes("A", ["9", "11", "12", "10", "13", "14"]))
    #expect(fired.map(\.quote.price.text) == ["11", "13"])
    #expect(book.judge(quotes("A", ["15"])).isEmpty)  // still true across batches
  }

  @Test func trueOnTheFirstPriceFires() {
    var book = AlertBook(rules: [rule("A<10")])
    #expect(book.judge(quotes("A", ["5"])).map(\.quote.price.text) == ["5"])
  }

  @Test func movesAreMeasuredFromTheFirstPriceReceived() {
    var book = AlertBook(rules: [rule("A+10%"), rule("A-10%")])
    let fired = book.judge(quotes("A", ["100", "105", "110", "95", "90", "111"]))
    #expect(
      fired.map { "\($0.rule.condition) \($0.quote.price.text) from \($0.start!.text)" } == [
        "A+10% 110 from 100", "A-10% 90 from 100", "A+10% 111 from 100",
      ])
    #expect(book.start(of: "A") == Price("100"))
  }

  @Test func otherSymbolsAreNotJudged() {
    var book = AlertBook(rules: [rule("A>1")])
    #expect(book.judge(quotes("B", ["5"])).isEmpty)
    #expect(book.start(of: "B") == nil)
  }

  @Test func anEndingRuleStopsTheJudgingAfterItsQuote() {
    var book = AlertBook(rules: [rule("A>1", ends: true), rule("A>5")])
    let fired = book.judge(quotes("A", ["2", "6", "7"]))
    #expect(fired.map(\.position) == [0])
    #expect(fired.map(\.quote.price.text) == ["2"])
  }

  @Test func eachRuleKeepsItsOwnState() {
    var book = AlertBook(rules: [rule("A>1"), rule("A>1", ends: true)])
    let fired = book.judge(quotes("A", ["2"]))
    #expect(fired.map(\.rule.ends) == [false, true])
  }
}
