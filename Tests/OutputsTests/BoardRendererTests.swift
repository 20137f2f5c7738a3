import Testing

@testable import FeedRuntime
@testable import Outputs
@testable import TestSupport
@testable import Venues

@Suite struct BoardRendererTests {
  static let t0: Int64 = 1_768_655_932_976

  /// Three symbols, two with trades: the same session for every frame below.
  static func session() -> BoardModel<TestInstant> {
    var board = BoardModel<TestInstant>(
      venue: "Finnhub (demo)", symbols: ["BINANCE:BTCUSDT", "AAPL", "IC MARKETS:1"], start: .ms(0))
    board.connection = .connected
    let trades = [
      ("BINANCE:BTCUSDT", "95372.09"), ("BINANCE:BTCUSDT", "95372.1"), ("AAPL", "122.1"), ("AAPL", "122.09"),
      ("BINANCE:BTCUSDT", "95380"), ("BINANCE:BTCUSDT", "95370.5"), ("AAPL", "122.3"),
    ]
    for (i, (symbol, price)) in trades.enumerated() {
      let at = Int64(i + 1) * 700
      board.receive(q(symbol, price, t0 + at), at: .ms(at))
    }
    return board
  }

  func frame(_ size: TerminalSize, color: Bool = false, message: String? = nil) -> [String] {
    var board = Self.session()
    if let message { board.show(message: message, at: .ms(5_000)) }
    var renderer = BoardRenderer(useColor: color)
    return renderer.render(board, size: size, at: .ms(5_200), wallClock: Self.t0 + 7_024).lines
  }

