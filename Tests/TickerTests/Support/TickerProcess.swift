import Foundation
import Testing

/// Runs the built `ticker` binary as a person would: arguments, environment, stdin closed,
/// stdout and stderr captured, the exit status returned.
struct TickerProcess {
  struct Result: Sendable {
    var status: Int32
    var stdout: String
    var stderr: String
    var stdoutLines: [String] {
      stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }
  }

  /// The `ticker` executable next to the test bundle (SwiftPM builds it with the tests).
  static var executable: URL {
    let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    var dir = exe.deletingLastPathComponent()
    // On Linux the test runner is `<bin>/tickerPackageTests.xctest`; on macOS it is inside a bundle.
    while !FileManager.default.fileExists(atPath: dir.appendingPathComponent("ticker").path), dir.path != "/"
    {
      dir = dir.deletingLastPathComponent()
    }
    return dir.appendingPathComponent("ticker")
  }

  /// An environment without the caller's Finnhub/ticker settings, so the host cannot leak in.
  static func cleanEnvironment(_ extra: [String: String] = [:]) -> [String: String] {
    var env = ProcessInfo.processInfo.environment.filter { key, _ in
      !key.hasPrefix("TICKER_") && key != "FINNHUB_TOKEN" && key != "NO_COLOR" && key != "XDG_CONFIG_HOME"
    }
    env["HOME"] = FileManager.default.temporaryDirectory.appendingPathComponent("ticker-test-home").path
    for (k, v) in extra { env[k] = v }
    return env
  }

  /// Runs to completion. `timeout` only guards against a hang (the test fails, the child is
  /// killed); it never decides an outcome.
  /// `program` is the ticker unless given (e.g. a shell that starts the ticker in a special way).
  static func run(
    _ arguments: [String], environment: [String: String] = cleanEnvironment(), timeout: Double = 60,
    program: URL = executable
  ) async throws -> Result {
    let process = Process()
    process.executableURL = program
    process.arguments = arguments
    process.environment = environment
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.runOnOneArena()
    // Read on threads of their own: a blocked read must not hold one of the pool's few threads.
    let outData = Task { await offPool { out.fileHandleForReading.readDataToEndOfFile() } }
    let errData = Task { await offPool { err.fileHandleForReading.readDataToEndOfFile() } }
    var exited = await waitForExit(process, timeout: timeout)
    if !exited {
      kill(process.processIdentifier, SIGKILL)
      Issue.record("ticker \(arguments) did not exit within \(timeout) s")
      exited = await waitForExit(process, timeout: 10)
    }
    return Result(
      status: exited ? process.terminationStatus : -1,
      stdout: String(decoding: await outData.value, as: UTF8.self),
      stderr: String(decoding: await errData.value, as: UTF8.self))
  }

  /// Waits off the concurrency pool (blocking it starves every other test on 2 cores).
  private static func waitForExit(_ process: Process, timeout: Double) async -> Bool {
    await offPool { process.waitForExit(within: timeout) }
  }
}

/// Files under `Tests/Fixtures/`.
enum Fixture {
  static let directory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures")

  static func text(_ name: String) throws -> String {
    try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
  }
}
