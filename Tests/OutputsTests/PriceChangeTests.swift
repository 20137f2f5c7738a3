import Testing

@testable import FeedRuntime
@testable import Outputs
@testable import Venues

@Suite struct PriceChangeTests {
  @Test(
    "exact change and percent",
    arguments: [
      ("95372.09", "95384.43", "+12.34", "+0.01%", 1),
      ("0.1", "0.3", "+0.2", "+200.00%", 1),  // a Double would say 0.19999999999999998
      ("122.1", "122.09", "-0.01", "-0.01%", -1),
      ("100", "100.00", "0.00", "0.00%", 0),  // the same value spelled differently
      ("95372.09", "95372.08", "-0.01", "-0.00%", -1),  // too small for two decimals, sign kept
      ("2", "1", "-1", "-50.00%", -1),
      ("0", "1", "+1", "n/a", 1),
      ("0.00049", "103156000", "+103155999.99951", "+21052244897859.19%", 1),
    ])
  func change(reference: String, current: String, absolute: String, percent: String, sign: Int) {
    let change = PriceChange(from: Price(reference)!, to: Price(current)!)
    #expect(change.absolute == absolute)
    #expect(change.percent == percent)
    #expect(change.sign == sign)
  }

  @Test("beyond 37 digits the change falls back to a Double, with the prices' decimals")
  func beyondExact() {
    let long = "1" + String(repeating: "0", count: 39) + ".5"
    let change = PriceChange(from: Price("1")!, to: Price(long)!)
    #expect(change.sign == 1)
    #expect(change.absolute.hasPrefix("+"))
    #expect(change.absolute.hasSuffix(".0") || change.absolute.contains("e"))
  }

  @Test func fixed() {
    #expect(PriceChange.fixed(0.005, decimals: 2) == "0.01")
    #expect(PriceChange.fixed(12.344, decimals: 2) == "12.34")
    #expect(PriceChange.fixed(0, decimals: 1) == "0.0")
    #expect(PriceChange.fixed(7.96, decimals: 0) == "8")
  }

  @Test func direction() {
    #expect(PriceDirection(from: nil, to: Price("1")!) == .unchanged)
    #expect(PriceDirection(from: Price("1")!, to: Price("1.0")!) == .unchanged)
    #expect(PriceDirection(from: Price("1")!, to: Price("1.01")!) == .up)
    #expect(PriceDirection(from: Price("1")!, to: Price("0.99")!).arrow == "▼")
  }
}

@Suite struct TerminalWidthTests {
  @Test func columns() {
    #expect(TerminalWidth.columns("BINANCE:BTCUSDT") == 15)
    #expect(TerminalWidth.columns("비트코인") == 8)
    #expect(TerminalWidth.columns("ＢＴＣ") == 6)
    #expect(TerminalWidth.columns("e\u{301}") == 1)  // a combining accent takes no column
    #expect(TerminalWidth.columns("κόσμε") == 5)
  }

  @Test func truncateAndPad() {
    #expect(TerminalWidth.truncate("BINANCE:BTCUSDT", to: 8) == "BINANCE…")
    #expect(TerminalWidth.truncate("AAPL", to: 8) == "AAPL")
    #expect(TerminalWidth.truncate("비트코인", to: 6) == "비트…")  // never half a wide character
    #expect(TerminalWidth.padRight("비트", to: 6) == "비트  ")
    #expect(TerminalWidth.padLeft("1.5", to: 5) == "  1.5")
  }
}
