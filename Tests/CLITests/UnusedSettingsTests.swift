import Testing

@testable import CLI

/// The unused-flag warnings come from each setting's declared scope: what a run from a venue or
/// a recording, printing, drawing the board or serving, does nothing with.
@Suite struct UnusedSettingsTests {
  func config(_ flags: [String], file: [String] = []) throws -> TickerConfig {
    let command = try ArgumentParser.parse(flags)
    return TickerConfig.resolve(file: try ArgumentParser.parse(file).config, flags: command.config)
  }

  @Test("serving: what shapes printed lines is named, in declaration order")
  func serving() throws {
    let given = try config([
      "--format", "json", "--count", "3", "--port", "0", "--debounce", "1", "--publish-buffer", "9",
    ])
    #expect(
      UnusedSettings.warnings(given, source: .venue, serving: true) == [
        "--count, --debounce, --format, --publish-buffer apply only when printing prices, not to ticker serve"
      ])
  }

  @Test("one setting applies, several apply: --bid-ask under serve")
  func oneSetting() throws {
    let given = try config(["--provider", "binance", "--bid-ask", "--port", "0"])
    #expect(
      UnusedSettings.warnings(given, source: .venue, serving: true) == [
        "--bid-ask applies only when printing prices, not to ticker serve"
      ])
  }

  @Test("printing: the serve-only settings are named")
  func printing() throws {
    let given = try config(["--port", "9", "--bind", "::1", "--max-clients", "2", "--format", "csv"])
    #expect(
      UnusedSettings.warnings(given, source: .venue, serving: false) == [
        "--port, --bind, --max-clients apply only to ticker serve"
      ])
    #expect(
      UnusedSettings.warnings(given, source: .recording, serving: false)
        == UnusedSettings.warnings(given, source: .venue, serving: false))
  }

  @Test("the board: what only shapes lines, whether the prices are live or replayed")
  func board() throws {
    let given = try config([
      "--board", "--debounce", "2", "--format", "json", "--count", "5", "--color", "never",
    ])
    let expected =
      "--board shows every trade as a board on this terminal: --debounce, --format apply only when stdout is not a terminal"
    #expect(UnusedSettings.boardWarning(given, source: .venue) == expected)
    #expect(UnusedSettings.boardWarning(given, source: .recording) == expected)
    #expect(UnusedSettings.boardWarning(try config(["--board", "--count", "5"]), source: .venue) == nil)
  }

  @Test("--spread with one venue is warned about; with several, or saved in the file, it is not")
  func spreadWithOneVenue() throws {
    let given = try config(["--spread", "--format", "json"])
    #expect(
      UnusedSettings.spreadWarning(given, venues: 1)
        == "--spread compares the prices of several venues; this run follows one, so it adds no records")
    #expect(UnusedSettings.spreadWarning(given, venues: 3) == nil)
    #expect(UnusedSettings.spreadWarning(try config(["-v"], file: ["--spread"]), venues: 1) == nil)
    // On the board it is one of the settings for lines only.
    #expect(
      UnusedSettings.boardWarning(try config(["--board", "--spread"]), source: .venue)?.contains("--spread")
        == true)
  }

  @Test("settings from the config file are never warned about")
  func fromFile() throws {
    let given = try config(["-v"], file: ["--board", "--port", "9", "--debounce", "2", "--format", "json"])
    #expect(UnusedSettings.warnings(given, source: .venue, serving: false).isEmpty)
    #expect(UnusedSettings.warnings(given, source: .venue, serving: true).isEmpty)
    #expect(UnusedSettings.boardWarning(given, source: .venue) == nil)
  }

  @Test("a replay refuses, on the command line, every setting declared for venues only, --compression too")
  func replayRefusesVenueSettings() throws {
    let venueOnly = Settings.all.filter { !$0.scope.sources.contains(.recording) }.map(\.name)
    #expect(
      venueOnly.contains("--compression") && venueOnly.contains("--url") && !venueOnly.contains("--format"))
    let conflicts = ConfigConflicts.check(try config(["--replay", "f.ndjson", "--compression", "off"]))
    #expect(conflicts.map(\.fatal) == [true])
    #expect(conflicts.first?.message.hasPrefix("--replay and --compression do not go together") == true)
    #expect(
      ConfigConflicts.check(try config(["--replay", "f.ndjson"], file: ["--compression", "off"])).isEmpty)
  }

  @Test("--speed without --replay: ignored, from any source")
  func speedAlone() throws {
    #expect(
      ConfigConflicts.check(try config(["--speed", "2"])).map(\.message) == [
        "--speed applies only with --replay: ignored"
      ])
  }
}

/// Subcommands are declarations: the parser, help and completions read the same list.
@Suite struct SubcommandTests {
  @Test func serveTakesTheSettings() throws {
    let command = try ArgumentParser.parse(["serve", "--port", "0", "-s", "AAPL"])
    #expect(command.serve && command.subcommand == .serve && command.completions == nil)
    #expect(command.config.sets("--port"))
  }

  @Test func completionsTakeAShell() throws {
    #expect(try ArgumentParser.parse(["completions", "zsh"]).completions == .zsh)
    #expect(throws: UsageError.self) { try ArgumentParser.parse(["completions", "tcsh"]) }
    #expect(throws: UsageError.self) { try ArgumentParser.parse(["completions", "bash", "--verbose"]) }
  }

  @Test func usageLinesComeFromTheDeclarations() {
    #expect(
      Subcommand.usageLines == [
        "ticker serve [--provider NAME] [--port PORT] [--bind ADDRESS] [--serve-token TOKEN] [options]",
        "ticker completions bash|zsh|fish",
      ])
  }
}
