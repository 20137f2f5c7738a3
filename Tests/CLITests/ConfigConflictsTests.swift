import Testing

@testable import CLI
@testable import FeedRuntime
@testable import Recording

@Suite struct ConfigConflictsTests {
  func conflicts(file: [String] = [], flags: [String]) throws -> [ConfigConflicts.Conflict] {
    var fileLayer = PartialConfig()
    if !file.isEmpty {
      fileLayer = try ArgumentParser.parse(file).config  // the same assignments, as if from a file
    }
    let command = try ArgumentParser.parse(flags)
    var config = TickerConfig.resolve(flags: command.config)
    if !file.isEmpty {
      config = TickerConfig.resolve(file: fileLayer, flags: command.config)
    }
    return ConfigConflicts.check(config)
  }

  @Test(arguments: [
    ["--demo", "--url", "ws://127.0.0.1:1/"],
    ["--demo", "--cacert", "/tmp/ca.pem"],
    ["--every-trade", "--debounce", "2"],
    ["--every-trade", "--max-wait", "2"],
    ["--format", "json", "--timestamps", "none"],
    ["--format", "price", "--timestamps", "trade"],
    ["--format", "price", "-s", "A,B"],
    ["--replay", "f", "--url", "ws://127.0.0.1:1/"],
    ["--replay", "f", "--demo"],
    ["--replay", "f", "--provider", "upbit"],
    ["--replay", "f", "-s", "AAPL"],
    ["--replay", "f", "--record", "g"],
    ["--replay", "f", "--control", "stdin"],
    ["--spread", "--format", "csv"],
    ["--spread"],
  ])
  func bothOnTheCommandLineRefuse(flags: [String]) throws {
    let found = try conflicts(flags: flags)
    #expect(found.count == 1)
    #expect(found.first?.fatal == true)
  }

  @Test("--format price with --bid-ask: refused, a line cannot be two numbers")
  func priceWithBidAsk() throws {
    let found = try conflicts(flags: ["--provider", "binance", "--bid-ask", "--format", "price"])
    #expect(
      found.count == 1 && found[0].fatal
        && found[0].message.hasPrefix("--format price prints one bare number"))
    #expect(try conflicts(flags: ["--provider", "binance", "--bid-ask", "--format", "tsv"]).isEmpty)
  }

  @Test("--source: the filters typed for the run are said to do nothing; saved ones are not used")
  func filtersUnderSource() throws {
    let typed = try conflicts(flags: [
      "--source", "nats://127.0.0.1:4222", "--debounce", "2", "--max-wait", "3",
    ])
    #expect(
      typed == [
        ConfigConflicts.Conflict(
          fatal: false,
          message: "--debounce, --max-wait do nothing with --source: the publisher debounced and "
            + "deduplicated its lines already, and each one it sent is printed; set them on the publisher")
      ])
    let one = try conflicts(flags: ["--source", "nats://127.0.0.1:4222", "--every-trade"])
    #expect(one.map { $0.message.hasPrefix("--every-trade does nothing with --source: ") } == [true])
    #expect(one.first?.message.hasSuffix("set it on the publisher") == true)
    #expect(try conflicts(file: ["--debounce", "2"], flags: ["--source", "nats://127.0.0.1:4222"]).isEmpty)
    #expect(try conflicts(flags: ["--debounce", "2"]).isEmpty)
  }

  @Test func oneFromASavedSourceWarns() throws {
    let found = try conflicts(file: ["--debounce", "2"], flags: ["--every-trade"])
    #expect(found.count == 1)
    #expect(found.first?.fatal == false)
    #expect(found.first?.message.contains("--debounce from the config file") == true)
  }

  @Test("--spread needs --format json: refused when both are typed, ignored when one was saved")
  func spreadNeedsJSON() throws {
    let typed = try conflicts(flags: ["--spread", "--format", "tsv"])
    #expect(typed.map(\.fatal) == [true])
    #expect(
      typed.first?.message == "--spread adds JSON records to the price lines: it needs --format json, not tsv"
    )
    let saved = try conflicts(file: ["--spread"], flags: ["--format", "text"])
    #expect(saved.map(\.fatal) == [false])
    #expect(
      saved.first?.message.hasSuffix(
        "ignored (--spread from the config file, --format from the command line)") == true)
    #expect(try conflicts(file: ["--format", "json"], flags: ["--spread"]).isEmpty)
  }

  @Test func aSavedVenueOrSymbolIsSimplyNotUsedByAReplay() throws {
    #expect(try conflicts(file: ["--provider", "upbit", "-s", "KRW-BTC"], flags: ["--replay", "f"]).isEmpty)
  }

  @Test func speeds() throws {
    #expect(ReplaySpeed.parse("max") == .max)
    #expect(ReplaySpeed.parse("MAX") == .max)
    #expect(ReplaySpeed.parse("2") == .factor(2))
    #expect(ReplaySpeed.parse("0.5") == .factor(0.5))
    for bad in ["0", "-1", "0.0001", "fast", "", "inf", "nan", "1e9"] {
      #expect(ReplaySpeed.parse(bad) == nil, "\(bad)")
      #expect(throws: UsageError.self) { try ArgumentParser.parse(["--speed", bad]) }
    }
    #expect(TickerConfig().speed == .factor(1))
  }

  @Test func speedWithoutReplayWarns() throws {
    let found = try conflicts(flags: ["--demo", "--speed", "2"])
    #expect(found.map(\.fatal) == [false])
  }

  @Test func aMetricsTokenWithoutMetricsWarns() throws {
    #expect(
      try conflicts(flags: ["--demo", "--metrics-token", "t0k"]).map(\.message) == [
        "--metrics-token does nothing without --metrics"
      ])
    #expect(try conflicts(flags: ["--demo", "--metrics", "9464", "--metrics-token", "t0k"]).isEmpty)
  }

  @Test(arguments: [
    ["--replay", "f", "--speed", "max", "--format", "json", "--every-trade", "--count", "3"],
    ["--replay", "f", "--format", "price"], ["--demo", "--record", "f"],
    ["--demo"], ["--every-trade"], ["--format", "csv", "--timestamps", "none"], ["--format", "price"],
    ["--debounce", "2", "--max-wait", "3"], ["--board", "--format", "json"],
    ["--asset", "BTC", "--spread", "--format", "json"],
  ])
  func sensibleCombinationsPass(flags: [String]) throws {
    #expect(try conflicts(flags: flags).isEmpty)
  }
}
