import Emulators
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Recording

/// The views for eyes, as a person sees them: the built `ticker` on a real terminal (tmux), the
/// screen read back with `capture-pane` at several moments. Every wait polls the screen with a
/// bound; nothing sleeps and nothing is timed.
@Suite(
  "the board and the line view on a terminal (tmux)",
  .requires(.tmux))
struct BoardTerminalTests {
  static let token = "sk-board-SECRET-token-0077"
  static let symbols = "BINANCE:BTCUSDT,AAPL"

  /// A board of two symbols on a screen of `rows`: header, the two rows in subscription order,
  /// nothing until the status line at the bottom. Nothing above it, nothing scrolled.
  static func inPlace(_ screen: [String], rows: Int) -> Bool {
    screen.count == rows && screen[0].hasPrefix("SYMBOL ") && screen[1].hasPrefix("BINANCE:BTCUSDT ")
      && screen[2].hasPrefix("AAPL ") && screen[3..<(rows - 1)].allSatisfy(\.isEmpty)
      && screen[rows - 1].hasPrefix("Finnhub (demo) · ")
  }

  /// The last price shown in a board row (the token after the arrow).
  static func price(_ row: String) -> String? {
    let fields = row.split(separator: " ")
    guard let arrow = fields.firstIndex(where: { ["▲", "▼", "•"].contains($0) }), arrow + 1 < fields.count
    else { return nil }
    return String(fields[arrow + 1])
  }

  /// `line` without the `^C`s the terminal echoed at its start: a Ctrl-C typed once the run has
  /// given the terminal back (echo on again) shows before what the shell prints next.
  static func withoutEchoedInterrupts(_ line: String) -> String {
    var rest = Substring(line)
    while rest.hasPrefix("^C") { rest = rest.dropFirst(2) }
    return String(rest)
  }

  /// Checks that the terminal is as the shell left it: the normal screen, the cursor shown, the
  /// lines the run left between `BEFORE` and `EXIT=…` (what it wrote after giving the terminal
  /// back), typed keys echoed again and no attribute left on.
  func expectRestored(_ tmux: TmuxSession, exit: Int) async -> [String] {
    let ended = await tmux.waitForScreen { $0.map(Self.withoutEchoedInterrupts).contains("EXIT=\(exit)") }
    #expect(ended != nil, "no EXIT=\(exit): \(tmux.screen())")
    #expect(await tmux.display("#{alternate_on}") == "0")
    #expect(await tmux.display("#{cursor_flag}") == "1")
    let screen = (ended ?? []).map(Self.withoutEchoedInterrupts)
    guard let before = screen.firstIndex(of: "BEFORE"), let after = screen.firstIndex(of: "EXIT=\(exit)"),
      before < after
    else {
      Issue.record("BEFORE … EXIT=\(exit) not found in \(screen)")
      return []
    }
    #expect(screen[..<before].contains { $0.contains("echo BEFORE; ") })
    await tmux.type("echo PLAIN")
    let typed = await tmux.waitForScreen {
      $0.contains { $0.hasSuffix(" echo PLAIN") } && $0.contains("PLAIN")
    }
    #expect(typed != nil, "typed keys are not echoed: \(tmux.screen())")
    // From the exit on, every cell has the default attributes (the shell's own output included).
    let styled = await tmux.styledScreen()
    let afterwards = styled.split(separator: "EXIT=\(exit)\n", maxSplits: 1).last ?? ""
    #expect(styled.contains("EXIT=\(exit)\n") && !afterwards.contains("\u{1B}"), "\(styled.debugDescription)")
    return Array(screen[(before + 1)..<after])
  }

