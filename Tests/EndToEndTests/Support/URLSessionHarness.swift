import Foundation
import TestSupport
import Testing

/// The harness that turns the stock FoundationNetworking WebSocket path on
/// (`Scripts/setup-urlsession-harness.sh`, run by `Scripts/setup-test-env.sh`): libcurl 8.14.1
/// from bookworm-backports, the LD_PRELOAD library and `plugin_client`, described by
/// `.build/urlsession-harness/env`. The preload must reach a child process (the test runner is
/// already loaded), so the tests run `ticker` or `plugin_client` with the environment below.
///
/// Suites using it declare `.requires(.urlSessionHarness)`.
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
    guard let settings = TestTools.urlSessionHarness else { return env }
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
