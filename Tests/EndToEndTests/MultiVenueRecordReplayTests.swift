import Emulators
import Foundation
import Testing
import TickerSupport

@testable import Recording
@testable import TestSupport

/// `--record` and `--replay` of a run of several venues, end to end: three emulated venues
/// (`--url VENUE=URL`) recorded into one file, whose replay prints every venue's lines exactly as
/// the live run did.
@Suite("record and replay of several venues", .serialized)
struct MultiVenueRecordReplayTests {
  /// The three venues' recorded sessions, each closed with 1000 at its end (the run exits 0).
  static func servers() throws -> [FeedServer] {
    try [.binance, .coinbase, .upbit].map {
      try MultiVenueEndToEndTests.serve($0, ending: MultiVenueEndToEndTests.normalEnd)
    }
  }

  static func record(_ extra: [String]) async throws -> (TickerProcess.Result, String) {
    let servers = try servers()
    defer { servers.forEach { $0.stop() } }
    let path = RecordReplayTests.temporaryFile("venues.ndjson")
    let arguments = Array(
      MultiVenueEndToEndTests.arguments(binance: servers[0], coinbase: servers[1], upbit: servers[2])
        .dropLast())  // its --every-trade: each test says how it filters
    let live = try await TickerProcess.run(
      arguments + ["--record", path] + extra, environment: MultiVenueEndToEndTests.environment)
    for server in servers { #expect(server.record.connections == 1) }
    return (live, path)
  }

  /// What a replay must print of a live run: each venue's lines exactly, in order, and no other
  /// line. How lines of different venues interleave follows the order their frames were
  /// recorded in, which thread timing may have made differ from the live printing order by a
  /// line or two (docs/recording.md says so): the whole output is compared as a multiset.
  static func expectSameLines(_ replayed: [String], _ live: [String]) {
    for venue in ["binance", "coinbase", "upbit"] {
      #expect(
        MultiVenueEndToEndTests.lines(of: venue, in: replayed)
          == MultiVenueEndToEndTests.lines(of: venue, in: live), "\(venue)")
    }
    #expect(replayed.sorted() == live.sorted())
  }