  @Test("--board: rows in place, prices changing, nothing scrolling; it follows resizes; Ctrl-C restores")
  func board() async throws {
    try await TmuxSession.with(columns: 100, rows: 20) { tmux in
      #expect(await tmux.waitForPrompt())
      await tmux.type("echo BEFORE; $T --demo --board -s \(Self.symbols); echo EXIT=$?")

      // The first frame with prices.
      let first = await tmux.waitForScreen {
        Self.inPlace($0, rows: 20) && Self.price($0[1]) != nil && Self.price($0[2]) != nil
      }
      guard let first else {
        Issue.record("the board never showed both prices: \(tmux.screen())")
        return
      }
      #expect(first[19].contains("· connected · 2 symbols · "))
      #expect(await tmux.display("#{alternate_on}") == "1")
      #expect(await tmux.display("#{cursor_flag}") == "0")

      // Moments later: both prices have moved, and at every moment read on the way the rows were
      // where they were (one row per symbol, nothing above the header, nothing scrolled).
      let moments = Mutex<[[String]]>([])
      let moved = await tmux.waitForScreen(seen: { screen in moments.withLock { $0.append(screen) } }) {
        Self.price($0[1]) != Self.price(first[1]) && Self.price($0[2]) != Self.price(first[2])
      }
      #expect(moved != nil, "the prices did not change: \(tmux.screen())")
      let read = moments.withLock { $0 }
      #expect(read.count >= 1)
      for screen in read { #expect(Self.inPlace(screen, rows: 20), "\(screen)") }

      // Narrower and shorter: the trade time and the rate go, rows stay in place, nothing wraps.
      await tmux.resize(columns: 60, rows: 10)
      let narrow = await tmux.waitForScreen {
        Self.inPlace($0, rows: 10) && !$0[0].contains("TRADE TIME") && $0.allSatisfy { $0.count <= 59 }
      }
      #expect(narrow != nil, "not redrawn for 60 × 10: \(tmux.screen())")
      #expect(narrow.map { Self.price($0[1]) != nil } == true)

      // Wider and taller: every column is back, the status line on the new last row.
      await tmux.resize(columns: 120, rows: 24)
      let wide = await tmux.waitForScreen { Self.inPlace($0, rows: 24) && $0[0].contains("TRADES/S") }
      #expect(wide != nil, "not redrawn for 120 × 24: \(tmux.screen())")

      await tmux.keys("C-c")
      let printed = await expectRestored(tmux, exit: 130)
      #expect(printed.isEmpty, "written to the normal screen: \(printed)")
    }
  }

  @Test("--board on a terminal with NO_COLOR: direction by arrows only, no colour attribute")
  func noColor() async throws {
    try await TmuxSession.with(columns: 100, rows: 8, environment: ["NO_COLOR": "1"]) { tmux in
      #expect(await tmux.waitForPrompt())
      await tmux.type("echo BEFORE; $T --demo --board -s \(Self.symbols); echo EXIT=$?")
      let arrows = await tmux.waitForScreen {
        Self.inPlace($0, rows: 8) && [$0[1], $0[2]].contains { $0.contains("▲") || $0.contains("▼") }
      }
      #expect(arrows != nil, "\(tmux.screen())")
      let styled = await tmux.styledScreen()
      #expect(styled.contains("BINANCE:BTCUSDT"))
      #expect(!styled.contains("\u{1B}[3"), "a colour on the board: \(styled.debugDescription)")
      await tmux.keys("C-c")
      _ = await expectRestored(tmux, exit: 130)
    }
  }

  @Test("Ctrl-Z gives the terminal back before stopping; fg brings the board back")
  func suspend() async throws {
    try await TmuxSession.with(columns: 100, rows: 8) { tmux in
      #expect(await tmux.waitForPrompt())
      await tmux.type("echo BEFORE; $T --demo --board -s \(Self.symbols); echo EXIT=$?")
      let up = await tmux.waitForScreen { Self.inPlace($0, rows: 8) && Self.price($0[1]) != nil }
      #expect(up != nil, "\(tmux.screen())")
      await tmux.keys("C-z")
      let stopped = await tmux.waitForScreen { $0.contains { $0.contains("Stopped") } }
      #expect(stopped != nil, "\(tmux.screen())")
      #expect(await tmux.display("#{alternate_on}") == "0")
      #expect(await tmux.display("#{cursor_flag}") == "1")
      await tmux.type("fg")
      let back = await tmux.waitForScreen { Self.inPlace($0, rows: 8) && Self.price($0[1]) != nil }
      #expect(back != nil, "\(tmux.screen())")
      #expect(await tmux.display("#{alternate_on}") == "1")
      #expect(await tmux.display("#{cursor_flag}") == "0")
      await tmux.keys("C-c")
      let ended = await tmux.waitForScreen { screen in
        TmuxSession.isPrompt(screen.last { !$0.isEmpty }) && !screen.contains { $0.hasPrefix("SYMBOL ") }
      }
      #expect(ended != nil, "\(tmux.screen())")
      #expect(await tmux.display("#{alternate_on}") == "0")
      #expect(await tmux.display("#{cursor_flag}") == "1")
    }
  }

  @Test("rows follow the subscription: a symbol added with --control stdin gets its row")
  func rowsFollowTheSubscription() async throws {
    try await TmuxSession.with(columns: 100, rows: 8) { tmux in
      #expect(await tmux.waitForPrompt())
      await tmux.type("echo BEFORE; $T --demo --board -s BINANCE:BTCUSDT --control stdin; echo EXIT=$?")
      let one = await tmux.waitForScreen {
        $0.count == 8 && $0[1].hasPrefix("BINANCE:BTCUSDT ") && $0[2].isEmpty
          && $0[7].contains("· 1 symbol · ")
      }
      #expect(one != nil, "\(tmux.screen())")
      // Typed on the terminal (not echoed: the board keeps its lines clean), read as a control line.
      await tmux.type("+AAPL")
      let two = await tmux.waitForScreen { Self.inPlace($0, rows: 8) && $0[7].contains("· 2 symbols · ") }
      #expect(two != nil, "\(tmux.screen())")
      await tmux.type("-BINANCE:BTCUSDT")
      let aaplOnly = await tmux.waitForScreen { $0.count == 8 && $0[1].hasPrefix("AAPL ") && $0[2].isEmpty }
      #expect(aaplOnly != nil, "\(tmux.screen())")
      await tmux.keys("C-c")
      _ = await expectRestored(tmux, exit: 130)
    }
  }

  /// How a run with the board can end, each of which must give the terminal back.
  enum Ending: String, CaseIterable, CustomTestStringConvertible {
    case count, serverCloses, error, secondInterrupt
    var testDescription: String {
      switch self {
      case .count: "--count reached"
      case .serverCloses: "the server closes (1000)"
      case .error: "an error (the connection fails, no retry: exit 75)"
      case .secondInterrupt: "Ctrl-C twice while the server does not answer the close"
      }
    }
  }

  /// Three more BTC trades, in Finnhub's format.
  static let threeTrades =
    #"{"data":[{"p":95381,"s":"BINANCE:BTCUSDT","t":1768655962000,"v":0.1},"#
    + #"{"p":95382,"s":"BINANCE:BTCUSDT","t":1768655962001,"v":0.1},"#
    + #"{"p":95383,"s":"BINANCE:BTCUSDT","t":1768655962002,"v":0.1}],"type":"trade"}"#

  @Test("the board gives the terminal back however the run ends", arguments: Ending.allCases)
  func endings(_ ending: Ending) async throws {
    // The recorded session (9 trades), then what the test asks for: the ending comes only once
    // the board has been seen, when the test types a control line (the third client message).
    let script = try SessionScript(ndjson: Fixture.text("finnhub-session.ndjson"))
    let whenAsked: (ConnectionPlan.Cue.Action) -> [ConnectionPlan] = { action in
      [.init(cues: [.init(.clientMessages(3), [action])], ending: .hold)]
    }
    let plans: [ConnectionPlan] =
      switch ending {
      case .count: whenAsked(.text(Self.threeTrades))
      case .serverCloses: whenAsked(.close(.init(code: .normalClosure, reason: "done")))
      case .error: [.init(handshake: .stall, ending: .drop)]
      case .secondInterrupt: [.init(ending: .unresponsive)]
      }
    let server = try FeedServer(
      script: script, options: .init(timeScale: 0, awaitSubscriptions: 2, plans: plans))
    server.start()
    defer { server.stop() }
    try await TmuxSession.with(
      columns: 100, rows: 12,
      environment: ["FINNHUB_TOKEN": Self.token, "U": "ws://127.0.0.1:\(server.port)/"]
    ) { tmux in
      #expect(await tmux.waitForPrompt())
      let command =
        switch ending {
        case .count: "$T --url $U --board -s \(Self.symbols) --control stdin --count 12"
        case .serverCloses: "$T --url $U --board -s \(Self.symbols) --control stdin"
        case .secondInterrupt: "$T --url $U --board -s \(Self.symbols)"
        case .error: "$T --url $U --board --max-retries 0"
        }
      await tmux.type("echo BEFORE; \(command); echo EXIT=$?")

      // The board is up first (for the error: still connecting)…
      let up = await tmux.waitForScreen {
        $0.count == 12 && $0[0].hasPrefix("SYMBOL ") && $0[11].hasPrefix("Finnhub")
          && (ending == .error ? $0[11].contains("· connecting ·") : Self.price($0[2]) != nil)
      }
      #expect(up != nil, "the board was not seen: \(tmux.screen())")
      // …then the run ends, and the terminal is as it was, with only stderr's lines written
      // after it (what was said while the board was up), never a price line.
      switch ending {
      case .count:
        // 9 trades so far; the subscription typed now brings 3 more: the 12th ends the run.
        await tmux.type("+BINANCE:ETHUSDT")
        let printed = await expectRestored(tmux, exit: 0)
        #expect(
          printed.first == "ticker: subscribed to BINANCE:ETHUSDT; following 3 symbol(s): "
            + "BINANCE:BTCUSDT, AAPL, BINANCE:ETHUSDT", "\(printed)")
      case .serverCloses:
        await tmux.type("+BINANCE:ETHUSDT")
        let printed = await expectRestored(tmux, exit: 0)
        #expect(printed.last == "ticker: the server closed the connection (1000 normal closure: done)")
      case .error:
        // The handshake has stalled since the start; the server drops it now.
        server.dropConnections()
        let printed = await expectRestored(tmux, exit: 75)
        // One line (wrapped on the screen when long).
        #expect(printed.first?.hasPrefix("ticker: error: ") == true, "\(printed)")
        #expect(printed.dropFirst().allSatisfy { !$0.hasPrefix("ticker: ") }, "\(printed)")
        #expect(!printed.joined().contains(Self.token))
      case .secondInterrupt:
        // The server went silent after the replay: the first Ctrl-C starts a close it never
        // answers (the ticker would wait up to a second for it), the second exits at once.
        await tmux.keys("C-c")
        await tmux.keys("C-c")
        let printed = await expectRestored(tmux, exit: 130)
        #expect(printed.isEmpty, "\(printed)")
      }
    }
  }

