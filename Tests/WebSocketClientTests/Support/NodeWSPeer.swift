import Foundation
import TestSupport

@testable import WebSocketClient
@testable import WebSocketWire

/// Node's `ws` (Debian's node-ws, JavaScript, independent of our framing code) as an echo server
/// on 127.0.0.1 with permessage-deflate configured: `Tests/Support/node_ws_peer.js`. Call `stop()`
/// when the test is done (use `defer`).
final class NodeWSPeer: Sendable {
  /// Starts the server off the concurrency pool.
  static func start(deflate: String) async throws -> NodeWSPeer {
    try await offPool { try NodeWSPeer(deflate: deflate) }
  }

  let child: ChildProcess
  let port: Int

  /// - Parameter deflate: ws's `perMessageDeflate` option as JSON (`true`, `false`, `{…}`).
  init(deflate: String) throws {
    try TestTools.require([.nodeWS])
    let script = TestTools.supportScript("node_ws_peer.js")
    let child = try ChildProcess([TestTools.node, script, deflate], keepingStandardInputOpen: true)
    guard let port = child.waitForOutput({ Self.line(in: $0, startingWith: "PORT ").flatMap { Int($0) } })
    else {
      child.terminate()
      throw ChildProcess.Failure(description: "node_ws_peer.js did not start: \(child.text)")
    }
    self.child = child
    self.port = port
  }

  var url: WebSocketURL {
    get throws { try WebSocketURL(parsing: "ws://127.0.0.1:\(port)/") }
  }

  /// The parameters ws agreed on for the first connection, as JSON (`{}` for none). Waits for it.
  func agreedParameters() async -> String? {
    await offPool { [child] in child.waitForOutput { Self.line(in: $0, startingWith: "EXTENSIONS ") } }
  }

  /// The close code and reason ws received on the first connection. Waits for it.
  func closeReport() async -> String? {
    await offPool { [child] in child.waitForOutput { Self.line(in: $0, startingWith: "CLOSED ") } }
  }

  func stop() {
    child.closeStandardInput()
    child.terminate()
  }

  /// The rest of the first complete line that starts with `prefix`.
  private static func line(in text: String, startingWith prefix: String) -> String? {
    text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
      .first { $0.hasPrefix(prefix) }
      .map { String($0.dropFirst(prefix.count)) }
  }
}
