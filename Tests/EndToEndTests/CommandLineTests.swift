import CLI
import Emulators
import FeedRuntime
import Foundation
import Outputs
import Testing
import Venues

@testable import Recording
@testable import TestSupport

/// The built binary's command-line surface: help, version, usage errors, configuration, engine
/// choice and the demo.
@Suite("ticker command line")
struct CommandLineTests {
  @Test("--help prints the golden text and exits 0")
  func help() async throws {
    let result = try await TickerProcess.run(["--help"])
    #expect(result.status == 0)
    if Fixture.updatingGoldens {
      try result.stdout.write(
        to: Fixture.directory.appendingPathComponent("golden/help.txt"), atomically: true, encoding: .utf8)
    }
    #expect(result.stdout == (try Fixture.text("golden/help.txt")))
    #expect(result.stderr.isEmpty)
  }

  /// Every option the parser accepts is documented, and every documented option is accepted.
  @Test(
    "help and parser agree",
    arguments: [
      ["--symbol", "X"], ["-s", "X"], ["--url", "ws://h/"], ["--config", "f"], ["--engine", "native"],
      ["--debounce", "1"], ["--max-wait", "1"], ["--every-trade"], ["--format", "json"],
      ["--color", "never"], ["--no-color"], ["--cacert", "f"], ["--connect-timeout", "1"],
      ["--max-message-size", "1000"], ["--compression", "off"], ["--max-retries", "0"],
      ["--max-backoff", "5"],
      ["--ping-interval", "0"], ["--pong-timeout", "1"], ["--silence-timeout", "0"], ["--count", "1"],
      ["--verbose"], ["-v"], ["--demo"], ["--help"],
      ["-h"], ["--version"],
    ])
  func helpAndParserAgree(arguments: [String]) throws {
    let help = try Fixture.text("golden/help.txt")
    #expect(help.contains(arguments[0]))
    #expect(throws: Never.self) { try ArgumentParser.parse(arguments) }
  }

  @Test("--version; the static build also names the OpenSSL linked into it")
  func version() async throws {
    let result = try await TickerProcess.run(["--version"])
    #expect(result.status == 0)
    let lines = result.stdoutLines
    #expect(lines.first == "ticker 0.1.0")
    if TickerProcess.executableIsStatic {
      // Scripts/build-static.sh links OpenSSL in: its security updates need a new build.
      #expect(lines.count == 2, "\(result.stdout)")
      #expect(lines.last?.hasPrefix("OpenSSL 3.") == true, "\(result.stdout)")
      #expect(lines.last?.hasSuffix(", linked in") == true, "\(result.stdout)")
    } else {
      // Loaded from the system's libssl.so.3 when wss:// needs it: nothing to name.
      #expect(lines.count == 1, "\(result.stdout)")
    }
  }

  @Test(
    "usage errors exit 64 with a message on stderr",
    arguments: [
      (["--bogus"], "unknown option '--bogus'"),
      (["--debounce", "soon"], "--debounce"),
      (["--count"], "needs a value"),
      (["--engine", "fast"], "--engine"),
      (["--token", "sk-cli-secret-77"], "FINNHUB_TOKEN"),
    ])
  func usageErrors(arguments: [String], expected: String) async throws {
    let result = try await TickerProcess.run(arguments)
    #expect(result.status == 64)
    #expect(result.stderr.contains(expected), "\(result.stderr)")
    #expect(result.stdout.isEmpty)
    #expect(!result.stderr.contains("sk-cli-secret-77"))
  }

  // MARK: Configuration

