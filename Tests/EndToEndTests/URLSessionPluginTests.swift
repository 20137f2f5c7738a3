import Foundation
import TestSupport
import Testing
import WebSocketClient

@testable import EnginePlugin
@testable import URLSessionEngine
@testable import WebSocketWire

/// The plugin boundary: loading (missing file, not a plugin), errors across the C ABI, the order
/// of callbacks, and the ticker without its plugin.
@Suite("URLSession plugin")
struct URLSessionPluginTests {
  static func temporaryDirectory() throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ticker-plugin-\(UUID())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir.path
  }

  @Test("a missing plugin file says so")
  func missing() throws {
    let dir = try Self.temporaryDirectory()
    #expect(throws: URLSessionPlugin.LoadError.missing(path: dir + "/libTickerURLSession.so")) {
      try URLSessionPlugin.load(directory: dir)
    }
  }

  @Test("a static executable refuses before looking at the file, and says why and what can")
  func staticExecutable() throws {
    let dir = try Self.temporaryDirectory()
    let path = dir + "/libTickerURLSession.so"
    try "not a library".write(toFile: path, atomically: true, encoding: .utf8)
    #expect(throws: URLSessionPlugin.LoadError.staticExecutable) {
      try URLSessionPlugin.load(path: path, staticExecutable: true)
    }
    let text = "\(URLSessionPlugin.LoadError.staticExecutable)"
    #expect(text.contains("static executable") && text.contains("dynamically linked build"))
    // This test process is dynamically linked (it loads the plugin in other tests).
    #expect(!URLSessionPlugin.isStaticExecutable)
  }

  @Test("a file dlopen refuses is reported with dlerror's text")
  func notLoadable() throws {
    let dir = try Self.temporaryDirectory()
    let path = dir + "/libTickerURLSession.so"
    try "not a library".write(toFile: path, atomically: true, encoding: .utf8)
    do {
      _ = try URLSessionPlugin.load(path: path)
      Issue.record("loaded a text file")
    } catch {
      guard case .cannotLoad(let reported, let message) = error else {
        Issue.record("\(error)")
        return
      }
      #expect(reported == path)
      #expect(!message.isEmpty)
    }
  }

  @Test(
    "errors cross the C ABI unchanged",
    arguments: [
      WebSocketError.unsupported("WebSockets not supported by libcurl"),
      .handshake(.unexpectedStatus(code: 401, reason: "Unauthorized", retryAfter: nil)),
      .handshake(.unexpectedStatus(code: 429, reason: "Too Many Requests", retryAfter: 30)),
      .transport(.timeout("URLSession: timed out")),
      .transport(.resolve(host: "ws.example", message: "no such host")),
      .transport(.connect(host: "127.0.0.1", port: 9, errno: 111)),
      .transport(.certificateVerification(code: -1202, message: "untrusted")),
      .transport(.tls("URLSession: NSURLErrorDomain -1005")),
      .invalidURL(InvalidWebSocketURL("bad")),
      .abnormalClosure,
      .notConnected,
    ])
  func errorRoundTrip(error: WebSocketError) {
    var back: WebSocketError?
    PluginError(error).withCError { back = PluginErrorMapping.webSocketError($0) }
    #expect(back == error)
  }

  @Test("an error the ABI has no kind for still arrives, as text")
  func otherError() {
    var back: WebSocketError?
    PluginError(.transport(.connectionClosed)).withCError { back = PluginErrorMapping.webSocketError($0) }
    guard case .transport(.tls(let text)) = back else {
      Issue.record("\(String(describing: back))")
      return
    }
    #expect(text.contains("connectionClosed"))
  }

  @Test("the end waits for the message callback in flight, and comes once")
  func endAfterMessages() {
    let gate = CallbackGate<Int>()
    #expect(gate.arm() == nil)
    #expect(gate.beginMessage())
    #expect(gate.end(1) == nil)  // a message callback is still running
    #expect(!gate.beginMessage())  // nothing after the end
    #expect(gate.endMessage() == 1)
    #expect(gate.end(2) == nil)
  }

  @Test("an end before the connect is reported waits for arm; a failed connect drops it")
  func armAndDisarm() {
    let early = CallbackGate<Int>()
    #expect(early.end(7) == nil)
    #expect(early.arm() == 7)
    let failed = CallbackGate<Int>()
    #expect(failed.end(7) == nil)
    failed.disarm()
    #expect(!failed.beginMessage())
    #expect(failed.arm() == nil)  // the dropped end never comes back
  }

  #if os(Linux)
    @Test(
      "a ticker without its plugin: --engine urlsession exits 69 saying so; auto still runs native",
      .enabled(if: !TickerProcess.executableIsStatic, TickerProcess.staticSkipReason))
    func tickerWithoutPlugin() async throws {
      let dir = try Self.temporaryDirectory()
      let copy = dir + "/ticker"
      try await ExecutableCopy.copy(TickerProcess.executable.path, to: copy)
      let explicit = try await Self.run(copy, ["--demo", "--count", "1", "--engine", "urlsession"])
      #expect(explicit.status == 69)
      #expect(
        explicit.stderr.contains("the URLSession engine plugin is missing (no \(dir)/libTickerURLSession.so)")
      )
      let auto = try await Self.run(copy, ["--demo", "--count", "1", "-v"])
      #expect(auto.status == 0, "\(auto.stderr)")
      #expect(auto.stderr.contains("engine native: auto:"))
    }

    static func run(_ executable: String, _ arguments: [String]) async throws -> (
      status: Int32, stderr: String
    ) {
      // `timeout` only bounds a hang (the test then fails on the status); it decides nothing.
      let run = try await Spawned.run(
        "/usr/bin/timeout", ["60", executable] + arguments, environment: TickerProcess.cleanEnvironment(),
        standardOutput: .null, timeout: 90)
      return (run.termination?.status ?? -1, run.errorText)
    }
  #endif
}
