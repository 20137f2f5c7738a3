import Emulators
import Foundation
import Testing
import TickerSupport

@testable import Recording
@testable import TestSupport
@testable import WebSocketWire

/// The built binary following several venues at once, each against FeedServer's emulation of it
/// (`--url VENUE=URL`): every price under its own venue, and one venue refusing, dropping or going
/// silent while the others go on.
@Suite("ticker following several venues at once")
struct MultiVenueEndToEndTests {
  static let environment = TickerProcess.cleanEnvironment()
  static let normalEnd = ConnectionPlan.Ending.close(CloseStatus(code: .normalClosure, reason: "done"))

  /// The venue's emulator playing its recorded session, in real time (a synthetic ending trades
  /// at its interval) but with no pause longer than 50 ms.
  static func serve(_ venue: VenueEmulation, ending: ConnectionPlan.Ending, plans: [ConnectionPlan] = [])
    throws
    -> FeedServer
  {
    let server = try FeedServer(
      script: VenueEndToEndTests.fixture(venue),
      options: .init(maximumDelay: 0.05, emulation: .venue(venue), ending: ending, plans: plans))
    server.start()
    return server
  }

  /// The three venues' symbols and endpoints.
  static func arguments(binance: FeedServer, coinbase: FeedServer, upbit: FeedServer) -> [String] {
    [
      "--symbol", "binance/btcusdt", "--symbol", "coinbase/btc-usd", "--symbol", "upbit/krw-btc",
      "--url", "binance=\(binance.url)", "--url", "coinbase=\(coinbase.url)", "--url", "upbit=\(upbit.url)",
      "--every-trade",
    ]
  }

  /// The lines of one venue, without the venue column.
  static func lines(of venue: String, in lines: [String]) -> [String] {
    lines.compactMap { line in
      var fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      guard fields.count == 4, fields[1] == venue else { return nil }
      fields.remove(at: 1)
      return fields.joined(separator: "\t")
    }
  }

