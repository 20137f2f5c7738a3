import Testing

@testable import CLI
@testable import FeedRuntime
@testable import Outputs
@testable import Venues

@Suite struct ArgumentParserTests {
  @Test func noArguments() throws {
    #expect(try ArgumentParser.parse([]) == ParsedCommand())
  }

  @Test func everyOption() throws {
    let command = try ArgumentParser.parse([
      "-s", "AAPL,BINANCE:BTCUSDT", "--symbol=IC MARKETS:1", "--url", "wss://example.com:8443/ws",
      "--config", "/tmp/c.json", "--engine=native", "--debounce", "0.2", "--max-wait=1.5", "--every-trade",
      "--format", "json", "--color", "always", "--cacert", "/ca.pem", "--connect-timeout", "3",
      "--max-message-size=1024", "--count", "10", "-v", "--demo", "-h", "--version",
    ])
    let c = command.config.resolved
    #expect(c.symbols == ["AAPL", "BINANCE:BTCUSDT", "IC MARKETS:1"])
    #expect(c.url?.host == "example.com" && c.url?.port == 8443 && c.url?.target == "/ws")
    #expect(command.configPath == "/tmp/c.json")
    #expect(c.engine == .native && c.debounce == .milliseconds(200) && c.maxWait == .milliseconds(1500))
    #expect(c.everyTrade == true && c.format == .json && c.color == .always && c.cacert == "/ca.pem")
    #expect(c.connectTimeout == .seconds(3) && c.maxMessageSize == 1024 && c.count == 10 && c.verbose == true)
    #expect(c.demo && command.help && command.version)
    #expect(!command.config.sets("FINNHUB_TOKEN") && !command.config.sets("--provider"))
  }

  @Test func lastValueWinsAndNoColor() throws {
    #expect(try ArgumentParser.parse(["--color", "always", "--no-color"]).config.resolved.color == .never)
    #expect(try ArgumentParser.parse(["--no-color", "--color=auto"]).config.resolved.color == .auto)
    #expect(
      try ArgumentParser.parse(["--debounce", "1", "--debounce", "0"]).config.resolved.debounce == .zero)
  }

  @Test(arguments: [
    (["--frobnicate"], UsageError.unknownOption("--frobnicate")),
    (["--frob=1"], .unknownOption("--frob")),
    (["-x"], .unknownOption("-x")),
    (["--symbol"], .missingValue(option: "--symbol")),
    (["-s"], .missingValue(option: "-s")),
    (["--debounce"], .missingValue(option: "--debounce")),
    (
      ["--debounce", "fast"],
      .invalidValue(option: "--debounce", value: "fast", requirement: "must be a number of seconds ≥ 0")
    ),
    (
      ["--debounce=-1"],
      .invalidValue(option: "--debounce", value: "-1", requirement: "must be a number of seconds ≥ 0")
    ),
    (
      ["--max-wait", "inf"],
      .invalidValue(option: "--max-wait", value: "inf", requirement: "must be a number of seconds ≥ 0")
    ),
    (
      ["--connect-timeout", "0"],
      .invalidValue(option: "--connect-timeout", value: "0", requirement: "must be a number of seconds > 0")
    ),
    (
      ["--count", "0"],
      .invalidValue(option: "--count", value: "0", requirement: "must be a whole number ≥ 1")
    ),
    (
      ["--count", "1.5"],
      .invalidValue(option: "--count", value: "1.5", requirement: "must be a whole number ≥ 1")
    ),
    (
      ["--engine", "curl"],
      .invalidValue(option: "--engine", value: "curl", requirement: "must be one of auto, urlsession, native")
    ),
    (
      ["--format", "xml"],
      .invalidValue(
        option: "--format", value: "xml", requirement: "must be one of text, json, csv, tsv, price")
    ),
    (
      ["--formt", "json"], .unknownOption("--formt", suggestion: "--format")
    ),
    (
      ["--format", "jsn"],
      .invalidValue(
        option: "--format", value: "jsn", requirement: "must be one of text, json, csv, tsv, price",
        suggestion: "json")
    ),
    (
      ["-s", ","], .invalidValue(option: "-s", value: ",", requirement: "must be a non-empty list of symbols")
    ),
    (["--every-trade=yes"], .unexpectedValue(option: "--every-trade")),
    (["AAPL"], .unexpectedArgument("AAPL")),
    (["--", "x"], .unexpectedArgument("x")),
    (["--token", "abc"], .tokenOnCommandLine),
    (["--token=abc"], .tokenOnCommandLine),
  ])
  func usageErrors(arguments: [String], expected: UsageError) {
    #expect(throws: expected) { try ArgumentParser.parse(arguments) }
  }

  @Test func messagesNameTheOptionAndHideSecrets() {
    #expect(UsageError.unknownOption("--frob").description == "unknown option '--frob' (see --help)")
    #expect(UsageError.missingValue(option: "--url").description == "option '--url' needs a value")
    #expect(
      UsageError.invalidValue(option: "--count", value: "x", requirement: "must be a whole number ≥ 1")
        .description
        == "invalid value 'x' for --count: must be a whole number ≥ 1")
    #expect(UsageError.tokenOnCommandLine.description.contains("FINNHUB_TOKEN"))
    #expect {
      try ArgumentParser.parse(["--url", "https://ws.finnhub.io/?token=SECRET42"])
    } throws: { error in
      let text = (error as? UsageError)?.description ?? "SECRET42"
      return text.contains("--url") && !text.contains("SECRET42")
    }
    #expect {
      try ArgumentParser.parse(["--token=SECRET42"])
    } throws: { error in
      !((error as? UsageError)?.description ?? "SECRET42").contains("SECRET42")
    }
  }
}