  @Test("100 × 8: every column")
  func wide() {
    #expect(
      frame(TerminalSize(columns: 100, rows: 8)) == [
        "SYMBOL                LAST  CHANGE  CHANGE%  TREND                           TRADE TIME    TRADES/S",
        "BINANCE:BTCUSDT  ▼ 95370.5   -1.59   -0.00%                          ▂▂▂█▁▁  13:18:57.176       0.8",
        "AAPL             ▲   122.3   +0.2    +0.16%                            ▁▁██  13:18:57.876       0.6",
        "IC MARKETS:1     waiting for a trade",
        "",
        "",
        "",
        "Finnhub (demo) · connected · 3 symbols · 13:19:00 UTC                                  Ctrl-C quits",
      ])
  }

  @Test("the status line counts stale symbols (--stale-after), and stops once they recover")
  func staleCount() {
    var board = Self.session()
    board.stale = ["IC MARKETS:1", "AAPL"]
    var renderer = BoardRenderer(useColor: false)
    let size = TerminalSize(columns: 100, rows: 8)
    #expect(
      renderer.render(board, size: size, at: .ms(5_200), wallClock: Self.t0 + 7_024).lines.last
        == "Finnhub (demo) · connected · 3 symbols · 2 stale · 13:19:00 UTC                        Ctrl-C quits"
    )
    board.stale = []
    #expect(
      renderer.render(board, size: size, at: .ms(5_200), wallClock: Self.t0 + 7_024).lines.last
        == "Finnhub (demo) · connected · 3 symbols · 13:19:00 UTC                                  Ctrl-C quits"
    )
  }

  @Test("80 × 6: the sparkline narrows")
  func eighty() {
    #expect(
      frame(TerminalSize(columns: 80, rows: 6)) == [
        "SYMBOL                LAST  CHANGE  CHANGE%  TREND       TRADE TIME    TRADES/S",
        "BINANCE:BTCUSDT  ▼ 95370.5   -1.59   -0.00%      ▂▂▂█▁▁  13:18:57.176       0.8",
        "AAPL             ▲   122.3   +0.2    +0.16%        ▁▁██  13:18:57.876       0.6",
        "IC MARKETS:1     waiting for a trade",
        "",
        "Finnhub (demo) · connected · 3 symbols · 13:19:00 UTC              Ctrl-C quits",
      ])
  }

  @Test("60 × 6: the trade time and the rate go first")
  func sixty() {
    #expect(
      frame(TerminalSize(columns: 60, rows: 6)) == [
        "SYMBOL                LAST  CHANGE  CHANGE%  TREND",
        "BINANCE:BTCUSDT  ▼ 95370.5   -1.59   -0.00%          ▂▂▂█▁▁",
        "AAPL             ▲   122.3   +0.2    +0.16%            ▁▁██",
        "IC MARKETS:1     waiting for a trade",
        "",
        "Finnhub (demo) · connected · 3 symbols · 13:19:00 UTC",
      ])
  }

  @Test("44 × 5: then the sparkline")
  func fortyFour() {
    #expect(
      frame(TerminalSize(columns: 44, rows: 5)) == [
        "SYMBOL                LAST  CHANGE  CHANGE%",
        "BINANCE:BTCUSDT  ▼ 95370.5   -1.59   -0.00%",
        "AAPL             ▲   122.3   +0.2    +0.16%",
        "IC MARKETS:1     waiting for a trade",
        "Finnhub (demo) · connected · 3 symbols · 1…",
      ])
  }

  @Test("30 × 4: then the absolute change; the symbol is cut; rows that do not fit are summed up")
  func thirty() {
    #expect(
      frame(TerminalSize(columns: 30, rows: 4)) == [
        "SYMBOL          LAST  CHANGE%",
        "BINANCE:…  ▼ 95370.5   -0.00%",
        "… and 2 more symbols: make t…",
        "Finnhub (demo) · connected ·…",
      ])
  }

  @Test("24 × 3: what is left is cut with …")
  func tiny() {
    #expect(
      frame(TerminalSize(columns: 24, rows: 3)) == [
        "SYMBOL       LAST  CHA…",
        "BINA…  ▼ 95370.5   -0.…",
        "Finnhub (demo) · conne…",
      ])
  }

  @Test("two rows: a symbol and the status line, no header")
  func twoRows() {
    #expect(
      frame(TerminalSize(columns: 30, rows: 2)) == [
        "BINANCE:…  ▼ 95370.5   -0.00%",
        "Finnhub (demo) · connected ·…",
      ])
  }

  @Test("one row: the status line")
  func oneRow() {
    #expect(
      frame(TerminalSize(columns: 30, rows: 1)) == [
        "Finnhub (demo) · connected ·…"
      ])
  }

  @Test("with colour: the header bold, the price by direction, the change by its sign")
  func colour() {
    #expect(
      frame(TerminalSize(columns: 100, rows: 5), color: true) == [
        "\u{1B}[1mSYMBOL                LAST  CHANGE  CHANGE%  TREND                           TRADE TIME    TRADES/S\u{1B}[0m",
        "BINANCE:BTCUSDT  \u{1B}[31m▼ 95370.5\u{1B}[0m  \u{1B}[31m -1.59\u{1B}[0m  \u{1B}[31m -0.00%\u{1B}[0m                          ▂▂▂█▁▁  13:18:57.176       0.8",
        "AAPL             \u{1B}[32m▲   122.3\u{1B}[0m  \u{1B}[32m +0.2 \u{1B}[0m  \u{1B}[32m +0.16%\u{1B}[0m                            ▁▁██  13:18:57.876       0.6",
        "IC MARKETS:1     waiting for a trade",
        "Finnhub (demo) · connected · 3 symbols · 13:19:00 UTC                                  Ctrl-C quits",
      ])
  }

  @Test("the latest message takes the hint's place in the status line")
  func message() {
    #expect(
      frame(
        TerminalSize(columns: 100, rows: 5),
        message:
          "warning: the connection was lost (no close frame: 1006 abnormal closure); reconnect attempt 1 in 0.6 s"
      ) == [
        "SYMBOL                LAST  CHANGE  CHANGE%  TREND                           TRADE TIME    TRADES/S",
        "BINANCE:BTCUSDT  ▼ 95370.5   -1.59   -0.00%                          ▂▂▂█▁▁  13:18:57.176       0.8",
        "AAPL             ▲   122.3   +0.2    +0.16%                            ▁▁██  13:18:57.876       0.6",
        "IC MARKETS:1     waiting for a trade",
        "Finnhub (demo) · connected · 3 symbols · 13:19:00 UTC · warning: the connection was lost (no close…",
      ])
  }

  @Test("a message is shown for 30 s, then the hint again")
  func messageExpires() {
    var board = Self.session()
    board.show(message: "warning: something", at: .ms(5_000))
    var renderer = BoardRenderer()
    let size = TerminalSize(columns: 100, rows: 3)
    let soon = renderer.render(board, size: size, at: .ms(34_999), wallClock: 0).lines.last!
    let later = renderer.render(board, size: size, at: .ms(35_000), wallClock: 0).lines.last!
    #expect(soon.hasSuffix("· warning: something"))
    #expect(later.hasSuffix("Ctrl-C quits"))
  }

  @Test("no frame line holds an escape byte without colour, and none reaches the last column")
  func noEscapesAndMargin() {
    for columns in [10, 30, 60, 100, 140] {
      for line in frame(TerminalSize(columns: columns, rows: 6)) {
        #expect(!line.utf8.contains(0x1B))
        #expect(TerminalWidth.columns(line) <= columns - 1)
      }
    }
  }

  @Test("column widths only grow: a narrower price later keeps the column")
  func widthsOnlyGrow() {
    var board = BoardModel<TestInstant>(venue: "V", symbols: ["A"], start: .ms(0))
    var renderer = BoardRenderer()
    let size = TerminalSize(columns: 60, rows: 3)
    board.receive(q("A", "12345.678", 0), at: .ms(0))
    let before = renderer.render(board, size: size, at: .ms(0), wallClock: 0).lines
    board.receive(q("A", "1.5", 0), at: .ms(1))
    let after = renderer.render(board, size: size, at: .ms(1), wallClock: 0).lines
    // The price column keeps its width (the change column grows for -12344.178, which pushes
    // the rate out at this width).
    #expect(before[0].hasPrefix("SYMBOL         LAST  CHANGE"))
    #expect(after[0].hasPrefix("SYMBOL         LAST      CHANGE"))
    #expect(before[1].hasPrefix("A       • 12345.678"))
    #expect(after[1].hasPrefix("A       ▼     1.5  "))
  }

  @Test("a hostile symbol is escaped on the board too")
  func hostileSymbol() {
    var board = BoardModel<TestInstant>(venue: "V", symbols: ["X\u{1B}]0;owned\u{7}"], start: .ms(0))
    board.receive(q("X\u{1B}]0;owned\u{7}", "1", 0), at: .ms(0))
    var renderer = BoardRenderer(useColor: true)
    let lines = renderer.render(board, size: TerminalSize(columns: 80, rows: 3), at: .ms(0), wallClock: 0)
      .lines
    #expect(lines[1].hasPrefix("X\\x1b]0;owned\\x07  "))
    #expect(lines.allSatisfy { !$0.contains("\u{7}") && !$0.contains("\u{1B}]") })
  }
}
