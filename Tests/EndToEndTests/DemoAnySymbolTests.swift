import Foundation
import Testing

/// `ticker --demo` with symbols beyond each venue's example: each venue's demo accepts any symbol
/// the venue could list and trades it in the demo's market, from the command line or added later
/// on `--control stdin`.
@Suite("ticker --demo trades any symbol asked for")
struct DemoAnySymbolTests {
  /// Per provider: a symbol other than its example (as given on the command line), how the
  /// ticker prints it, and the venue's name as `--verbose` says what the demo is.
  static let cases: [(provider: String, symbol: String, printed: String, venue: String)] = [
    ("finnhub", "BINANCE:ETHUSDT", "BINANCE:ETHUSDT", "Finnhub"),
    ("upbit", "KRW-ETH", "KRW-ETH", "Upbit"),
    ("binance", "ethusdt", "ETHUSDT", "Binance"),
    ("coinbase", "XLM-EUR", "XLM-EUR", "Coinbase"),
    ("kraken", "xlm/eur", "XLM/EUR", "Kraken"),
    ("okx", "xlm-eur", "XLM-EUR", "OKX"),
  ]

  /// The venue's example symbol, as `+`/`-` control lines name it.
  static let recorded = [
    "finnhub": "BINANCE:BTCUSDT", "upbit": "KRW-BTC", "binance": "BTCUSDT", "coinbase": "BTC-USD",
    "kraken": "BTC/USD",
    "okx": "BTC-USDT",
  ]

  /// Whether `line` is a text line for `symbol` with a positive plain decimal price.
  static func isPriceLine(_ line: String, for symbol: String) -> Bool {
    let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
    guard fields.count == 3, fields[1] == symbol, let value = Double(fields[2]) else { return false }
    return value > 0 && fields[2].allSatisfy { $0.isNumber || $0 == "." }
  }

  @Test("--demo --symbol <a symbol the session never trades> --count 3: its prices, exit 0", arguments: cases)
  func unknownSymbol(provider: String, symbol: String, printed: String, venue: String) async throws {
    let result = try await TickerProcess.run(
      ["--demo", "--provider", provider, "--symbol", symbol, "--count", "3", "--verbose"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdoutLines.count == 3, "\(result.stdout)")
    #expect(result.stdoutLines.allSatisfy { Self.isPriceLine($0, for: printed) }, "\(result.stdout)")
    #expect(
      result.stderr.contains("demo: a simulated \(venue) market from ws://127.0.0.1:"), "\(result.stderr)")
    // No "Invalid symbol", no refused subscription, no code that never got a quote.
    #expect(!result.stderr.contains("warning") && !result.stderr.contains("error"), "\(result.stderr)")
  }

  @Test("a symbol added on --control stdin while the demo runs gets prices too", arguments: cases)
  func addedLater(provider: String, symbol: String, printed: String, venue: String) async throws {
    let known = try #require(Self.recorded[provider])
    let ticker = try RunningTicker(
      ["--demo", "--provider", provider, "--symbol", known, "--control", "stdin", "--debounce", "0"],
      stdin: true)
    // The demo is streaming the example symbol; now ask for another.
    let first = await ticker.lines(1)
    #expect(first.first.map { Self.isPriceLine($0, for: known) } == true, "\(first)")
    ticker.send("+\(symbol)\n")
    var lines = first
    while !lines.contains(where: { Self.isPriceLine($0, for: printed) }), lines.count < 400 {
      let more = await ticker.lines(lines.count + 1, within: 120)
      if more.count == lines.count { break }  // stdout ended (or the hang guard ran out)
      lines = more
    }
    ticker.signal(SIGINT)
    let (status, stderr) = await ticker.exit()
    #expect(lines.contains { Self.isPriceLine($0, for: printed) }, "\(lines.suffix(5)) \(stderr)")
    #expect(status == 130, "\(stderr)")
    #expect(!stderr.contains("Invalid symbol") && !stderr.contains("refused"), "\(stderr)")
  }
}
