import Foundation
import Testing

@testable import TestSupport

/// `Scripts/install.sh`, run for real into a temporary prefix. It is given the binaries this
/// test run built (`--from`): building in release mode inside `swift test` would wait on the
/// build directory's lock.
@Suite("Scripts/install.sh")
struct InstallScriptTests {
  static let script = Fixture.directory.deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Scripts/install.sh").path
  static let bash = URL(fileURLWithPath: "/bin/bash")
  static var builtDirectory: String { TickerProcess.built.deletingLastPathComponent().path }

  static func temporaryDirectory() throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ticker-install-\(UUID())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir
  }

  @Test("--prefix DIR --from BUILD_DIR installs a ticker that runs, with the plugin beside it")
  func installs() async throws {
    let dir = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let prefix = dir.appendingPathComponent("prefix with space").path
    let result = try await TickerProcess.run(
      [Self.script, "--prefix", prefix, "--from", Self.builtDirectory], program: Self.bash)
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    let installed = prefix + "/bin/ticker"
    #expect(FileManager.default.isExecutableFile(atPath: installed))
    #expect(FileManager.default.fileExists(atPath: prefix + "/bin/libTickerURLSession.so"))
    #expect(result.stdout.contains("install: \(installed) (ticker "), "\(result.stdout)")

    // The installed copy works on its own: the demo, no key, no internet.
    let run = try await TickerProcess.run(
      ["--demo", "--count", "1", "--every-trade"], program: URL(fileURLWithPath: installed))
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdoutLines.count == 1)
    #expect(run.stdoutLines.first.flatMap(DemoLine.init)?.symbol == "BINANCE:BTCUSDT", "\(run.stdout)")
  }

  @Test(
    "bad arguments are refused with 64 and the usage, installing nothing",
    arguments: [
      ["--prefix"], ["--prefix", ""], ["--from"], ["--bogus"], ["extra"], ["--static"],
      ["--static", "/x/ticker"],
      ["--from", "/x", "--static", "/x/ticker", "--dynamic"],
    ])
  func badArguments(arguments: [String]) async throws {
    let result = try await TickerProcess.run([Self.script] + arguments, program: Self.bash)
    #expect(result.status == 64, "\(result.stderr)")
    #expect(
      result.stderr.contains(
        "usage: bash Scripts/install.sh [--prefix DIR] [--dynamic] [--from BUILD_DIR [--static FILE]]"))
  }

  @Test("a build directory without a ticker is refused with 66, and nothing is created")
  func nothingBuilt() async throws {
    let dir = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let prefix = dir.appendingPathComponent("prefix").path
    let result = try await TickerProcess.run(
      [Self.script, "--prefix", prefix, "--from", dir.path], program: Self.bash)
    #expect(result.status == 66, "\(result.stderr)")
    #expect(result.stderr.contains("no ticker executable in \(dir.path)"))
    #expect(!FileManager.default.fileExists(atPath: prefix))
  }
}
