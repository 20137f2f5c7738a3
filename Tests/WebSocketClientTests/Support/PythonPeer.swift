import Foundation
import TestSupport

@testable import WebSocketClient
@testable import WebSocketWire

/// `Tests/Support/ws_peer.py` (a Python `websockets` server, independent of our framing code)
/// serving one scenario on a port it picks. Call `stop()` when the test is done (use `defer`).
final class PythonPeer: Sendable {
  /// Starts the server off the concurrency pool (see `init`).
  static func start(
    _ scenario: String, host: String = "127.0.0.1", tls ca: TestCA? = nil,
    certificate: (file: String, key: String)? = nil, deflate: String? = nil
  ) async throws -> PythonPeer {
    try await offPool {
      try PythonPeer(scenario, host: host, tls: ca, certificate: certificate, deflate: deflate)
    }
  }

  let child: ChildProcess
  let host: String
  let port: Int

  /// Starts the server and waits for its `PORT n` line.
  /// - Parameters:
  ///   - scenario: one of the scenarios in `ws_peer.py`'s docstring.
  ///   - host: the address to listen on (`127.0.0.1`, `::1`, `127.0.0.2`, …).
  ///   - ca: serve TLS with the test CA's server certificate,
  ///   - certificate: or with this certificate and key.
  ///   - deflate: permessage-deflate on, as `ws_peer.py --deflate` takes it (`default`, or
  ///     parameters such as `server_no_context_takeover,client_max_window_bits=10`).
  init(
    _ scenario: String, host: String = "127.0.0.1", tls ca: TestCA? = nil,
    certificate: (file: String, key: String)? = nil, deflate: String? = nil
  ) throws {
    try TestTools.require([.pythonWebsockets])
    var arguments = [TestTools.python, TestTools.supportScript("ws_peer.py"), scenario, "--host", host]
    if let certificate {
      arguments += ["--tls", certificate.file, certificate.key]
    } else if let ca {
      arguments += ["--tls", ca.serverCertificate, ca.serverKey]
    }
    if let deflate { arguments += ["--deflate", deflate] }
    // ws_peer.py serves until its stdin closes, so stdin must stay open.
    let child = try ChildProcess(arguments, keepingStandardInputOpen: true)
    let port = child.waitForOutput { text in
      Self.lines(of: text, startingWith: "PORT ").first.flatMap { Int($0) }
    }
    guard let port else {
      child.terminate()
      throw ChildProcess.Failure(description: "ws_peer.py \(scenario) did not start: \(child.text)")
    }
    self.child = child
    self.host = host
    self.port = port
  }

  /// A URL for this server: `ws://host:port/target` (or `wss://` with `secure`), with `host`
  /// replaced by `name` when given (e.g. `localhost` for the TLS certificate).
  func url(_ target: String = "/", name: String? = nil, secure: Bool = false) throws -> WebSocketURL {
    let host = name ?? self.host
    let authority = host.contains(":") ? "[\(host)]" : host
    return try WebSocketURL(parsing: "\(secure ? "wss" : "ws")://\(authority):\(port)\(target)")
  }

  /// What the server reported after the first connection ended: the close code it received
  /// from us and its reason (`"1000 done"`; `"1006 "` when no close frame arrived). Waits for it.
  func closeReport() async -> String? {
    await offPool { [child] in
      child.waitForOutput { Self.lines(of: $0, startingWith: "CLOSED ").first }
    }
  }

  /// What websockets agreed on for the first connection (`[PerMessageDeflate(…)]`, `[]` for
  /// nothing), printed when it opened; only with `deflate`. Waits for it.
  func agreedExtensions() async -> String? {
    await offPool { [child] in
      child.waitForOutput { Self.lines(of: $0, startingWith: "EXTENSIONS ").first }
    }
  }

  /// Ends the server: EOF on its stdin, then a kill so no test waits for Python's shutdown.
  func stop() {
    child.closeStandardInput()
    child.terminate()
  }

  /// The rest of each complete line that starts with `prefix`.
  private static func lines(of text: String, startingWith prefix: String) -> [String] {
    text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
      .filter { $0.hasPrefix(prefix) }
      .map { String($0.dropFirst(prefix.count)) }
  }
}
