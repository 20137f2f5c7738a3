import Foundation
import TestSupport
import Testing

@testable import CLI
@testable import FeedRuntime
@testable import JSON
@testable import Outputs
@testable import Venues
@testable import WebSocketWire

@Suite struct ConfigTests {
  func file(_ text: String, path: String = "config.json") throws(ConfigError) -> PartialConfig {
    try ConfigFile.parse(Array(text.utf8), path: path)
  }

  @Test func defaults() {
    let config = TickerConfig()
    #expect(config.provider == "finnhub" && config.symbols == ["BINANCE:BTCUSDT"])
    #expect(config.token == nil && config.url == nil && config.engine == .auto)
    #expect(config.debounce == .milliseconds(500) && config.effectiveMaxWait == .milliseconds(500))
    #expect(!config.everyTrade && config.format == .text && config.color == .auto)
    #expect(config.connectTimeout == .seconds(10) && config.maxMessageSize == 16 * 1024 * 1024)
    #expect(config.cacert == nil && config.count == nil && !config.verbose)
    #expect(config.stageMode == .default)
  }

  @Test func exampleFileHoldsEveryKeyWithItsDefault() throws {
    let path = TestTools.repositoryRoot + "/config.example.json"
    let bytes = try #require(FileManager.default.contents(atPath: path).map(Array.init))
    let json = try JSONParser().parse(bytes)
    #expect(Set(try #require(json.objectValue).keys) == Set(ConfigFile.keys))
    // Generated from the declarations, in their order: `TICKER_UPDATE_GOLDEN=1 swift test`
    // rewrites it.
    let text = String(decoding: bytes, as: UTF8.self)
    if Fixture.updatingGoldens {
      try Settings.exampleConfig().write(toFile: path, atomically: true, encoding: .utf8)
    } else {
      #expect(text == Settings.exampleConfig())
    }
    let partial = try ConfigFile.load(ConfigLocation(path: path, isExplicit: true))
    #expect(TickerConfig.resolve(file: partial) == TickerConfig())
  }

