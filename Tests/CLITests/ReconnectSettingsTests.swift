import Testing

@testable import CLI
@testable import FeedRuntime
@testable import Outputs
@testable import Venues

/// The reconnect and keepalive settings, from each source.
@Suite struct ReconnectSettingsTests {
  @Test func defaultsSuitFinnhub() {
    let config = TickerConfig()
    #expect(config.maxRetries == nil)
    #expect(config.maxBackoff == .seconds(60))
    #expect(config.pingInterval == .seconds(30))
    #expect(config.pongTimeout == .seconds(10))
    // Finnhub pings about every 60 s: two missed pings and some slack.
    #expect(config.silenceTimeout == .seconds(150))
  }

  @Test func flags() throws {
    let command = try ArgumentParser.parse([
      "--max-retries", "0", "--max-backoff", "5", "--ping-interval", "0", "--pong-timeout", "2.5",
      "--silence-timeout", "9",
    ])
    let config = TickerConfig.resolve(flags: command.config)
    #expect(config.maxRetries == 0)
    #expect(config.maxBackoff == .seconds(5))
    #expect(config.pingInterval == .zero)
    #expect(config.pongTimeout == .milliseconds(2500))
    #expect(config.silenceTimeout == .seconds(9))
  }

  @Test(arguments: [
    ["--max-retries", "-1"], ["--max-backoff", "0"], ["--pong-timeout", "0"], ["--ping-interval", "x"],
  ])
  func badFlags(arguments: [String]) {
    #expect(throws: UsageError.self) { try ArgumentParser.parse(arguments) }
  }

  @Test func environmentAndFile() throws {
    let env = try EnvironmentConfig.parse(["TICKER_MAX_RETRIES": "3", "TICKER_SILENCE_TIMEOUT": "0"])
    let file = try ConfigFile.parse(
      Array(#"{"maxRetries": 7, "pingInterval": 12, "pongTimeout": 4}"#.utf8), path: "c.json")
    let config = TickerConfig.resolve(file: file, environment: env)
    #expect(config.maxRetries == 3)
    #expect(config.silenceTimeout == .zero)
    #expect(config.pingInterval == .seconds(12))
    #expect(config.pongTimeout == .seconds(4))
    #expect(throws: ConfigError.self) {
      try ConfigFile.parse(Array(#"{"maxRetries": -2}"#.utf8), path: "c.json")
    }
    #expect(throws: ConfigError.self) { try EnvironmentConfig.parse(["TICKER_PONG_TIMEOUT": "0"]) }
  }
}
