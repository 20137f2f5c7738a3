import Foundation
import TestSupport
import Testing
import Venues

/// `--bid-ask` as a user runs it: every venue's demo book, Finnhub refused, alerts on a side,
/// record and replay, the several-venue lines.
@Suite("--bid-ask end to end", .requires(.pythonWebsockets), .timeLimit(.minutes(3)))
struct BidAskEndToEndTests {
  /// A tsv row's bid and ask.
  static func levels(_ row: String) -> (bid: Price, ask: Price)? {
    let fields = row.split(separator: "\t", omittingEmptySubsequences: false)
    guard fields.count >= 6, let bid = Price(fields[2]), let ask = Price(fields[3]) else { return nil }
    return (bid, ask)
  }

  @Test("every venue but Finnhub has a top of book")
  func everyKeylessVenue() {
    #expect(ProviderCatalog.all.filter { $0.topOfBook == nil }.map(\.name) == ["finnhub"])
    for venue in ProviderCatalog.all {
      #expect(
        venue.topOfBook.map { $0.stream == .topOfBook && $0.name == venue.name } ?? true, "\(venue.name)")
    }
  }

  @Test(
    "each venue's demo keeps a book: every update a row, the bid below the ask",
    arguments: ProviderCatalog.all.filter { $0.topOfBook != nil }.map(\.name))
  func demoBook(venue: String) async throws {
    let result = try await TickerProcess.run([
      "--demo", "--provider", venue, "--bid-ask", "--every-trade", "--format", "tsv", "--count", "5",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let rows = result.stdoutLines
    #expect(rows.first == "time\tsymbol\tbid\task\tbid_size\task_size")
    #expect(rows.count == 6, "\(result.stdout)")
    for row in rows.dropFirst() {
      let levels = Self.levels(row)
      #expect(levels.map { $0.bid < $0.ask } == true, "\(row)")
    }
  }

  @Test("Finnhub has no bid/ask stream: refused with 64, saying which venues have one")
  func finnhubRefused() async throws {
    for flags in [["--demo", "--bid-ask"], ["--demo", "--bid-ask", "-s", "binance/BTCUSDT", "-s", "AAPL"]] {
      let result = try await TickerProcess.run(flags)
      #expect(result.status == 64, "\(result.stderr)")
      #expect(
        result.stderr.contains(
          "--bid-ask: Finnhub sends trades only, no best bid and ask; follow a venue that does"),
        "\(result.stderr)")
      #expect(result.stdout.isEmpty)
    }
    let price = try await TickerProcess.run([
      "--demo", "--provider", "binance", "--bid-ask", "--format", "price",
    ])
    #expect(
      price.status == 64 && price.stderr.contains("--format price prints one bare number"), "\(price.stderr)")
  }

  @Test("an alert names its side; --until on the bid ends the run; a side-less condition is refused")
  func alerts() async throws {
    let until = try await TickerProcess.run([
      "--demo", "--provider", "binance", "--bid-ask", "--every-trade", "--alert", "BTCUSDT.ask>1", "--until",
      "binance/BTCUSDT.bid>=1",
    ])
    #expect(until.status == 0, "\(until.stderr)")
    #expect(until.stdoutLines.count == 1, "\(until.stdout)")
    let fields = until.stdoutLines.first?.split(separator: "\t") ?? []
    #expect(fields.count == 4, "\(until.stdout)")
    if fields.count == 4 {
      #expect(until.stderr.contains("alert: BTCUSDT.ask>1: \(fields[3]) at "), "\(until.stderr)")
      #expect(until.stderr.contains("alert: BTCUSDT.bid>=1: \(fields[2]) at "), "\(until.stderr)")
    }
    let sideless = try await TickerProcess.run([
      "--demo", "--provider", "binance", "--bid-ask", "--alert", "BTCUSDT>1",
    ])
    #expect(sideless.status == 64 && sideless.stderr.contains("say which, as BTCUSDT.bid or BTCUSDT.ask"))
    let onTrades = try await TickerProcess.run([
      "--demo", "--provider", "binance", "--alert", "BTCUSDT.bid>1",
    ])
    #expect(onTrades.status == 64 && onTrades.stderr.contains("add --bid-ask"), "\(onTrades.stderr)")
  }

  @Test(
    "record and replay of quotes: the replay prints the live lines byte for byte, one venue and several",
    arguments: [
      ["--provider", "binance", "-s", "BTCUSDT,ETHUSDT", "--format", "json", "--count", "12"],
      [
        "--asset", "BTC", "--venues", "binance,okx,kraken", "--format", "tsv", "--count", "15",
        "--every-trade",
      ],
    ])
  func recordReplay(flags: [String]) async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "bidask-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("quotes.ndjson").path
    let live = try await TickerProcess.run(["--demo", "--bid-ask", "--record", file] + flags)
    #expect(live.status == 0, "\(live.stderr)")
    let header = try String(contentsOfFile: file, encoding: .utf8).prefix { $0 != "\n" }
    #expect(header.contains(#""stream":"top-of-book""#), "\(header)")
    let replay = try await TickerProcess.run(
      ["--replay", file, "--speed", "max"]
        + Self.dropValues(of: ["--provider", "-s", "--asset", "--venues"], in: flags))
    #expect(replay.status == 0, "\(replay.stderr)")
    #expect(live.stdoutLines.count >= 12)
    // serve's clients take Finnhub's trades: a recording of quotes is not served as trades.
    let served = try await TickerProcess.run(["serve", "--replay", file])
    #expect(served.status == 64 && served.stderr.contains("best bids and asks"), "\(served.stderr)")
    guard flags.contains("--asset") else {
      #expect(replay.stdout == live.stdout)
      return
    }
    // Several venues: each venue's lines are the live run's; only neighbours of two venues may
    // swap, so at the --count-th line one venue may have one line more and another one less.
    #expect(replay.stdoutLines.count == live.stdoutLines.count)
    for venue in ["binance", "okx", "kraken"] {
      let mine = { (lines: [String]) in
        lines.filter { $0.split(separator: "\t").dropFirst().first == Substring(venue) }
      }
      let (a, b) = (mine(live.stdoutLines), mine(replay.stdoutLines))
      #expect(a.starts(with: b) || b.starts(with: a), "\(venue): \(a) against \(b)")
      #expect(abs(a.count - b.count) <= 1)
    }
  }

  @Test("--control stdin adds and removes book subscriptions while the quotes flow")
  func control() async throws {
    let ticker = try RunningTicker(
      [
        "--demo", "--provider", "binance", "-s", "BTCUSDT", "--bid-ask", "--every-trade", "--control",
        "stdin",
      ],
      environment: TickerProcess.cleanEnvironment(), stdin: true)
    #expect(await ticker.lines(1).first?.split(separator: "\t").dropFirst().first == "BTCUSDT")
    ticker.send("+ETHUSDT\n-BTCUSDT\n")
    #expect(
      await eventually {
        ticker.allLines().contains { $0.split(separator: "\t").dropFirst().first == "ETHUSDT" }
      }, "\(ticker.stderrSoFar)")
    ticker.signal(SIGINT)
    let (status, stderr) = await ticker.exit()
    #expect(status == 130, "\(stderr)")
    let eth = ticker.allLines().filter { $0.split(separator: "\t").dropFirst().first == "ETHUSDT" }
    #expect(eth.allSatisfy { $0.split(separator: "\t").count == 4 }, "\(eth)")
  }

  /// `flags` without the given options and their values.
  static func dropValues(of options: Set<String>, in flags: [String]) -> [String] {
    var out: [String] = []
    var skip = false
    for flag in flags {
      if skip {
        skip = false
      } else if options.contains(flag) {
        skip = true
      } else {
        out.append(flag)
      }
    }
    return out
  }
}