  @Test func fileSetsEverything() throws {
    let partial = try file(
      #"""
      {"provider":"finnhub","symbols":["AAPL"," IC MARKETS:1 "],"token":"s3cret","url":"ws://127.0.0.1:9000/x",
       "engine":"native","debounce":0,"maxWait":2.5,"everyTrade":true,"format":"json","color":"never",
       "connectTimeout":3,"maxMessageSize":4096,"cacert":"/tmp/ca.pem","count":3,"verbose":true}
      """#)
    let config = TickerConfig.resolve(file: partial)
    #expect(config.symbols == ["AAPL", "IC MARKETS:1"])
    #expect(config.token == "s3cret")
    #expect(config.url == (try WebSocketURL(parsing: "ws://127.0.0.1:9000/x")))
    #expect(config.engine == .native && config.debounce == .zero && config.maxWait == .milliseconds(2500))
    #expect(config.everyTrade && config.format == .json && config.color == .never)
    #expect(config.connectTimeout == .seconds(3) && config.maxMessageSize == 4096)
    #expect(config.cacert == "/tmp/ca.pem" && config.count == 3 && config.verbose)
    #expect(config.stageMode == .everyTrade)
    #expect(!config.description.contains("s3cret"))
    #expect(!partial.description.contains("s3cret"))
    var dumped = ""
    dump(config, to: &dumped)
    dump(partial, to: &dumped)
    #expect(!dumped.contains("s3cret"))
  }

  @Test(arguments: [
    (#"{"debounce":-1}"#, #"config.json: "debounce" must be a number of seconds ≥ 0"#),
    (#"{"debounce":"0.5"}"#, #"config.json: "debounce" must be a number of seconds ≥ 0"#),
    (#"{"connectTimeout":0}"#, #"config.json: "connectTimeout" must be a number of seconds > 0"#),
    (#"{"symbols":[]}"#, #"config.json: "symbols" must be a non-empty list of symbols"#),
    (#"{"symbols":[1]}"#, #"config.json: "symbols" must be a non-empty list of symbols"#),
    (#"{"engine":"curl"}"#, #"config.json: "engine" must be one of auto, urlsession, native"#),
    (#"{"format":1}"#, #"config.json: "format" must be one of text, json, csv, tsv, price"#),
    (#"{"color":"sometimes"}"#, #"config.json: "color" must be one of auto, always, never"#),
    (#"{"everyTrade":"yes"}"#, #"config.json: "everyTrade" must be true or false"#),
    (#"{"count":0}"#, #"config.json: "count" must be a whole number ≥ 1 (or null)"#),
    (#"{"count":1.5}"#, #"config.json: "count" must be a whole number ≥ 1 (or null)"#),
    (
      #"{"maxMessageSize":10}"#,
      #"config.json: "maxMessageSize" must be a whole number of bytes between 125 and 2147483647"#
    ),
    (#"{"url":"http://x"}"#, #"config.json: "url" must be a ws:// or wss:// URL (or null)"#),
    (
      #"{"provider":"nope"}"#,
      #"config.json: "provider" must be one of "# + ProviderCatalog.names.joined(separator: ", ")
    ),
    (#"{"token":42}"#, #"config.json: "token" must be a string (or null)"#),
    (#"[]"#, "config.json: the configuration must be a JSON object"),
    (#"{"debounce":0.5,}"#, "config.json: invalid JSON: unexpected character '}' at byte 16"),
  ])
  func fileErrorsNameKeyAndPath(text: String, message: String) {
    #expect {
      try file(text)
    } throws: { error in
      (error as? ConfigError)?.description == message
    }
  }

  @Test func unknownKeyNamesKeyAndPath() {
    #expect(throws: ConfigError.unknownKey(path: "/etc/t.json", key: "debunce", suggestion: "debounce")) {
      try file(#"{"debunce":1}"#, path: "/etc/t.json")
    }
    #expect(
      ConfigError.unknownKey(path: "/etc/t.json", key: "debunce", suggestion: "debounce").description
        == #"/etc/t.json: unknown key "debunce" (did you mean "debounce"?)"#)
    #expect(throws: ConfigError.unknownKey(path: "c.json", key: "zzz")) {
      try file(#"{"zzz":1}"#, path: "c.json")
    }
    #expect(
      ConfigError.unknownKey(path: "c.json", key: "zzz").description.hasPrefix(
        #"c.json: unknown key "zzz" (known keys: provider, symbols"#))
  }

  @Test func tokenNeverInErrors() {
    let secret = "tok_abcdef123"
    #expect {
      try file(#"{"token":"\#(secret)","url":"ws://h:99999/?token=\#(secret)"}"#)
    } throws: { error in
      let text = (error as? ConfigError)?.description ?? "?"
      return text.contains("\"url\"") && !text.contains(secret)
    }
    #expect {
      try EnvironmentConfig.parse(["FINNHUB_TOKEN": secret, "TICKER_URL": "wss://x:0/?token=\(secret)"])
    } throws: { error in
      let text = (error as? ConfigError)?.description ?? secret
      return text.contains("TICKER_URL") && !text.contains(secret)
    }
  }

  @Test func nullAndEmptyMeanUnset() throws {
    let partial = try file(#"{"token":"","url":null,"maxWait":null,"cacert":null,"count":null}"#)
    #expect(partial.isEmpty)
  }

  @Test func environment() throws {
    let partial = try EnvironmentConfig.parse([
      "FINNHUB_TOKEN": "t", "TICKER_SYMBOLS": "AAPL, BINANCE:ETHUSDT,,", "TICKER_ENGINE": "URLSession",
      "TICKER_DEBOUNCE": "0.25", "TICKER_MAX_WAIT": "1", "TICKER_EVERY_TRADE": "yes",
      "TICKER_URL": "wss://example.com/ws", "TICKER_FORMAT": "json", "TICKER_COLOR": "always",
      "TICKER_CONNECT_TIMEOUT": "2", "TICKER_MAX_MESSAGE_SIZE": "65536", "TICKER_CACERT": "/ca.pem",
      "TICKER_COUNT": "5", "TICKER_VERBOSE": "1", "TICKER_PROVIDER": "finnhub", "UNRELATED": "x",
      "TICKER_COMPRESSION": "OFF",
    ])
    let c = TickerConfig.resolve(environment: partial)
    #expect(c.token == "t" && c.symbols == ["AAPL", "BINANCE:ETHUSDT"] && c.engine == .urlsession)
    #expect(c.debounce == .milliseconds(250) && c.maxWait == .seconds(1) && c.everyTrade)
    #expect(c.url?.host == "example.com" && c.format == .json && c.color == .always)
    #expect(c.connectTimeout == .seconds(2) && c.maxMessageSize == 65536 && c.cacert == "/ca.pem")
    #expect(c.count == 5 && c.verbose && c.compression == .off)
    #expect(TickerConfig.resolve().compression == .on)
    #expect(try EnvironmentConfig.parse(["FINNHUB_TOKEN": "", "TICKER_DEBOUNCE": ""]).isEmpty)
  }

  @Test(arguments: [
    ("TICKER_DEBOUNCE", "soon", "environment variable TICKER_DEBOUNCE must be a number of seconds ≥ 0"),
    ("TICKER_ENGINE", "curl", "environment variable TICKER_ENGINE must be one of auto, urlsession, native"),
    ("TICKER_COMPRESSION", "gzip", "environment variable TICKER_COMPRESSION must be one of on, off"),
    ("TICKER_COUNT", "-3", "environment variable TICKER_COUNT must be a whole number ≥ 1"),
    ("TICKER_SYMBOLS", " , ", "environment variable TICKER_SYMBOLS must be a non-empty list of symbols"),
    ("TICKER_VERBOSE", "maybe", "environment variable TICKER_VERBOSE must be true or false"),
  ])
  func environmentErrors(variable: String, value: String, message: String) {
    #expect {
      try EnvironmentConfig.parse([variable: value])
    } throws: { error in
      (error as? ConfigError)?.description == message
    }
  }

  @Test func precedenceFlagsOverEnvironmentOverFileOverDefaults() throws {
    let fileLayer = try file(
      #"{"symbols":["F"],"debounce":1,"format":"json","engine":"native","token":"file","compression":"off"}"#)
    let envLayer = try EnvironmentConfig.parse([
      "TICKER_SYMBOLS": "E", "TICKER_DEBOUNCE": "2", "FINNHUB_TOKEN": "env",
    ])
    let flags = try ArgumentParser.parse(["-s", "CLI"]).config
    let c = TickerConfig.resolve(file: fileLayer, environment: envLayer, flags: flags)
    #expect(c.symbols == ["CLI"])  // flag beats env and file
    #expect(c.debounce == .seconds(2))  // env beats file
    #expect(c.token == "env")
    #expect(c.format == .json && c.engine == .native && c.compression == .off)  // file beats defaults
    #expect(c.color == .auto)  // default
    let noFlags = TickerConfig.resolve(file: fileLayer, environment: envLayer)
    #expect(noFlags.symbols == ["E"])
    #expect(TickerConfig.resolve(file: fileLayer).symbols == ["F"])
  }

  @Test func configLocation() {
    let env = ["TICKER_CONFIG": "/a.json", "XDG_CONFIG_HOME": "/xdg", "HOME": "/home/u"]
    #expect(
      ConfigLocation.resolve(explicitPath: "x.json", environment: env)
        == ConfigLocation(path: "x.json", isExplicit: true))
    #expect(
      ConfigLocation.resolve(explicitPath: nil, environment: env)
        == ConfigLocation(path: "/a.json", isExplicit: true))
    var e2 = env
    e2["TICKER_CONFIG"] = ""
    #expect(
      ConfigLocation.resolve(explicitPath: nil, environment: e2)
        == ConfigLocation(path: "/xdg/ticker/config.json", isExplicit: false))
    e2["XDG_CONFIG_HOME"] = "relative"
    #expect(
      ConfigLocation.resolve(explicitPath: nil, environment: e2)
        == ConfigLocation(path: "/home/u/.config/ticker/config.json", isExplicit: false))
    #expect(ConfigLocation.resolve(explicitPath: nil, environment: [:]) == nil)
  }

  @Test func missingFiles() throws {
    let missing = Fixture.directory.path + "/does-not-exist.json"
    #expect(try ConfigFile.load(ConfigLocation(path: missing, isExplicit: false)).isEmpty)
    #expect(throws: ConfigError.fileNotFound(path: missing)) {
      try ConfigFile.load(ConfigLocation(path: missing, isExplicit: true))
    }
    // A directory is not a readable config file.
    #expect(throws: ConfigError.self) {
      try ConfigFile.load(ConfigLocation(path: Fixture.directory.path, isExplicit: false))
    }
  }

  @Test func colourResolution() {
    #expect(ColorMode.auto.resolve(isTerminal: true, environment: [:]))
    #expect(!ColorMode.auto.resolve(isTerminal: false, environment: [:]))
    #expect(!ColorMode.auto.resolve(isTerminal: true, environment: ["NO_COLOR": "1"]))
    #expect(ColorMode.auto.resolve(isTerminal: true, environment: ["NO_COLOR": ""]))
    #expect(!ColorMode.auto.resolve(isTerminal: true, environment: ["TERM": "dumb"]))
    #expect(ColorMode.always.resolve(isTerminal: false, environment: ["NO_COLOR": "1"]))
    #expect(!ColorMode.never.resolve(isTerminal: true, environment: [:]))
  }
}
