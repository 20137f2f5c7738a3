import Foundation
import Testing

/// The harness that turns the stock FoundationNetworking WebSocket path on
/// (`Scripts/setup-urlsession-harness.sh`, run by `Scripts/setup-test-env.sh`): libcurl 8.14.1
/// from bookworm-backports, the LD_PRELOAD library and `plugin_client`, described by
/// `.build/urlsession-harness/env`. The preload must reach a child process (the test runner is
/// already loaded), so the tests run `ticker` or `plugin_client` with the environment below.
///
/// Where it was not set up (a clone without the downloaded libcurl) the tests that need it are
/// skipped with `skipReason`; with `TICKER_REQUIRE_URLSESSION_HARNESS=1` (set by `.ci/run`) a
/// missing harness is a failure instead (`URLSessionHarnessTests`).
enum URLSessionHarness {
  /// Which libcurl the child runs with.
  enum Libcurl: String, Sendable, CaseIterable, CustomTestStringConvertible {
    /// libcurl 8.14.1 (ws/wss on) from the harness, with the preload: layers 1 and 2 allow.
    case backports
    /// Debian 12's own libcurl 7.88.1 (exports curl_ws_* but WebSockets off), with the
    /// preload: layer 1 allows, layer 2 refuses.
    case debian
    /// No preload at all: the toolchain's FoundationNetworking as it is (layer 1 refuses).
    case stock

    var testDescription: String {
      switch self {
      case .backports: "preload + libcurl 8.14.1"
      case .debian: "preload + libcurl 7.88.1"
      case .stock: "no preload"
      }
    }
  }

  static let repositoryRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<4 { url.deleteLastPathComponent() }
    return url.path
  }()

  static var envFile: String { repositoryRoot + "/.build/urlsession-harness/env" }
  static var python: String { repositoryRoot + "/.build/venv/bin/python" }

  /// The harness's settings (LIBCURL_DIR, PRELOAD, CLIENT, LIBCURL_VERSION), if set up.
  static let settings: [String: String]? = {
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
  }()

  static var isAvailable: Bool { settings != nil }
  static var isRequired: Bool {
    ProcessInfo.processInfo.environment["TICKER_REQUIRE_URLSESSION_HARNESS"] == "1"
  }

  static let skipReason: Comment = """
    the URLSession harness is not set up (no .build/urlsession-harness/env or .build/venv): \
    run `bash Scripts/setup-urlsession-harness.sh` (needs Debian 12 and bookworm-backports)
    """

  /// The plugin next to the built `ticker`.
  static var plugin: String {
    TickerProcess.built.deletingLastPathComponent().appendingPathComponent("libTickerURLSession.so").path
  }

  /// `ticker ARGUMENTS` (or `program`) with libcurl 8.14.1, run again once if it died by a
  /// signal: corelibs' URLSession on Linux crashes now and then (measured: SIGSEGV in
  /// `pthread_rwlock_wrlock` on one of Dispatch's threads, in about 2 % of runs on a loaded
  /// machine). The crash is printed, so that it stays visible.
  static func runTicker(_ arguments: [String], program: URL = TickerProcess.executable) async throws
    -> TickerProcess.Result
  {
    let first = try await TickerProcess.run(arguments, environment: environment(.backports), program: program)
    guard case .signaled(let signal) = first.termination else { return first }
    print("URLSession run \(arguments) killed by signal \(signal) (a corelibs crash): run again")
    return try await TickerProcess.run(arguments, environment: environment(.backports), program: program)
  }

  /// A clean child environment running with `libcurl`.
  static func environment(_ libcurl: Libcurl, _ extra: [String: String] = [:]) -> [String: String] {
    var env = TickerProcess.cleanEnvironment(extra)
    env["LD_PRELOAD"] = nil
    env["LD_LIBRARY_PATH"] = nil
    // A crash (corelibs has some) ends at once instead of writing a long backtrace first.
    env["SWIFT_BACKTRACE"] = "enable=no"
    guard let settings else { return env }
    switch libcurl {
    case .backports:
      env["LD_PRELOAD"] = settings["PRELOAD"]
      env["LD_LIBRARY_PATH"] = settings["LIBCURL_DIR"]
    case .debian:
      env["LD_PRELOAD"] = settings["PRELOAD"]
    case .stock:
      break
    }
    return env
  }
}