  @Test("a replay on the board removes the token from what it says, as the live run it replays did")
  func replayBoardRedacts() async throws {
    // A venue that says the token back in an error: the live run that records it says `***`,
    // and so must its replay, board or lines, wherever its lines go while the board is up.
    let trade =
      #"{"data":[{"c":null,"p":95372.09,"s":"BINANCE:BTCUSDT","t":1768655932976,"v":0.1}],"type":"trade"}"#
    let error = #"{"type":"error","msg":"token \#(Self.token) is over its limit"}"#
    let steps = [trade, error].map {
      SessionScript.Step(direction: .server, kind: .text, afterMilliseconds: 10, body: $0)
    }
    let server = try FeedServer(
      script: SessionScript(
        steps: steps + [.init(direction: .server, kind: .close, afterMilliseconds: 10, body: "1000")]),
      options: .init(timeScale: 0, emulation: .verbatim))
    server.start()
    defer { server.stop() }
    let recording = RecordReplayTests.temporaryFile("redacted.ndjson")
    let environment = TickerProcess.cleanEnvironment(["FINNHUB_TOKEN": Self.token])
    let live = try await TickerProcess.run(
      [
        "--url", "ws://127.0.0.1:\(server.port)/", "-s", "BINANCE:BTCUSDT", "--every-trade", "--record",
        recording,
      ],
      environment: environment)
    #expect(live.status == 0, "\(live.stderr)")
    #expect(live.stderr.contains("server error: token *** is over its limit"), "\(live.stderr)")
    #expect(!live.stderr.contains(Self.token))

    let lines = try await TickerProcess.run(["--replay", recording], environment: environment)
    #expect(lines.stderr.contains("server error: token *** is over its limit"), "\(lines.stderr)")
    #expect(!lines.stderr.contains(Self.token))

    try await TmuxSession.with(
      columns: 100, rows: 12, environment: ["FINNHUB_TOKEN": Self.token, "R": recording]
    ) { tmux in
      #expect(await tmux.waitForPrompt())
      await tmux.type("echo BEFORE; $T --replay $R --board; echo EXIT=$?")
      let said = await expectRestored(tmux, exit: 0).joined(separator: "\n")
      #expect(said.contains("server error: token *** is over its limit"), "\(said)")
      #expect(!said.contains(Self.token), "\(said)")
    }
  }