  @Test(
    "a three-venue run recorded into one file replays every venue's lines byte for byte, at any speed",
    arguments: ["max", "1"])
  func threeVenues(speed: String) async throws {
    let (live, path) = try await Self.record(["--every-trade"])
    #expect(live.status == 0, "\(live.stderr)")
    #expect(live.stdoutLines.count == 4, "\(live.stdoutLines)")
    let lines = try RecordReplayTests.lines(path)
    // One header naming the three venues; every other line says whose it is.
    #expect(lines[0].hasPrefix(#"{"kind":"recording","format":2,"venues":[{"provider":"binance""#))
    #expect(lines.filter { $0.hasPrefix(#"{"kind":"recording""#) }.count == 1)
    #expect(lines.dropFirst().allSatisfy { $0.contains(#""venue":"#) })
    for venue in 0..<3 {
      #expect(
        lines.contains { $0.contains(#""kind":"end","after_ms""#) && $0.contains(#""venue":\#(venue),"#) })
    }
    let replayed = try await RecordReplayTests.replay(path, ["--speed", speed, "--every-trade"])
    #expect(replayed.status == 0, "\(replayed.stderr)")
    Self.expectSameLines(replayed.stdoutLines, live.stdoutLines)
  }

  @Test("with the debounce, JSON lines and a venue's --alert, each venue's lines replay the same")
  func debouncedJSON() async throws {
    let (live, path) = try await Self.record(["--format", "json", "--alert", "upbit/KRW-BTC>1"])
    #expect(live.status == 0, "\(live.stderr)")
    let replayed = try await RecordReplayTests.replay(
      path, ["--speed", "max", "--format", "json", "--alert", "upbit/KRW-BTC>1"])
    #expect(replayed.status == 0, "\(replayed.stderr)")
    #expect(!live.stdoutLines.isEmpty)
    for venue in ["binance", "coinbase", "upbit"] {
      let tag = #""provider":"\#(venue)""#
      #expect(
        replayed.stdoutLines.filter { $0.contains(tag) } == live.stdoutLines.filter { $0.contains(tag) },
        "\(venue)")
    }
    #expect(replayed.stdoutLines.sorted() == live.stdoutLines.sorted())
  }

  @Test(
    "debounced venues trading on until Ctrl-C: their timers are recorded, each venue's lines replay the same")
  func debouncedUntilInterrupted() async throws {
    let servers = try [(VenueEmulation.binance, 3), (.coinbase, 1), (.upbit, 2)].map { venue, seed in
      try MultiVenueEndToEndTests.serve(venue, ending: .synthetic(seed: UInt64(seed), interval: 0.02))
    }
    defer { servers.forEach { $0.stop() } }
    let path = RecordReplayTests.temporaryFile("debounced.ndjson")
    let settings = ["--debounce", "0.05", "--format", "tsv"]
    let arguments = Array(
      MultiVenueEndToEndTests.arguments(binance: servers[0], coinbase: servers[1], upbit: servers[2])
        .dropLast())
    let ticker = try RunningTicker(
      arguments + settings + ["--record", path], environment: MultiVenueEndToEndTests.environment)
    _ = await ticker.lines(40)
    ticker.signal(SIGINT)
    // Read to the end: what the live run printed, the prices it held when interrupted included.
    let live = await offPool { ticker.allLines() }
    let (status, stderr) = await ticker.exit()
    #expect(status == 130, "\(stderr)")
    let recorded = try RecordReplayTests.lines(path)
    #expect(recorded.contains { $0.contains(#""kind":"tick""#) })
    let replayed = try await RecordReplayTests.replay(path, ["--speed", "max"] + settings)
    #expect(replayed.status == 0, "\(replayed.stderr)")
    Self.expectSameLines(replayed.stdoutLines, live)
  }

  @Test("recording several venues to a recording of others is refused (exit 73); the same venues append")
  func appending() async throws {
    let (first, path) = try await Self.record(["--every-trade"])
    #expect(first.status == 0, "\(first.stderr)")
    let before = try String(contentsOfFile: path, encoding: .utf8)
    let one = try await TickerProcess.run([
      "--demo", "--provider", "binance", "-s", "BTCUSDT", "--record", path, "--count", "1",
    ])
    #expect(one.status == 73, "\(one.stderr)")
    #expect(one.stderr.contains("it is a recording of binance, coinbase, upbit"), "\(one.stderr)")
    let two = try await TickerProcess.run([
      "--demo", "--symbol", "binance/BTCUSDT", "--symbol", "coinbase/BTC-USD", "--record", path, "--count",
      "1",
    ])
    #expect(two.status == 73, "\(two.stderr)")
    #expect(try String(contentsOfFile: path, encoding: .utf8) == before)

    let servers = try Self.servers()
    defer { servers.forEach { $0.stop() } }
    let again = try await TickerProcess.run(
      MultiVenueEndToEndTests.arguments(binance: servers[0], coinbase: servers[1], upbit: servers[2]) + [
        "--record", path,
      ], environment: MultiVenueEndToEndTests.environment)
    #expect(again.status == 0, "\(again.stderr)")
    let replayed = try await RecordReplayTests.replay(path, ["--speed", "max", "--every-trade"])
    #expect(replayed.status == 0, "\(replayed.stderr)")
    Self.expectSameLines(replayed.stdoutLines, first.stdoutLines + again.stdoutLines)
  }

  @Test("of a recording of several venues, --format price is a usage error (64)")
  func formatPrice() async throws {
    let (live, path) = try await Self.record(["--every-trade"])
    #expect(live.status == 0, "\(live.stderr)")
    let price = try await RecordReplayTests.replay(path, ["--format", "price"])
    #expect(price.status == 64, "\(price.stderr)")
    #expect(
      price.stderr.contains("which of the recording's venues (binance, coinbase, upbit)"), "\(price.stderr)")
    #expect(price.stdout.isEmpty)
  }

  @Test(
    "ticker serve --replay serves a recording of several venues: a qualified symbol gets its venue's trades",
    .requires(.pythonWebsockets))
  func served() async throws {
    let (live, path) = try await Self.record(["--every-trade"])
    #expect(live.status == 0, "\(live.stderr)")
    // Played at its recorded pace once the client subscribes: Upbit's two trades come after it.
    let serve = try await ServeRun.start(["--replay", path])
    let (python, opened) = try await serve.python()
    #expect(opened == "OPEN")
    python.send(subscribe("upbit/krw-btc"))
    var symbols: [String] = []
    while symbols.count < 2 {
      guard let line = await python.expect({ $0.contains(#""type":"trade""#) }) else { break }
      symbols += line.components(separatedBy: #""s":""#).dropFirst().map { String($0.prefix { $0 != "\"" }) }
    }
    #expect(symbols == ["upbit/KRW-BTC", "upbit/KRW-BTC"])
    // The recording's end ends serve (exit 0).
    let ended = await serve.process.exit()
    #expect(ended.status == 0, "\(ended.stderr)")
    await python.finish()
  }

  @Test("a recording of one venue keeps format 1, without venue fields")
  func oneVenueUnchanged() async throws {
    let path = RecordReplayTests.temporaryFile("one.ndjson")
    let run = try await TickerProcess.run([
      "--demo", "--provider", "binance", "-s", "BTCUSDT", "--record", path, "--count", "2",
    ])
    #expect(run.status == 0, "\(run.stderr)")
    let lines = try RecordReplayTests.lines(path)
    #expect(lines[0].hasPrefix(#"{"kind":"recording","format":1,"provider":"binance","symbols":["BTCUSDT"]"#))
    #expect(!lines.contains { $0.contains(#""venue""#) })
  }
}