  func writeConfig(_ text: String) throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ticker-config-\(UUID())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let path = dir.appendingPathComponent("config.json").path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  @Test("an unknown key names the key and the file: exit 78")
  func unknownKey() async throws {
    let path = try writeConfig(#"{"symbols":["AAPL"],"debounse":1}"#)
    let result = try await TickerProcess.run(["--config", path, "--demo"])
    #expect(result.status == 78)
    #expect(result.stderr.contains(path))
    #expect(result.stderr.contains("\"debounse\""))
  }

  @Test("a wrong type names the key and the file: exit 78")
  func wrongType() async throws {
    let path = try writeConfig(#"{"debounce":"fast"}"#)
    let result = try await TickerProcess.run(
      ["--demo"], environment: TickerProcess.cleanEnvironment(["TICKER_CONFIG": path]))
    #expect(result.status == 78)
    #expect(result.stderr.contains(path))
    #expect(result.stderr.contains("\"debounce\""))
  }

  @Test("a missing --config file: exit 66")
  func missingConfig() async throws {
    let result = try await TickerProcess.run(["--config", "/nonexistent/ticker.json", "--demo"])
    #expect(result.status == 66)
    #expect(result.stderr.contains("/nonexistent/ticker.json"))
  }

  @Test("config.example.json is accepted as it is")
  func exampleConfig() async throws {
    let example = Fixture.directory.deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("config.example.json").path
    let result = try await TickerProcess.run(["--config", example, "--demo", "--count", "1"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdoutLines.count == 1)
  }

  @Test("precedence: flags > environment > file > defaults, seen by the server")
  func precedence() async throws {
    let script = try SessionScript(ndjson: Fixture.text("finnhub-session.ndjson"))
    let feed = try FeedServer(script: script, options: .init(timeScale: 0, ending: .hold))
    feed.start()
    defer { feed.stop() }
    let url = "ws://127.0.0.1:\(feed.port)/"
    let token = "sk-file-token-31"
    let path = try writeConfig(
      #"{"symbols":["AAPL"],"token":"\#(token)","url":"ws://127.0.0.1:1/","count":1}"#)

    // The file's URL is overridden by the environment's; its symbols by the flag; its token used.
    let result = try await TickerProcess.run(
      ["--config", path, "--symbol", "BINANCE:BTCUSDT", "--every-trade"],
      environment: TickerProcess.cleanEnvironment(["TICKER_URL": url, "TICKER_SYMBOLS": "AAPL"]))
    #expect(result.status == 0, "\(result.stderr)")
    #expect(feed.record.clientMessages.first == #"{"type":"subscribe","symbol":"BINANCE:BTCUSDT"}"#)
    #expect(feed.record.targets.first == "/?token=\(token)")
    #expect(result.stdoutLines.count == 1)
    #expect(!result.stderr.contains(token))
  }

  // MARK: Engine choice

  #if os(Linux)
    @Test(
      "auto picks the native engine here, and --verbose says why",
      .enabled(if: !TickerProcess.executableIsStatic, TickerProcess.staticSkipReason))
    func autoPicksNative() async throws {
      let result = try await TickerProcess.run(["--demo", "--count", "1", "--verbose"])
      #expect(result.status == 0)
      #expect(result.stderr.contains("engine native: auto: URLSession cannot do WebSockets here"))
      // Decided from libFoundationNetworking.so's imports, without loading it.
      #expect(result.stderr.contains("libFoundationNetworking.so imports no curl_ws_* function"))
      #expect(result.stderr.contains("with the native engine"))
    }

    @Test(
      "--engine urlsession where it cannot work: exit 69 and the reason",
      .enabled(if: !TickerProcess.executableIsStatic, TickerProcess.staticSkipReason))
    func urlSessionUnsupported() async throws {
      let result = try await TickerProcess.run(["--demo", "--count", "1", "--engine", "urlsession"])
      #expect(result.status == 69)
      #expect(result.stderr.contains("--engine urlsession cannot work here"))
      // The plugin was loaded and URLSession's own probe answered.
      #expect(result.stderr.contains("WebSockets not supported by libcurl"))
      #expect(result.stdout.isEmpty)
    }
  #endif

  @Test("--engine native runs the native engine")
  func explicitNative() async throws {
    let result = try await TickerProcess.run(["--demo", "--count", "1", "--engine", "native", "-v"])
    #expect(result.status == 0)
    #expect(result.stderr.contains("engine native: --engine native"))
  }

  // MARK: Demo

  @Test("--demo streams trades of now with no token, on the default symbol")
  func demo() async throws {
    let result = try await TickerProcess.run(["--demo", "--every-trade", "--count", "5"])
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdoutLines.compactMap(DemoLine.init)
    #expect(lines.count == 5, "\(result.stdout)")
    #expect(lines.allSatisfy { $0.symbol == "BINANCE:BTCUSDT" && $0.isRecent() }, "\(result.stdout)")
    #expect(result.stderr.isEmpty)
  }

  @Test("--demo keeps streaming after the recording (synthetic trades)")
  func demoContinues() async throws {
    let result = try await TickerProcess.run(["--demo", "--debounce", "0", "--count", "12"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdoutLines.count == 12)
    let fields = result.stdoutLines.map { $0.split(separator: "\t") }
    #expect(fields.allSatisfy { $0.count == 3 && $0[1] == "BINANCE:BTCUSDT" && Double($0[2]) != nil })
    // Distinct mode: no two consecutive lines for the symbol repeat a price.
    for (a, b) in zip(fields, fields.dropFirst()) { #expect(a[2] != b[2]) }
  }
}

@Suite("config file permissions")
struct ConfigPermissionTests {
  @Test("a token in a file others can read gets a warning; a private file does not")
  func warning() async throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ticker-perm-\(UUID())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let path = dir.appendingPathComponent("config.json").path
    let token = "sk-perm-secret-55"
    try #"{"token":"\#(token)","count":1}"#.write(toFile: path, atomically: true, encoding: .utf8)

    chmod(path, 0o644)
    let open = try await TickerProcess.run(["--config", path, "--demo"])
    #expect(open.status == 0)
    #expect(open.stderr.contains("holds an API token and is readable by everyone (mode 0644)"))
    #expect(open.stderr.contains("chmod 600"))
    #expect(!open.stderr.contains(token))

    chmod(path, 0o600)
    let closed = try await TickerProcess.run(["--config", path, "--demo"])
    #expect(closed.status == 0)
    #expect(closed.stderr.isEmpty, "\(closed.stderr)")
  }
}