  @Test("three venues' recorded sessions at once: each venue's prices exactly, each under its own name")
  func threeRecordedSessions() async throws {
    let binance = try Self.serve(.binance, ending: Self.normalEnd)
    let coinbase = try Self.serve(.coinbase, ending: Self.normalEnd)
    let upbit = try Self.serve(.upbit, ending: Self.normalEnd)
    defer { [binance, coinbase, upbit].forEach { $0.stop() } }
    let result = try await TickerProcess.run(
      Self.arguments(binance: binance, coinbase: coinbase, upbit: upbit), environment: Self.environment)
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdoutLines
    // What the one-venue runs print (VenueEndToEndTests), each under its venue, and nothing else.
    #expect(Self.lines(of: "binance", in: lines) == ["2026-09-14T16:52:56.250Z\tBTCUSDT\t78860.00000000"])
    #expect(Self.lines(of: "coinbase", in: lines) == ["2026-08-25T03:35:57.198Z\tBTC-USD\t80691.53"])
    #expect(
      Self.lines(of: "upbit", in: lines) == [
        "2026-02-16T13:16:54.642Z\tKRW-BTC\t103160000.0", "2026-02-16T13:16:55.101Z\tKRW-BTC\t103156000",
      ])
    #expect(lines.count == 4, "\(lines)")
    for server in [binance, coinbase, upbit] {
      #expect(server.record.connections == 1)
      #expect(server.record.violations.isEmpty, "\(server.record.violations)")
    }
    // Each server was asked for its own symbol only.
    #expect(binance.record.subscriptions.allSatisfy { $0.subscribed == ["btcusdt@trade"] })
    #expect(coinbase.record.subscriptions.allSatisfy { $0.subscribed == ["BTC-USD"] })
  }

  @Test("a venue refusing the connection (HTTP 451) is reported as that venue's; the others print to --count")
  func oneRefuses() async throws {
    let binance = try Self.serve(
      .binance, ending: Self.normalEnd,
      plans: [
        .init(
          handshake: .refuse(status: 451, reason: "Unavailable For Legal Reasons", retryAfter: nil),
          ending: .drop)
      ])
    let coinbase = try Self.serve(.coinbase, ending: .synthetic(seed: 1, interval: 0.02))
    let upbit = try Self.serve(.upbit, ending: .synthetic(seed: 2, interval: 0.02))
    defer { [binance, coinbase, upbit].forEach { $0.stop() } }
    let result = try await TickerProcess.run(
      Self.arguments(binance: binance, coinbase: coinbase, upbit: upbit) + ["--count", "60"],
      environment: Self.environment)
    let lines = result.stdoutLines
    #expect(lines.count == 60)
    #expect(Self.lines(of: "binance", in: lines).isEmpty)
    #expect(!Self.lines(of: "coinbase", in: lines).isEmpty)
    #expect(!Self.lines(of: "upbit", in: lines).isEmpty)
    #expect(result.stderr.contains("ticker: error: Binance: "), "\(result.stderr)")
    #expect(result.stderr.contains("HTTP 451"), "\(result.stderr)")
    // The failed venue's exit code, though the others reached --count (as the one-venue run: 76).
    #expect(result.status == 76, "\(result.stderr)")
    #expect(binance.record.connections == 1)
  }

  @Test("a venue dropping its connection reconnects on its own; the others never notice")
  func oneDrops() async throws {
    let binance = try Self.serve(
      .binance, ending: .synthetic(seed: 3, interval: 0.02),
      plans: [.init(ending: .drop), .init(ending: .synthetic(seed: 3, interval: 0.02))])
    let coinbase = try Self.serve(.coinbase, ending: .synthetic(seed: 1, interval: 0.02))
    let upbit = try Self.serve(.upbit, ending: .synthetic(seed: 2, interval: 0.02))
    defer { [binance, coinbase, upbit].forEach { $0.stop() } }
    let result = try await TickerProcess.run(
      Self.arguments(binance: binance, coinbase: coinbase, upbit: upbit) + [
        "--count", "150", "--max-backoff", "0.2",
      ], environment: Self.environment)
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdoutLines
    #expect(lines.count == 150)
    for venue in ["binance", "coinbase", "upbit"] {
      #expect(!Self.lines(of: venue, in: lines).isEmpty, "no \(venue) line: \(lines)")
    }
    #expect(result.stderr.contains("ticker: warning: Binance: "), "\(result.stderr)")
    #expect(binance.record.connections >= 2)
    #expect(coinbase.record.connections == 1)
    #expect(upbit.record.connections == 1)
  }

  @Test("a venue gone silent is found out and reconnected; the others print on")
  func oneSilent() async throws {
    let binance = try Self.serve(.binance, ending: .synthetic(seed: 3, interval: 0.05))
    let coinbase = try Self.serve(.coinbase, ending: .unresponsive)
    let upbit = try Self.serve(.upbit, ending: .synthetic(seed: 2, interval: 0.05))
    defer { [binance, coinbase, upbit].forEach { $0.stop() } }
    let ticker = try RunningTicker(
      Self.arguments(binance: binance, coinbase: coinbase, upbit: upbit) + [
        "--timestamps", "received", "--silence-timeout", "2", "--max-backoff", "0.2",
      ], environment: Self.environment)
    #expect(await eventually { coinbase.record.connections >= 2 })
    let reconnected = Int64(Date().timeIntervalSince1970 * 1000)
    // Quotes the ticker received after the silent venue's reconnect, from both of the others.
    var later: Set<String> = []
    var read = 0
    while !later.isSuperset(of: ["binance", "upbit"]), read < 2000 {
      let lines = await ticker.lines(read + 20)
      guard lines.count > read else { break }
      for line in lines[read...] {
        let fields = line.split(separator: "\t").map(String.init)
        guard fields.count == 4, let time = RFC3339.milliseconds(fields[0]) else { continue }
        if time > reconnected { later.insert(fields[1]) }
      }
      read = lines.count
    }
    #expect(later.contains("binance") && later.contains("upbit"), "\(later)")
    ticker.signal(SIGINT)
    // Read on to the end: prices still on their way must not find the pipe full.
    _ = await offPool { ticker.allLines() }
    let (status, stderr) = await ticker.exit()
    #expect(status == 130, "\(stderr)")
    #expect(stderr.contains("ticker: warning: Coinbase: "), "\(stderr)")
    // How often the others reconnected is not asserted: a machine starved for longer than the
    // silence timeout makes any venue look silent. That they printed on is what is checked.
  }

  @Test("--control stdin: a qualified symbol goes to its venue; a venue not in the run changes nothing")
  func control() async throws {
    let binance = try Self.serve(.binance, ending: .hold)
    let coinbase = try Self.serve(.coinbase, ending: .hold)
    defer { [binance, coinbase].forEach { $0.stop() } }
    let ticker = try RunningTicker(
      [
        "--symbol", "binance/btcusdt", "--symbol", "coinbase/btc-usd", "--url", "binance=\(binance.url)",
        "--url", "coinbase=\(coinbase.url)", "--every-trade", "--control", "stdin",
      ], environment: Self.environment, stdin: true)
    #expect(await eventually { coinbase.record.subscriptions.last?.subscribed == ["BTC-USD"] })
    ticker.send("+coinbase/ETH-USD,binance/ethusdt\n+kraken/BTC/USD\n")
    #expect(await eventually { coinbase.record.subscriptions.last?.subscribed == ["BTC-USD", "ETH-USD"] })
    #expect(
      await eventually {
        binance.record.subscriptions.last?.subscribed == ["btcusdt@trade", "ethusdt@trade"]
      })
    #expect(await eventually { ticker.stderrSoFar.contains("this run does not follow kraken") })
    ticker.send("=binance/btcusdt\n")
    #expect(await eventually { coinbase.record.subscriptions.last?.subscribed == [] })
    #expect(await eventually { binance.record.subscriptions.last?.subscribed == ["btcusdt@trade"] })
    ticker.signal(SIGINT)
    let (status, stderr) = await ticker.exit()
    #expect(status == 130, "\(stderr)")
    #expect(binance.record.violations.isEmpty, "\(binance.record.violations)")
    #expect(coinbase.record.violations.isEmpty, "\(coinbase.record.violations)")
  }

  @Test("--asset BTC --demo: every venue's main market (the demo needs no key), each won venue's KRW-USDT")
  func assetDemo() async throws {
    let result = try await TickerProcess.run(
      ["--demo", "--asset", "BTC", "--format", "json", "--count", "200", "--every-trade", "--verbose"],
      environment: Self.environment)
    #expect(result.status == 0, "\(result.stderr)")
    var seen: [String: Set<String>] = [:]
    for line in result.stdoutLines {
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
      let provider = try #require(object["provider"] as? String)
      let symbol = try #require(object["symbol"] as? String)
      seen[provider, default: []].insert(symbol)
    }
    // Each keyless venue of the catalog, with its main market and its conversion pairs.
    for member in AssetMarkets.members() {
      #expect(seen[member.provider.name]?.contains(member.main) == true, "\(member.provider.name): \(seen)")
      #expect(seen[member.provider.name, default: []].isSubset(of: [member.main] + member.pairs), "\(seen)")
    }
    #expect(Set(seen.keys) == Set(AssetMarkets.members().map(\.provider.name)), "\(seen)")
    #expect(seen["finnhub"] == ["BINANCE:BTCUSDT"], "the demo needs no token, Finnhub's neither")
    #expect(
      result.stderr.contains("ticker: Upbit: connected; subscribed to KRW-BTC, KRW-USDT"), "\(result.stderr)")
  }

  @Test(
    "--asset BTC --demo --format json --spread: spread and premium records agree with the prices before them")
  func spreadRecords() async throws {
    let count = 300
    let result = try await TickerProcess.run(
      ["--demo", "--asset", "BTC", "--format", "json", "--spread", "--every-trade", "--count", "\(count)"],
      environment: Self.environment)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(!result.stderr.contains("warning"), "\(result.stderr)")
    // Each venue's main market's currency, as --asset BTC follows them: the key is the provider,
    // or provider/SYMBOL for a venue that also follows a conversion pair.
    let members = AssetMarkets.members()
    let converting = Set(members.filter { !$0.pairs.isEmpty }.map(\.provider.name))
    func key(_ provider: String, _ symbol: String) -> String {
      converting.contains(provider) ? "\(provider)/\(symbol)" : provider
    }
    let quotes = Dictionary(uniqueKeysWithValues: members.map { (key($0.provider.name, $0.main), $0.quote) })
    let usdtVenues = members.filter { $0.quote == "USDT" }.map(\.provider.name)
    var last: [String: Decimal] = [:]  // key → last price
    var previous: String?  // what the line before a record was
    var records: [String: Int] = [:]
    var prices = 0
    for line in result.stdoutLines {
      // Parsed with the numbers' text kept exactly: JSONSerialization's doubles would round them.
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
      guard let type = object["type"] as? String else {
        let provider = try #require(object["provider"] as? String)
        let symbol = try #require(object["symbol"] as? String)
        let price = try #require(Self.exact(line, "price"))
        last[key(provider, symbol)] = price
        previous = key(provider, symbol)
        prices += 1
        continue
      }
      records[type, default: 0] += 1
      #expect(previous != nil, "a record before any price: \(line)")
      switch type {
      case "spread":
        let quote = try #require(object["quote"] as? String)
        #expect(object["asset"] as? String == "BTC")
        let group = quotes.filter { $0.value == quote }.keys.compactMap { key in last[key].map { (key, $0) } }
        let high = try #require(Self.exact(line, "high"))
        let low = try #require(Self.exact(line, "low"))
        #expect(high == group.map(\.1).max() && low == group.map(\.1).min(), "\(line) after \(last)")
        // A venue's price in the group: its main market's.
        func price(of venue: String) -> Decimal? {
          members.first { $0.provider.name == venue }.flatMap { last[key(venue, $0.main)] }
        }
        #expect(price(of: try #require(object["highVenue"] as? String)) == high, "\(line)")
        #expect(price(of: try #require(object["lowVenue"] as? String)) == low, "\(line)")
        #expect(Self.exact(line, "spread") == high - low, "\(line)")
        #expect(object["venues"] as? Int == group.count)
        // It follows a price that changed it: one of its currency's.
        #expect(previous.map { quotes[$0] == quote } == true, "\(line) after a price of \(previous ?? "-")")
      case "premium":
        let price = try #require(Self.exact(line, "price"))
        let rate = try #require(Self.exact(line, "rate"))
        let venue = try #require(object["venue"] as? String, "\(line)")
        let member = try #require(members.first { $0.provider.name == venue }, "\(line)")
        #expect(
          price == last[key(venue, member.main)] && rate == last[key(venue, member.pairs[0])],
          "\(line) after \(last)")
        let usdt = usdtVenues.compactMap { last[$0] }.sorted()
        let middle = usdt.count / 2
        let median = usdt.count % 2 == 1 ? usdt[middle] : (usdt[middle - 1] + usdt[middle]) / 2
        #expect(Self.exact(line, "reference") == median, "\(line)")
        #expect(object["referenceVenues"] as? Int == usdt.count)
        let exact = (price / rate - median) / median * 100
        let percent = try #require(Self.exact(line, "percent"))
        #expect(abs(NSDecimalNumber(decimal: exact - percent).doubleValue) <= 0.005, "\(line): \(exact)")
        #expect(object["rateSymbol"] as? String == "KRW-USDT" && (object["rateAge"] as? Int ?? -1) >= 0)
        #expect(
          previous.map { $0.hasPrefix(venue + "/") || usdtVenues.contains($0) } == true,
          "\(line) after a price of \(previous ?? "-")")
      default:
        Issue.record("an unknown record: \(line)")
      }
    }
    #expect(prices == count, "--count counts price lines")
    #expect((records["spread"] ?? 0) > 0 && (records["premium"] ?? 0) > 0, "\(records)")
  }

  /// The exact text of a number in a JSON line, as a `Decimal`.
  static func exact(_ line: String, _ key: String) -> Decimal? {
    guard let start = line.range(of: "\"\(key)\":") else { return nil }
    let text = line[start.upperBound...].prefix { "-0123456789.".contains($0) }
    return Decimal(string: String(text), locale: Locale(identifier: "en_US_POSIX"))
  }

  @Test(
    "settings that cannot work with several venues are refused before connecting (exit 64)",
    arguments: [
      (["--url", "ws://127.0.0.1:1"], "a plain --url cannot say which"),
      (["--url", "kraken=ws://127.0.0.1:1"], "this run does not follow kraken"),
      (["--format", "price"], "--format price prints bare numbers"),
      (["--until", "kraken/BTC/USD>1"], "this run does not follow kraken"),
      (["--until", "coinbase/ETH-USD>1"], "coinbase/ETH-USD is not followed"),
      (["--symbol", "coinbase/BTCUSDT"], "is not a Coinbase symbol"),
    ])
  func refused(extra: [String], message: String) async throws {
    let result = try await TickerProcess.run(
      ["--symbol", "binance/btcusdt", "--symbol", "coinbase/btc-usd"] + extra, environment: Self.environment)
    #expect(result.status == 64, "\(result.stderr)")
    #expect(result.stderr.contains(message), "\(result.stderr)")
    #expect(result.stdout.isEmpty)
  }
}
