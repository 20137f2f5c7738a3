import Testing

@testable import Outputs
@testable import TestSupport
@testable import Venues

@Suite struct CrossVenueRendererTests {
  static let t0 = CrossVenueBoardTests.t0
  static let names = ["Binance", "OKX", "Coinbase", "Kraken", "Upbit", "Finnhub"]

  /// Two USDT venues, two USD venues, Upbit's KRW price and its rate, a stock.
  static func session() -> CrossVenueBoard {
    typealias T = CrossVenueBoardTests
    var board = T.board([
      (T.binance, "BTCUSDT"), (T.okx, "BTC-USDT"), (T.coinbase, "BTC-USD"), (T.kraken, "BTC/USD"),
      (T.upbit, "KRW-BTC"), (T.upbit, "KRW-USDT"), (T.finnhub, "AAPL"),
    ])
    let trades: [(UInt8, String, String)] = [
      (T.binance, "BTCUSDT", "95000"), (T.okx, "BTC-USDT", "95010"), (T.coinbase, "BTC-USD", "95401.5"),
      (T.kraken, "BTC/USD", "95398.1"), (T.upbit, "KRW-BTC", "143000000"), (T.upbit, "KRW-USDT", "1450"),
      (T.binance, "BTCUSDT", "95001.5"),
    ]
    for (i, (venue, symbol, price)) in trades.enumerated() {
      board.receive(T.quote(venue, symbol, price, after: Int64(i) * 100))
    }
    return board
  }

  static func status() -> BoardModel<TestInstant> {
    var model = BoardModel<TestInstant>(venue: "Binance, OKX (demo)", symbols: [], start: .ms(0))
    model.connection = .connected
    return model
  }

  func frame(_ size: TerminalSize, board: CrossVenueBoard = Self.session()) -> [String] {
    var renderer = CrossVenueRenderer(venues: Self.names)
    // Two seconds after the rate's quote arrived.
    return renderer.render(
      board, status: Self.status(), size: size, at: .ms(1_000), wallClock: Self.t0 + 2_505
    )
    .lines
  }

  @Test("120 × 16: grouped by asset and currency, USD and USDT apart, the premium converted, the rate")
  func wide() {
    #expect(
      frame(TerminalSize(columns: 120, rows: 16)) == [
        "  VENUE     SYMBOL             LAST  CHANGE  CHANGE%  TRADE TIME    SPREAD, PREMIUM",
        "BTC · USDT · spread 8.5 (0.01%): high OKX, low Binance",
        "  Binance   BTCUSDT   ▲     95001.5    +1.5   +0.00%  13:18:53.576",
        "  OKX       BTC-USDT  •     95010       0      0.00%  13:18:53.076",
        "BTC · USD · spread 3.4 (0.00%): high Coinbase, low Kraken",
        "  Coinbase  BTC-USD   •     95401.5     0.0    0.00%  13:18:53.176",
        "  Kraken    BTC/USD   •     95398.1     0.0    0.00%  13:18:53.276",
        "BTC · KRW · premium: converted to USDT, against the median of 2 USDT prices",
        "  Upbit     KRW-BTC   • 143000000       0      0.00%  13:18:53.376  +3.80% (98620.69 USDT converted, rate 2s old)",
        "AAPL",
        "  Finnhub   AAPL      waiting for a trade",
        "RATES",
        "  Upbit     KRW-USDT  •      1450       0      0.00%  13:18:53.476  1 USDT in KRW, 2s old",
        "",
        "",
        "Binance, OKX (demo) · connected · 7 symbols · 13:18:55 UTC                                                 Ctrl-C quits",
      ])
  }

  @Test("60 × 8 and 44 × 6: the trade time goes, then the change; lines are cut, the rest summed up")
  func narrow() {
    #expect(
      frame(TerminalSize(columns: 60, rows: 8)) == [
        "  VENUE     SYMBOL             LAST  CHANGE  CHANGE%  SPRE…",
        "BTC · USDT · spread 8.5 (0.01%): high OKX, low Binance",
        "  Binance   BTCUSDT   ▲     95001.5    +1.5   +0.00%",
        "  OKX       BTC-USDT  •     95010       0      0.00%",
        "BTC · USD · spread 3.4 (0.00%): high Coinbase, low Kraken",
        "  Coinbase  BTC-USD   •     95401.5     0.0    0.00%",
        "… and 7 more lines: make the window taller to see them",
        "Binance, OKX (demo) · connected · 7 symbols · 13:18:55 UTC",
      ])
    #expect(
      frame(TerminalSize(columns: 44, rows: 6)) == [
        "  VENUE     SYMBOL             LAST  CHANG…",
        "BTC · USDT · spread 8.5 (0.01%): high OKX,…",
        "  Binance   BTCUSDT   ▲     95001.5   +0.0…",
        "  OKX       BTC-USDT  •     95010      0.0…",
        "… and 9 more lines: make the window taller…",
        "Binance, OKX (demo) · connected · 7 symbol…",
      ])
  }

  @Test("no USDT price of the asset: the KRW group says so and its row shows no premium")
  func noReference() {
    typealias T = CrossVenueBoardTests
    var board = T.board([(T.upbit, "KRW-BTC"), (T.upbit, "KRW-USDT"), (T.coinbase, "BTC-USD")])
    board.receive(T.quote(T.upbit, "KRW-BTC", "143000000"))
    let waiting = frame(TerminalSize(columns: 100, rows: 8), board: board)
    #expect(waiting[1] == "BTC · KRW · premium: converted to USDT; no USDT price of BTC to compare with yet")
    #expect(waiting[2].hasSuffix("13:18:52.976  waiting for the rate (KRW-USDT)"), "\(waiting)")
    board.receive(T.quote(T.upbit, "KRW-USDT", "1450"))
    board.receive(T.quote(T.coinbase, "BTC-USD", "95000"))
    let lines = frame(TerminalSize(columns: 100, rows: 8), board: board)
    #expect(lines[2].hasSuffix("0.00%  13:18:52.976"), "\(lines)")
    #expect(lines[3] == "BTC · USD · one venue", "\(lines)")
  }

  @Test("a server's symbol reaches the terminal escaped, in its row and in its group's title")
  func escaped() {
    typealias T = CrossVenueBoardTests
    var board = T.board()
    board.receive(T.quote(T.okx, "BTC-\u{1B}[2J", "1"))
    board.receive(T.quote(T.upbit, "\u{1B}]0;x\u{7}-BTC", "2"))
    let lines = frame(TerminalSize(columns: 100, rows: 8), board: board)
    #expect(!lines.joined().unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "\(lines)")
    #expect(lines[1] == "BTC · \\x1b[2J · one venue", "\(lines)")
    #expect(lines[2].hasPrefix("  OKX    BTC-\\x1b[2J        • 1"), "\(lines)")
    #expect(lines[3] == "BTC · \\x1b]0;x\\x07 · one venue", "\(lines)")
  }
}
