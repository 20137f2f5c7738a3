import CLI
import Emulators
import FeedRuntime
import Foundation
import Outputs
import Testing
import Venues

@testable import Recording
@testable import TestSupport
@testable import WebSocketWire

/// `--record` and `--replay`, end to end: the built ticker against FeedServer records what it
/// receives, and the replay of that recording prints exactly what the live run printed, byte for
/// byte, at any speed; broken and foreign files are refused with the documented exit codes.
@Suite("record and replay")
struct RecordReplayTests {
  static let token = "sk-record-token-4242"
  static let symbols = ["AAPL", "BINANCE:BTCUSDT", "MSFT"]

  /// Trades of three symbols at gaps around the default debounce (0.5 s): bursts, quiet spells,
  /// a steady 60 ms stream (longer than max-wait), repeated prices (dedupe) and a trade older
  /// than the one before it (stale). About 2.7 s.
  static func script() throws -> SessionScript {
    let gaps = [0, 30, 80, 200, 450, 520, 10, 5, 60, 60, 60, 60, 60, 60, 60, 60, 300, 40, 610, 15]
    var time: Int64 = 1_768_655_000_000
    var steps: [SessionScript.Step] = []
    for (index, gap) in gaps.enumerated() {
      var trades: [String] = []
      for k in 0..<(1 + index % 3) {
        let symbol = symbols[(index * 7 + k) % 3]
        let price = 100 + (index * 13 + k * 5) % 4
        time += Int64(gap + k)
        let t = index % 5 == 4 && k == 0 ? time - 40 : time
        trades.append(#"{"c":null,"p":\#(price).5,"s":"\#(symbol)","t":\#(t),"v":0.01}"#)
      }
      steps.append(
        .init(
          direction: .server, kind: .text, afterMilliseconds: gap,
          body: #"{"data":[\#(trades.joined(separator: ","))],"type":"trade"}"#))
    }
    return SessionScript(steps: steps)
  }

  /// FeedServer playing `script()` in real time; the first connection is dropped after it (the
  /// ticker reconnects), the second closed with 1000 (the ticker exits 0).
  static func server(reconnect: Bool = true) throws -> FeedServer {
    let close = ConnectionPlan(ending: .close(CloseStatus(code: .normalClosure, reason: "done")))
    let server = try FeedServer(
      script: try script(),
      options: .init(
        timeScale: 1, awaitSubscriptions: symbols.count,
        plans: reconnect ? [ConnectionPlan(ending: .drop), close] : [close]))
    server.start()
    return server
  }

  static func temporaryFile(_ name: String) -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "ticker-record-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir.appendingPathComponent(name).path
  }

  static func environment() -> [String: String] {
    TickerProcess.cleanEnvironment(["FINNHUB_TOKEN": token])
  }

  /// A live run with `--record`, against `server()`.
  static func recordLive(_ arguments: [String], reconnect: Bool = true) async throws -> (
    TickerProcess.Result, String
  ) {
    let server = try server(reconnect: reconnect)
    defer { server.stop() }
    let path = temporaryFile("live.ndjson")
    let live = try await TickerProcess.run(
      [
        "--url", "ws://127.0.0.1:\(server.port)/", "-s", symbols.joined(separator: ","), "--record", path,
        "--max-backoff", "0.1",
      ] + arguments, environment: environment())
    return (live, path)
  }

  static func replay(_ path: String, _ arguments: [String]) async throws -> TickerProcess.Result {
    try await TickerProcess.run(
      ["--replay", path] + arguments, environment: TickerProcess.cleanEnvironment())
  }

  static func lines(_ path: String) throws -> [String] {
    try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
  }

  /// One format: what `--record` writes, a server plays (the emulator), and what a server plays,
  /// `--replay` prints when its header names the venue.
  @Test("the emulator serves a --record recording: a ticker against it prints what its replay prints")
  func emulatorPlaysARecording() async throws {
    let path = Self.temporaryFile("demo.ndjson")
    let recorded = try await TickerProcess.run(
      ["--demo", "--every-trade", "--count", "20", "--record", path],
      environment: TickerProcess.cleanEnvironment())
    #expect(recorded.status == 0, "\(recorded.stderr)")
    let replayed = try await Self.replay(path, ["--speed", "max", "--every-trade", "--count", "20"])
    #expect(replayed.stdoutLines == recorded.stdoutLines)

    let server = try FeedServer(
      script: SessionScript(ndjson: try String(contentsOfFile: path, encoding: .utf8)),
      options: .init(timeScale: 0, awaitSubscriptions: 1))
    server.start()
    defer { server.stop() }
    let served = try await TickerProcess.run(
      ["--url", "ws://127.0.0.1:\(server.port)/", "-s", "BINANCE:BTCUSDT", "--every-trade", "--count", "20"],
      environment: Self.environment())
    #expect(served.status == 0, "\(served.stderr)")
    #expect(served.stdoutLines == recorded.stdoutLines)
  }

  @Test("--replay prints a server's script whose header names the venue: the recorded Finnhub session")
  func replayOfAScript() async throws {
    let result = try await Self.replay(
      Fixture.directory.appendingPathComponent("finnhub-session.ndjson").path,
      ["--speed", "max", "--every-trade"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdoutLines == [
        "2026-01-17T13:18:52.976Z\tBINANCE:BTCUSDT\t95372.09",
        "2026-01-17T13:18:53.296Z\tBINANCE:BTCUSDT\t95372.1",
        "2026-01-17T13:18:53.296Z\tBINANCE:BTCUSDT\t95372.1",
        "2026-01-17T13:18:53.402Z\tBINANCE:BTCUSDT\t95371.85",
        "2026-01-17T13:18:53.390Z\tBINANCE:BTCUSDT\t95371.9", "2026-01-17T13:18:53.500Z\tAAPL\t122.1",
        "2026-01-17T13:18:53.501Z\tAAPL\t122.09", "2026-01-17T13:18:53.510Z\tBINANCE:BTCUSDT\t95372.3",
        "2026-01-17T13:19:21.000Z\tBINANCE:BTCUSDT\t95380",
      ])
  }

  @Test(
    "a live run and the replay of its recording print the same bytes",
    arguments: [[], ["--debounce", "0"], ["--every-trade"], ["--format", "json"]])
  func roundTrip(_ settings: [String]) async throws {
    let (live, path) = try await Self.recordLive(settings)
    #expect(live.status == 0, "stderr: \(live.stderr)")
    #expect(!live.stdout.isEmpty)
    let recording = try Self.lines(path)
    #expect(recording.first?.hasPrefix(#"{"kind":"recording","format":1,"provider":"finnhub","#) == true)
    #expect(recording.first?.contains(#""symbols":["AAPL","BINANCE:BTCUSDT","MSFT"]"#) == true)
    #expect(recording.filter { $0.contains(#""kind":"connected""#) }.count == 2)
    #expect(recording.contains { $0.contains(#""kind":"disconnected""#) })
    #expect(recording.last?.contains(#""kind":"end""#) == true)
    #expect(!recording.joined().contains(Self.token))
    let replayed = try await Self.replay(path, ["--speed", "max"] + settings)
    #expect(replayed.status == 0, "stderr: \(replayed.stderr)")
    #expect(replayed.stdout == live.stdout)
  }

  @Test("ticker serve --replay plays a recording to a client from its start: the trades a replay prints")
  func servedReplay() async throws {
    let (live, path) = try await Self.recordLive(["--every-trade"], reconnect: false)
    #expect(live.status == 0, "stderr: \(live.stderr)")
    // What a replay prints of one symbol, every trade, as tab-separated fields.
    let replayed = try await Self.replay(path, ["--speed", "max", "--every-trade", "--format", "tsv"])
    #expect(replayed.status == 0, "stderr: \(replayed.stderr)")
    let symbol = "BINANCE:BTCUSDT"
    let expected = replayed.stdout.split(separator: "\n").map(String.init).filter {
      $0.split(separator: "\t").contains { $0 == symbol }
    }
    #expect(expected.count >= 3)
    // Served at maximum speed: the recording plays once the first client subscribes, so a
    // client of one symbol gets all of it.
    let serve = try await ServeRun.start(["--replay", path, "--speed", "max"])
    let client = try RunningTicker(
      [
        "--url", serve.url, "-s", symbol, "--every-trade", "--format", "tsv", "--count", "\(expected.count)",
      ], environment: TickerProcess.cleanEnvironment(["FINNHUB_TOKEN": "anything"]))
    let got = await client.lines(expected.count + 1)
    // Its header line, then exactly the replay's lines of that symbol.
    let header = replayed.stdout.split(separator: "\n").first.map(String.init)
    #expect(got.first == header)
    #expect(Array(got.dropFirst()) == expected, "\(got)")
    #expect(await client.exit().status == 0)
    // The recording's end ends serve: its clients are told, and it exits 0.
    let ended = await serve.process.exit()
    #expect(ended.status == 0, "\(ended.stderr)")
    #expect(ended.stderr.contains("end of the recording"), "\(ended.stderr)")
  }

  @Test("ticker serve --record records the upstream as served: its replay begins with what a client got")
  func servedRecording() async throws {
    let path = Self.temporaryFile("served.ndjson")
    let serve = try await ServeRun.start(["--demo", "--record", path])
    let symbol = "BINANCE:BTCUSDT"
    let client = try RunningTicker(
      ["--url", serve.url, "-s", symbol, "--every-trade", "--format", "tsv", "--count", "5"],
      environment: TickerProcess.cleanEnvironment(["FINNHUB_TOKEN": "anything"]))
    let got = await client.lines(6)
    #expect(got.count == 6)
    #expect(await client.exit().status == 0)
    serve.process.signal(SIGINT)
    let ended = await serve.process.exit()
    #expect(ended.status == 130, "\(ended.stderr)")
    let recording = try Self.lines(path)
    #expect(recording.first?.contains(#""symbols":[]"#) == true)
    #expect(recording.contains { $0.contains(#""kind":"command""#) && $0.contains(symbol) })
    // The replay prints every trade the upstream sent while the client followed the symbol:
    // the client's five first, then any that arrived before its unsubscribe went upstream.
    let replayed = try await Self.replay(path, ["--speed", "max", "--every-trade", "--format", "tsv"])
    #expect(replayed.status == 0, "stderr: \(replayed.stderr)")
    let lines = replayed.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count >= got.count)
    #expect(Array(lines.prefix(got.count)) == got, "\(lines)")
  }

  @Test("at a speed that waits, the replay prints the same", arguments: ["1", "4"])
  func pacedReplay(_ speed: String) async throws {
    let (live, path) = try await Self.recordLive(["--format", "json"], reconnect: false)
    #expect(live.status == 0, "stderr: \(live.stderr)")
    let replayed = try await Self.replay(path, ["--speed", speed, "--format", "json"])
    #expect(replayed.status == 0, "stderr: \(replayed.stderr)")
    #expect(replayed.stdout == live.stdout)
    #expect(!replayed.stdout.isEmpty)
  }

  @Test("subscription changes while running are recorded and replayed")
  func controlChangesReplay() async throws {
    // The server holds the connection after the script: the ticker runs until it is told to stop,
    // so the control line always finds it alive.
    let server = try FeedServer(
      script: try Self.script(),
      options: .init(
        timeScale: 1, awaitSubscriptions: Self.symbols.count, plans: [ConnectionPlan(ending: .hold)]))
    server.start()
    defer { server.stop() }
    let path = Self.temporaryFile("control.ndjson")
    let ticker = try RunningTicker(
      [
        "--url", "ws://127.0.0.1:\(server.port)/", "-s", Self.symbols.joined(separator: ","), "--record",
        path,
        "--control", "stdin", "--debounce", "0",
      ], environment: Self.environment(), stdin: true)
    _ = await ticker.lines(2)
    ticker.send("-MSFT\n")
    #expect(await eventually { ticker.stderrSoFar.contains("unsubscribed from MSFT") })
    _ = await ticker.lines(5)  // and some after it
    ticker.signal(SIGINT)
    let end = await ticker.exit()
    #expect(end.status == 130, "stderr: \(end.stderr)")
    let recording = try Self.lines(path)
    #expect(recording.contains { $0.contains(#""kind":"control","#) && $0.contains(#""line":"-MSFT""#) })
    let replayed = try await Self.replay(path, ["--speed", "max", "--debounce", "0"])
    #expect(replayed.status == 0)
    #expect(!replayed.stdoutLines.isEmpty)
    // Everything the live run printed (its stdout is still in the pipe): the same lines.
    let live = await ticker.lines(replayed.stdoutLines.count)
    #expect(live == replayed.stdoutLines)
  }

  @Test("Upbit's binary frames round trip, and one that is not UTF-8 travels as base64")
  func binaryFrames() async throws {
    // The recorded Upbit tickers (binary frames holding JSON), with a binary frame of 4 bytes
    // that are not UTF-8 between them (the decoder reports it; the recording keeps it), then a
    // close with 1000.
    let fixture = try VenueTest.fixture("upbit")
    let tickers = fixture.steps.filter { $0.kind == .binary && $0.body.contains("\"ty\":\"ticker\"") }
    #expect(tickers.count == 2)
    let script = SessionScript(
      steps: [
        tickers[0], .init(direction: .server, kind: .raw, afterMilliseconds: 5, body: "82 04 ff fe 00 41"),
      ]
        + tickers.dropFirst()
        + [.init(direction: .server, kind: .close, afterMilliseconds: 100, body: "1000")])
    let server = try FeedServer(
      script: script,
      options: .init(timeScale: 0.2, emulation: .verbatim, ending: .close(CloseStatus(code: .normalClosure))))
    server.start()
    defer { server.stop() }
    let path = Self.temporaryFile("upbit.ndjson")
    let live = try await TickerProcess.run(
      [
        "--provider", "upbit", "--url", "ws://127.0.0.1:\(server.port)/websocket/v1", "--record", path,
        "--every-trade",
      ],
      environment: TickerProcess.cleanEnvironment())
    #expect(live.status == 0, "stderr: \(live.stderr)")
    #expect(!live.stdout.isEmpty)
    let recording = try Self.lines(path)
    #expect(recording.first?.contains(#""provider":"upbit""#) == true)
    #expect(recording.contains { $0.contains(#""kind":"binary""#) && $0.contains(#""body":"{\"ty\":"#) })
    #expect(recording.contains { $0.contains(#""encoding":"base64","body":"//4AQQ==""#) })
    let replayed = try await Self.replay(path, ["--speed", "max", "--every-trade"])
    #expect(replayed.status == 0, "stderr: \(replayed.stderr)")
    #expect(replayed.stdout == live.stdout)
  }

  // MARK: Broken, foreign and missing files

  /// A recording of the live script (every trade, so each line of the file can print).
  static func everyTradeRecording() async throws -> (String, [String]) {
    let (live, path) = try await recordLive(["--every-trade"], reconnect: false)
    #expect(live.status == 0, "stderr: \(live.stderr)")
    return (path, try lines(path))
  }

  static func write(_ lines: [String], to name: String, newline: Bool = true) throws -> String {
    let path = temporaryFile(name)
    try (lines.joined(separator: "\n") + (newline ? "\n" : "")).write(
      toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  @Test("a cut-off last line: what comes before is printed, then line N is named, exit 65")
  func truncated() async throws {
    let (_, lines) = try await Self.everyTradeRecording()
    let keep = lines.count * 2 / 3
    let cut = try Self.write(
      Array(lines[..<keep]) + [String(lines[keep].prefix(40))], to: "cut.ndjson", newline: false)
    let clean = try Self.write(Array(lines[..<keep]), to: "clean.ndjson")
    let expected = try await Self.replay(clean, ["--speed", "max", "--every-trade"])
    #expect(expected.status == 0)
    #expect(!expected.stdout.isEmpty)
    let result = try await Self.replay(cut, ["--speed", "max", "--every-trade"])
    #expect(result.status == 65)
    #expect(result.stdout == expected.stdout)
    #expect(result.stderr.contains("line \(keep + 1) is cut off"), "\(result.stderr)")
  }

  @Test("a corrupt line: what comes before is printed, then line N is named, exit 65")
  func corrupt() async throws {
    let (_, lines) = try await Self.everyTradeRecording()
    let bad = lines.count / 2
    var broken = lines
    broken[bad] = #"{"dir":"S>","kind":"text","at_ns":"soon","body":"\u001b[2J"}"#
    let path = try Self.write(broken, to: "corrupt.ndjson")
    let clean = try Self.write(Array(lines[..<bad]), to: "clean.ndjson")
    let expected = try await Self.replay(clean, ["--speed", "max", "--every-trade"])
    let result = try await Self.replay(path, ["--speed", "max", "--every-trade"])
    #expect(result.status == 65)
    #expect(result.stdout == expected.stdout)
    #expect(result.stderr.contains("line \(bad + 1): \"at_ns\" must be an integer"), "\(result.stderr)")
    #expect(!result.stderr.contains("\u{1B}"))
  }

  @Test(
    "an empty or foreign file, or a script without its header, is refused with a message, nothing printed, exit 65",
    arguments: ["empty", "png", "json", "fixture", "blank-line"])
  func foreign(_ kind: String) async throws {
    let path = Self.temporaryFile("\(kind).file")
    switch kind {
    case "empty": try Data().write(to: URL(fileURLWithPath: path))
    case "png":
      try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D]).write(
        to: URL(fileURLWithPath: path))
    case "json": try #"{"name":"x","list":[1,2,3]}"#.write(toFile: path, atomically: true, encoding: .utf8)
    case "fixture":
      // A server's script without the header that names the venue: a server can play it, a
      // replay cannot.
      let script = try Fixture.text("finnhub-session.ndjson").split(separator: "\n").dropFirst()
      try script.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
    default: try "\n\n".write(toFile: path, atomically: true, encoding: .utf8)
    }
    let result = try await Self.replay(path, ["--speed", "max"])
    #expect(result.status == 65, "stderr: \(result.stderr)")
    #expect(result.stdout.isEmpty)
    #expect(
      result.stderr.contains("not a ticker recording") || result.stderr.contains("empty"), "\(result.stderr)")
    #expect(!result.stderr.contains("Fatal error"))
  }

  @Test("a missing file is exit 66; --replay with --url is a usage error")
  func missingAndConflicting() async throws {
    let missing = try await Self.replay("/nonexistent/recording.ndjson", [])
    #expect(missing.status == 66)
    #expect(missing.stderr.contains("/nonexistent/recording.ndjson"))
    let conflict = try await Self.replay("x.ndjson", ["--url", "ws://127.0.0.1:1/"])
    #expect(conflict.status == 64)
    #expect(conflict.stderr.contains("--replay and --url do not go together"))
  }

  @Test("a file that cannot be recorded to is exit 73, and a non-recording is left untouched")
  func cannotRecord() async throws {
    let directory = Self.temporaryFile("dir")
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let notes = try Self.write(["my notes"], to: "notes.txt")
    for (target, words) in [
      (directory, "cannot"), (notes, "not a ticker recording"), ("/nonexistent/x", "cannot open"),
    ] {
      let result = try await TickerProcess.run(["--demo", "--record", target, "--count", "1"])
      #expect(result.status == 73, "\(target): \(result.stderr)")
      #expect(result.stderr.contains(words), "\(result.stderr)")
      #expect(result.stdout.isEmpty)
    }
    #expect(try String(contentsOfFile: notes, encoding: .utf8) == "my notes\n")
  }

  @Test("recording again to a recording adds a run section; the replay plays both")
  func appendedSections() async throws {
    let path = Self.temporaryFile("two.ndjson")
    var printed = ""
    for symbol in ["AAPL", "BINANCE:BTCUSDT"] {
      let run = try await TickerProcess.run([
        "--demo", "-s", symbol, "--record", path, "--count", "3", "--every-trade",
      ])
      #expect(run.status == 0, "\(run.stderr)")
      printed += run.stdout
    }
    let headers = try Self.lines(path).filter { $0.hasPrefix(#"{"kind":"recording""#) }
    #expect(headers.count == 2)
    let replayed = try await Self.replay(path, ["--speed", "max", "--every-trade"])
    #expect(replayed.status == 0)
    // Each live run stopped at 3 lines; its recording may hold a little more (frames received
    // before the stop): each section's replay starts with what its run printed.
    let lines = replayed.stdoutLines
    #expect(
      lines.filter { $0.contains("AAPL") }.starts(
        with: printed.split(separator: "\n").prefix(3).map(String.init)))
    #expect(lines.contains { $0.contains("BINANCE:BTCUSDT") })
    let other = try await TickerProcess.run([
      "--demo", "--provider", "upbit", "--record", path, "--count", "1",
    ])
    #expect(other.status == 73)
    #expect(other.stderr.contains("recording of finnhub"))
  }

  @Test("Ctrl-C stops a paced replay: exit 130, what was printed is the start of the whole")
  func interruptedReplay() async throws {
    let path = Self.temporaryFile("interrupt.ndjson")
    let live = try await TickerProcess.run(["--demo", "--record", path, "--count", "40", "--every-trade"])
    #expect(live.status == 0, "\(live.stderr)")
    let whole = try await Self.replay(path, ["--speed", "max", "--every-trade"])
    // A tenth of the recorded pace: the replay lasts long enough that a loaded machine still
    // interrupts it before its end.
    let ticker = try RunningTicker(["--replay", path, "--speed", "0.1", "--every-trade"])
    let seen = await ticker.lines(3)
    ticker.signal(SIGINT)
    let end = await ticker.exit()
    #expect(end.status == 130, "\(end.stderr)")
    #expect(whole.stdoutLines.starts(with: seen))
    #expect(whole.stdoutLines.count > seen.count)
  }

  @Test("a recording ticker killed with SIGKILL leaves a valid file that replays")
  func killed() async throws {
    let path = Self.temporaryFile("killed.ndjson")
    let ticker = try RunningTicker([
      "--demo", "-s", "AAPL,BINANCE:BTCUSDT", "--record", path, "--every-trade",
    ])
    let seen = await ticker.lines(8)
    #expect(seen.count >= 8)
    ticker.signal(SIGKILL)
    _ = await ticker.exit()
    #expect(ticker.termination == .signaled(SIGKILL))
    let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    #expect(bytes.last == 0x0A)
    #expect(!(try Self.lines(path)).last!.contains(#""kind":"end""#))
    let replayed = try await Self.replay(path, ["--speed", "max", "--every-trade"])
    #expect(replayed.status == 0, "\(replayed.stderr)")
    let lines = replayed.stdoutLines
    // Both are the start of the same sequence: the live run may have printed a batch whose
    // line was not written yet, or the file may hold one the live run had not printed.
    #expect(lines.starts(with: seen) || seen.starts(with: lines), "live \(seen) replay \(lines)")
    #expect(lines.count >= 2)
  }
}
