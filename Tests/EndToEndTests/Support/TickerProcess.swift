import Foundation
import TestSupport
import Testing

/// Runs the built `ticker` binary as a person would: arguments, environment, stdin closed,
/// stdout and stderr captured, the exit status returned.
struct TickerProcess {
  struct Result: Sendable {
    /// The exit status; -1 when the ticker did not exit by itself (see `termination`).
    var status: Int32 { termination?.status ?? -1 }
    /// How it ended: an exit status or a signal; nil when it did not end (even after SIGKILL).
    var termination: Spawned.Termination?
    var stdout: String
    var stderr: String
    var stdoutLines: [String] {
      stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }
  }

  /// The ticker the tests run: `built`, or `TICKER_TEST_EXECUTABLE` where that is set (e.g.
  /// the static build, `Scripts/test-static.sh`). Tests about the dynamically linked build
  /// itself (its plugin, its imports) use `built`.
  static let executable: URL = {
    if let path = ProcessInfo.processInfo.environment["TICKER_TEST_EXECUTABLE"], !path.isEmpty {
      return URL(fileURLWithPath: path)
    }
    return built
  }()

  /// Whether `executable` is a static executable (an ELF file without an interpreter): it cannot
  /// load the URLSession plugin, and the tests of that path are off (`StaticBuildTests` cover it).
  static let executableIsStatic: Bool = {
    guard let data = FileManager.default.contents(atPath: executable.path) else { return false }
    return ELFFile.hasInterpreter(data) == false
  }()

  static let staticSkipReason: Comment =
    "the ticker under test is a static executable (TICKER_TEST_EXECUTABLE): no URLSession plugin"

  /// The `ticker` executable next to the test bundle (SwiftPM builds it with the tests).
  static var built: URL {
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
    let run = try await Spawned.run(
      program.path, arguments, environment: environment, standardInput: .null, timeout: timeout)
    if run.timedOut { Issue.record("ticker \(arguments) did not exit within \(timeout) s") }
    return Result(termination: run.termination, stdout: run.outputText, stderr: run.errorText)
  }
}
