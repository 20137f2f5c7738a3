import Foundation
import TestSupport
import Testing

/// The static build (`Scripts/build-static.sh`: `.build/static/release/ticker`), installed as
/// `Scripts/install.sh` installs it, with this test run's dynamically linked `ticker` and plugin
/// as its companion in `libexec/ticker/`. `.ci/run` builds it before the tests and sets
/// `TICKER_REQUIRE_STATIC_BUILD=1`: there a missing build fails (`StaticBuildPresenceTests`)
/// instead of skipping these.
enum StaticBuild {
  static var executable: String { TestTools.repositoryRoot + "/.build/static/release/ticker" }
  static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: executable) }
  static var isRequired: Bool {
    ProcessInfo.processInfo.environment["TICKER_REQUIRE_STATIC_BUILD"] == "1"
  }
  static let skipReason: Comment = "no static build: run `bash Scripts/build-static.sh`"

  /// A prefix (a new temporary one unless `given`) with the static ticker installed in it, as
  /// `install.sh` does by default.
  static func install(into given: String? = nil) async throws -> (prefix: String, installLog: String) {
    let prefix =
      given ?? FileManager.default.temporaryDirectory.appendingPathComponent("ticker-static-\(UUID())").path
    let result = try await TickerProcess.run(
      [
        InstallScriptTests.script, "--prefix", prefix, "--from", InstallScriptTests.builtDirectory,
        "--static", executable,
      ],
      program: InstallScriptTests.bash)
    try #require(result.status == 0, "\(result.stdout)\(result.stderr)")
    return (prefix, result.stdout)
  }
}

@Suite(
  "static build and its URLSession companion",
  .enabled(if: StaticBuild.isAvailable, StaticBuild.skipReason), .timeLimit(.minutes(3)))
