import Foundation
import TestSupport

@testable import Transport
@testable import WebSocketClient
@testable import WebSocketServer
@testable import WebSocketWire

/// `websocat` (Rust, independent of our framing code) as a WebSocket server on 127.0.0.1 that
/// mirrors every message back: `websocat FLAGS ws-l:127.0.0.1:PORT mirror:`. Call `stop()` when
/// the test is done (use `defer`).
///
/// websocat has no port-0 mode (`--stdout-announce-listening-ports` then reports port 0), so a
/// free port is found by binding port 0 and releasing it. Readiness is its `LISTEN` line, printed
/// once bound; if another process took the port in between, websocat exits ("Address already in
/// use") and a new port is tried, a bounded number of times.
final class WebsocatPeer: Sendable {
  /// Starts websocat off the concurrency pool (see `init`).
  static func start(_ flags: [String]) async throws -> WebsocatPeer {
    try await offPool { try WebsocatPeer(flags) }
  }

  let child: ChildProcess
  let port: Int

  /// - Parameter flags: e.g. `["-t"]` (mirror as text), `["-b"]` (as binary), `["-vv"]` (log
  ///   frames to stderr, which `output` collects).
  init(_ flags: [String]) throws {
    try TestTools.require([.websocat])
    var failures: [String] = []
    for _ in 0..<5 {
      let probe = try TCPListener(host: "127.0.0.1", port: 0)
      let port = probe.port
      probe.close()
      let child = try ChildProcess(
        [TestTools.websocat, "--stdout-announce-listening-ports"] + flags + [
          "ws-l:127.0.0.1:\(port)", "mirror:",
        ],
        keepingStandardInputOpen: true)
      // Returns once the LISTEN line is there, or once websocat exited without it.
      let listening = child.waitForOutput { $0.contains("LISTEN proto=tcp") ? true : nil } ?? false
      if listening {
        self.child = child
        self.port = port
        return
      }
      child.terminate()
      failures.append(child.text)
    }
    throw ChildProcess.Failure(description: "websocat did not start: \(failures.joined(separator: "\n"))")
  }

  var url: WebSocketURL {
    get throws { try WebSocketURL(parsing: "ws://127.0.0.1:\(port)/") }
  }

  /// Everything websocat printed so far (stdout and stderr).
  var output: String { child.text }

  /// Waits until websocat printed `text` (bounded against a hang); true when it did.
  func waitForOutput(containing text: String) async -> Bool {
    await offPool { [child] in child.waitForOutput { $0.contains(text) ? true : nil } ?? false }
  }

  func stop() { child.terminate() }
}
