import Testing

@testable import FeedRuntime
@testable import Outputs
@testable import TestSupport
@testable import Venues

@Suite struct TerminalLineFormatterTests {
  let t0: Int64 = 1_768_655_932_976

  func lines(_ formatter: inout TerminalLineFormatter, _ quotes: [(String, String, Int64)]) -> [String] {
    quotes.map { formatter.format(q($0.0, $0.1, t0 + $0.2)) }
  }

  @Test("aligned columns, arrows and the change since the start (golden)")
  func golden() {
    var formatter = TerminalLineFormatter(symbols: ["BINANCE:BTCUSDT", "AAPL"])
    let out = lines(
      &formatter,
      [
        ("BINANCE:BTCUSDT", "95372.09", 0), ("BINANCE:BTCUSDT", "95372.1", 320), ("AAPL", "122.1", 524),
        ("AAPL", "122.09", 525), ("BINANCE:BTCUSDT", "95372.1", 600), ("BINANCE:BTCUSDT", "95380", 28_024),
        ("AAPL", "99.5", 28_100),
      ])
    #expect(
      out == [
        "2026-01-17T13:18:52.976Z  BINANCE:BTCUSDT  • 95372.09   0.00   0.00%\n",
        "2026-01-17T13:18:53.296Z  BINANCE:BTCUSDT  ▲ 95372.1   +0.01  +0.00%\n",
        "2026-01-17T13:18:53.500Z  AAPL             •   122.1    0.0    0.00%\n",
        "2026-01-17T13:18:53.501Z  AAPL             ▼   122.09  -0.01  -0.01%\n",
        "2026-01-17T13:18:53.576Z  BINANCE:BTCUSDT  • 95372.1   +0.01  +0.00%\n",
        "2026-01-17T13:19:21.000Z  BINANCE:BTCUSDT  ▲ 95380     +7.91  +0.01%\n",
        "2026-01-17T13:19:21.076Z  AAPL             ▼    99.5   -22.6   -18.51%\n",
      ])
  }

  @Test("the decimal points line up once the widths have grown, and widths never shrink")
  func pointsLineUp() {
    var formatter = TerminalLineFormatter(symbols: ["A", "LONGER"], timestamps: .none)
    let out = lines(
      &formatter,
      [
        ("A", "12345.5", 0), ("LONGER", "0.001", 0), ("A", "1.25", 0), ("LONGER", "7", 0),
        ("A", "12345.5", 0),
      ])
    #expect(
      out == [
        "A       • 12345.5   0.0   0.00%\n",
        "LONGER  •     0.001   0.000   0.00%\n",
        "A       ▼     1.25   -12344.25   -99.99%\n",
        "LONGER  ▲     7          +6.999  +699900.00%\n",
        "A       ▲ 12345.5         0.0          0.00%\n",
      ])
    // Once the column has grown for all of them, the points line up.
    let points = [out[2], out[4]].map { line in
      line.distance(from: line.startIndex, to: line.firstIndex(of: ".")!)
    }
    #expect(points[0] == points[1])
  }

  @Test("colour marks the direction and the change's sign; without it there is no escape byte")
  func colour() {
    var plain = TerminalLineFormatter(symbols: ["A"], timestamps: .none)
    var coloured = TerminalLineFormatter(symbols: ["A"], useColor: true, timestamps: .none)
    let quotes = [("A", "10", Int64(0)), ("A", "10.5", 1), ("A", "9", 2), ("A", "9", 3)]
    let plainLines = lines(&plain, quotes)
    #expect(!plainLines.joined().utf8.contains(0x1B))
    #expect(plainLines.map { $0.contains("▲") || $0.contains("▼") } == [false, true, true, false])
    let colouredLines = lines(&coloured, quotes)
    #expect(
      colouredLines == [
        "A  • 10   0   0.00%\n",
        "A  \u{1B}[32m▲ 10.5\u{1B}[0m  \u{1B}[32m+0.5  +5.00%\u{1B}[0m\n",
        "A  \u{1B}[31m▼  9  \u{1B}[0m  \u{1B}[31m-1    -10.00%\u{1B}[0m\n",
        "A  •  9    \u{1B}[31m-1    -10.00%\u{1B}[0m\n",
      ])
  }

  @Test("a symbol's control characters are shown escaped and measured as shown")
  func hostileSymbol() {
    // `X\x1b[2J` is shown in 8 columns; `비트` takes 4 (two wide characters), padded to 8.
    var formatter = TerminalLineFormatter(symbols: ["X\u{1B}[2J", "비트"], timestamps: .none)
    let out = lines(&formatter, [("X\u{1B}[2J", "1", 0), ("비트", "2", 0)])
    #expect(out == ["X\\x1b[2J  • 1   0   0.00%\n", "비트      • 2   0   0.00%\n"])
    #expect(!out.joined().utf8.contains(0x1B))
  }
}
