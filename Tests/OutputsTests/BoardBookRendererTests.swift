import Testing

@testable import Outputs
@testable import TestSupport
@testable import Venues

/// The boards' frames following books (`--bid-ask`): bid, ask and the venue's spread in basis
/// points per row; with several venues, each currency's best bid and ask and `CROSSED`.
@Suite struct BoardBookRendererTests {
  typealias T = CrossVenueBoardTests
  typealias B = CrossVenueBookTests
  static let t0 = T.t0

  /// One venue, two symbols: BTC's book moves up, ETH's is still to come.
  static func model() -> BoardModel<TestInstant> {
    var model = BoardModel<TestInstant>(
      venue: "Binance (demo)", symbols: ["BTCUSDT", "ETHUSDT"], start: .ms(0))
    model.connection = .connected
    let books = [("95000.10", "95010.30"), ("95004.00", "95010.30"), ("95012.50", "95013.00")]
    for (i, (bid, ask)) in books.enumerated() {
      let at = Int64(i + 1) * 700
      model.receive(B.book(0, "BTCUSDT", bid: bid, ask: ask, after: at), at: .ms(at))
    }
    return model
  }

  @Test("one venue, 110 × 6: bid, ask and basis points; the change and the trend of the mid")
  func oneVenue() {
    var renderer = BoardRenderer(topOfBook: true)
    let lines = renderer.render(
      Self.model(), size: TerminalSize(columns: 110, rows: 6), at: .ms(3_000), wallClock: Self.t0 + 3_024
    ).lines
    #expect(
      lines == [
        "SYMBOL          BID       ASK    BPS  CHANGE  CHANGE%  TREND                           QUOTE TIME    QUOTES/S",
        // Mids 95005.20 → 95012.75: +7.55; 0.5 × 20 000 / 190025.5 = 0.0526… bp.
        "BTCUSDT  ▲ 95012.50  95013.00   0.05   +7.55   +0.01%                            ▁▃██  13:18:55.076       1.0",
        "ETHUSDT  waiting for a quote",
        "",
        "",
        "Binance (demo) · connected · 2 symbols · 13:18:56 UTC                                            Ctrl-C quits",
      ])
  }

  @Test("a hostile symbol is escaped in a book's row too, and nothing reaches the last column")
  func hostileSymbol() {
    var model = BoardModel<TestInstant>(venue: "Binance", symbols: ["BTC\u{1B}[2J"], start: .ms(0))
    model.receive(B.book(0, "BTC\u{1B}[2J", bid: "1.5", ask: "1.75"), at: .ms(10))
    var renderer = BoardRenderer(topOfBook: true)
    let lines = renderer.render(
      model, size: TerminalSize(columns: 60, rows: 4), at: .ms(20), wallClock: Self.t0
    )
    .lines
    #expect(lines.allSatisfy { !$0.unicodeScalars.contains("\u{1B}") && TerminalWidth.columns($0) < 60 })
    #expect(lines[1].contains("1.5") && lines[1].contains("1.75"), "\(lines)")
  }

  /// Binance, OKX and Bybit in USDT (`crossed`: OKX bids above Binance's ask), Coinbase alone in USD.
  static func board(crossed: Bool) -> CrossVenueBoard {
    var board = T.board([(T.binance, "BTCUSDT"), (T.okx, "BTC-USDT"), (T.coinbase, "BTC-USD")])
    board.receive(B.book(T.binance, "BTCUSDT", bid: "95000.00", ask: "95010.00"))
    board.receive(B.book(T.okx, "BTC-USDT", bid: crossed ? "95012.5" : "95004.5", ask: "95020.1", after: 100))
    board.receive(B.book(T.coinbase, "BTC-USD", bid: "95401.5", ask: "95402", after: 200))
    return board
  }

  func frame(_ board: CrossVenueBoard, columns: Int = 120) -> [String] {
    var renderer = CrossVenueRenderer(venues: CrossVenueRendererTests.names, topOfBook: true)
    return renderer.render(
      board, status: CrossVenueRendererTests.status(), size: TerminalSize(columns: columns, rows: 8),
      at: .ms(1_000), wallClock: Self.t0 + 2_505
    ).lines
  }

  @Test("several venues: each currency's best bid and best ask named with their venues, the spread in bps")
  func severalVenues() {
    #expect(
      frame(Self.board(crossed: false)) == [
        "  VENUE     SYMBOL           BID       ASK    BPS  CHANGE  CHANGE%  QUOTE TIME    SPREAD, PREMIUM",
        // 5.5 × 20 000 / (95004.5 + 95010) = 0.5788… bp of their mid.
        "BTC · USDT · best bid 95004.5 OKX, best ask 95010.00 Binance · spread 5.50 (0.58 bp)",
        "  Binance   BTCUSDT   • 95000.00  95010.00   1.05    0.00    0.00%  13:18:52.976",
        "  OKX       BTC-USDT  • 95004.5   95020.1    1.64    0.0     0.00%  13:18:53.076",
        "BTC · USD · one venue",
        "  Coinbase  BTC-USD   • 95401.5   95402      0.05    0.00    0.00%  13:18:53.176",
        "",
        "Binance, OKX (demo) · connected · 3 symbols · 13:18:55 UTC                                                 Ctrl-C quits",
      ])
  }

  @Test("several venues, crossed: the title says CROSSED, the spread negative")
  func crossedVenues() {
    let lines = frame(Self.board(crossed: true))
    #expect(
      lines[1]
        == "BTC · USDT · best bid 95012.5 OKX, best ask 95010.00 Binance · spread -2.50 (-0.26 bp) · CROSSED")
    #expect(lines[3] == "  OKX       BTC-USDT  • 95012.5   95020.1    0.80    0.0     0.00%  13:18:53.076")
    #expect(!frame(Self.board(crossed: false)).contains { $0.contains("CROSSED") })
    // In colour, CROSSED is red.
    var renderer = CrossVenueRenderer(venues: CrossVenueRendererTests.names, useColor: true, topOfBook: true)
    let coloured = renderer.render(
      Self.board(crossed: true), status: CrossVenueRendererTests.status(),
      size: TerminalSize(columns: 120, rows: 8), at: .ms(1_000), wallClock: Self.t0
    ).lines
    #expect(coloured[1].contains("\u{1B}[31mCROSSED"), "\(coloured[1])")
  }
}