  @Test("text on a terminal: aligned columns, arrows and the change since the start")
  func lineView() async throws {
    let script = try SessionScript(ndjson: Fixture.text("finnhub-session.ndjson"))
    let server = try FeedServer(
      script: script,
      options: .init(
        timeScale: 0, ending: .close(.init(code: .normalClosure, reason: "replay finished")),
        awaitSubscriptions: 2))
    server.start()
    defer { server.stop() }
    try await TmuxSession.with(
      columns: 100, rows: 16,
      environment: ["FINNHUB_TOKEN": Self.token, "U": "ws://127.0.0.1:\(server.port)/"]
    ) { tmux in
      #expect(await tmux.waitForPrompt())
      // stderr aside: the replay's "Invalid symbol" error would land among the lines.
      await tmux.type(
        "echo BEFORE; $T --url $U -s \(Self.symbols) --debounce 0 2>/dev/null; echo EXIT=$?")
      let printed = await expectRestored(tmux, exit: 0)
      // The same prices as the pipe's golden lines (FinnhubEndToEndTests), for eyes.
      #expect(
        printed == [
          "2026-01-17T13:18:52.976Z  BINANCE:BTCUSDT  • 95372.09   0.00   0.00%",
          "2026-01-17T13:18:53.296Z  BINANCE:BTCUSDT  ▲ 95372.1   +0.01  +0.00%",
          "2026-01-17T13:18:53.390Z  BINANCE:BTCUSDT  ▼ 95371.9   -0.19  -0.00%",
          "2026-01-17T13:18:53.402Z  BINANCE:BTCUSDT  ▼ 95371.85  -0.24  -0.00%",
          "2026-01-17T13:18:53.500Z  AAPL             •   122.1    0.0    0.00%",
          "2026-01-17T13:18:53.501Z  AAPL             ▼   122.09  -0.01  -0.01%",
          "2026-01-17T13:18:53.510Z  BINANCE:BTCUSDT  ▲ 95372.3   +0.21  +0.00%",
          "2026-01-17T13:19:21.000Z  BINANCE:BTCUSDT  ▲ 95380     +7.91  +0.01%",
        ])
    }
  }
}

/// `--board` and the text format away from a terminal: the lines as always, not one escape byte.
@Suite("the terminal views stay off in pipes")
struct TerminalViewsInPipesTests {
  @Test("--board into a pipe falls back to tab-separated lines")
  func boardInPipe() async throws {
    let result = try await TickerProcess.run(
      ["--demo", "--board", "--color", "always", "-s", "BINANCE:BTCUSDT,AAPL", "--count", "3"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdoutLines.count == 3)
    #expect(result.stdoutLines.allSatisfy { $0.split(separator: "\t").count == 3 })
    // `--color always` colours the price, as before; nothing positions the cursor or clears.
    #expect(!result.stdout.contains("\u{1B}[?"))
    #expect(!result.stdout.contains("H\u{1B}[K"))
    #expect(!result.stderr.contains("\u{1B}"))
  }
}