struct StaticBuildTests {
  @Test("installed: bin/ticker is static and runs the demo; the companion and plugin are in libexec/ticker")
  func installed() async throws {
    let (prefix, log) = try await StaticBuild.install()
    defer { try? FileManager.default.removeItem(atPath: prefix) }
    let ticker = prefix + "/bin/ticker"
    #expect(log.contains("install: \(ticker), static (ticker "), "\(log)")
    #expect(FileManager.default.isExecutableFile(atPath: prefix + "/libexec/ticker/ticker"))
    #expect(FileManager.default.fileExists(atPath: prefix + "/libexec/ticker/libTickerURLSession.so"))
    #expect(!FileManager.default.fileExists(atPath: prefix + "/bin/libTickerURLSession.so"))

    let ldd = try await Spawned.run("/usr/bin/ldd", [ticker], standardInput: .null, timeout: 30)
    #expect(!ldd.outputText.contains("=>"), "\(ldd.outputText)")

    let run = try await TickerProcess.run(
      ["--demo", "--count", "1", "--every-trade", "-v"], program: URL(fileURLWithPath: ticker))
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdoutLines.count == 1)
    let line = try #require(run.stdoutLines.first.flatMap(DemoLine.init), "\(run.stdout)")
    #expect(line.symbol == "BINANCE:BTCUSDT" && line.isRecent(), "\(run.stdout)")
    // `auto` decides without loading anything, and no companion is run.
    #expect(
      run.stderr.contains(
        "auto: URLSession cannot do WebSockets here: decided by layer 1, compile-time imports: "
          + "this ticker is a static executable"), "\(run.stderr)")
    #expect(!run.stderr.contains("companion /"))
  }

  @Test(
    "--engine urlsession runs the companion, with the same arguments: prices over libcurl 8.14.1",
    .requires(.urlSessionHarness))
  func companionWorks() async throws {
    let (prefix, _) = try await StaticBuild.install()
    defer { try? FileManager.default.removeItem(atPath: prefix) }
    // LD_PRELOAD and LD_LIBRARY_PATH mean nothing to the static process; execv passes them on.
    let run = try await URLSessionHarness.runTicker(
      ["--demo", "--count", "3", "--engine", "urlsession", "-v"],
      program: URL(fileURLWithPath: prefix + "/bin/ticker"))
    #expect(run.status == 0, "\(run.termination?.description ?? "did not end"): \(run.stderr)")
    #expect(run.stdoutLines.count == 3)
    #expect(run.stdoutLines.allSatisfy { $0.contains("\tBINANCE:BTCUSDT\t") })
    #expect(
      run.stderr.contains(
        "this ticker is a static executable; running its companion \(prefix)/libexec/ticker/ticker"))
    #expect(run.stderr.contains("with the urlsession engine"))
  }

  @Test(
    "the companion is the same process: SIGINT to the PID started ends it with 130, prices printed",
    .requires(.urlSessionHarness))
  func companionTakesSignals() async throws {
    let (prefix, _) = try await StaticBuild.install()
    defer { try? FileManager.default.removeItem(atPath: prefix) }
    let ticker = try RunningTicker(
      ["--demo", "--engine", "urlsession"], environment: URLSessionHarness.environment(.backports),
      program: prefix + "/bin/ticker")
    #expect(await ticker.lines(2).count == 2)
    // execv kept the PID: what runs there now is the companion.
    #expect(ticker.mappedFiles()?.contains(prefix + "/libexec/ticker/libTickerURLSession.so") == true)
    ticker.signal(SIGINT)
    let ended = await ticker.exit()
    #expect(ended.status == 130, "\(ended.stderr)")
  }

  @Test("the companion's own refusal where libcurl has no WebSockets, its config warning said once")
  func companionRefuses() async throws {
    let (prefix, _) = try await StaticBuild.install()
    defer { try? FileManager.default.removeItem(atPath: prefix) }
    // A config file others may read, with a token: warned about once, by the companion.
    let config = prefix + "/config.json"
    try #"{"token": "sekrit-token-value"}"#.write(toFile: config, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: config)
    let run = try await TickerProcess.run(
      ["--demo", "--count", "1", "--engine", "urlsession", "-v", "--config", config],
      environment: URLSessionHarness.environment(.stock),
      program: URL(fileURLWithPath: prefix + "/bin/ticker"))
    #expect(run.status == 69, "\(run.stderr)")
    #expect(run.stdout.isEmpty)
    #expect(run.stderr.contains("running its companion \(prefix)/libexec/ticker/ticker"))
    #expect(run.stderr.contains("WebSockets not supported by libcurl"), "\(run.stderr)")
    #expect(run.stderr.components(separatedBy: "ticker: warning: \(config)").count == 2, "\(run.stderr)")
    #expect(!run.stderr.contains("sekrit-token-value"))
  }

  @Test("a static install over a dynamic one and back: each layout removes the other's leftovers")
  func layoutsReplaceEachOther() async throws {
    let (prefix, _) = try await StaticBuild.install()
    defer { try? FileManager.default.removeItem(atPath: prefix) }
    let files = FileManager.default
    let dynamic = try await TickerProcess.run(
      [InstallScriptTests.script, "--prefix", prefix, "--from", InstallScriptTests.builtDirectory],
      program: InstallScriptTests.bash)
    #expect(dynamic.status == 0, "\(dynamic.stderr)")
    #expect(files.fileExists(atPath: prefix + "/bin/libTickerURLSession.so"))
    #expect(!files.fileExists(atPath: prefix + "/libexec/ticker"))
    #expect(
      try ELFFile.hasInterpreter(Data(contentsOf: URL(fileURLWithPath: prefix + "/bin/ticker"))) == true)

    _ = try await StaticBuild.install(into: prefix)
    #expect(!files.fileExists(atPath: prefix + "/bin/libTickerURLSession.so"))
    #expect(files.isExecutableFile(atPath: prefix + "/libexec/ticker/ticker"))
    #expect(
      try ELFFile.hasInterpreter(Data(contentsOf: URL(fileURLWithPath: prefix + "/bin/ticker"))) == false)
  }

  @Test("without its companion: exit 69, saying where it would be")
  func companionMissing() async throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ticker-lone-\(UUID())").path
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try FileManager.default.createDirectory(atPath: dir + "/bin", withIntermediateDirectories: true)
    try await ExecutableCopy.copy(StaticBuild.executable, to: dir + "/bin/ticker")
    let run = try await TickerProcess.run(
      ["--demo", "--count", "1", "--engine", "urlsession"], program: URL(fileURLWithPath: dir + "/bin/ticker")
    )
    #expect(run.status == 69, "\(run.stderr)")
    #expect(run.stdout.isEmpty)
    #expect(run.stderr.contains("this ticker is a static executable"))
    #expect(
      run.stderr.contains("(there is no \(dir)/libexec/ticker/ticker); use --engine auto or native"),
      "\(run.stderr)")
  }
}

/// Where CI requires the static build (`TICKER_REQUIRE_STATIC_BUILD=1`, set by `.ci/run`), a
/// missing one fails here instead of quietly skipping `StaticBuildTests`.
@Suite("static build presence")
struct StaticBuildPresenceTests {
  @Test(
    "the static build is there where it is required",
    .enabled(
      if: StaticBuild.isRequired, "TICKER_REQUIRE_STATIC_BUILD is not 1: the static build's tests may skip"))
  func present() {
    #expect(StaticBuild.isAvailable, StaticBuild.skipReason)
  }
}
