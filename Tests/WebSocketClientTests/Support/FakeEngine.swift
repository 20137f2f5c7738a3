import Synchronization
import WebSocketClient
import WebSocketWire

/// An engine that plays a script of connection attempts: each fails with a given error or
/// succeeds with a given `FakeConnection`. When the script runs out, attempts fail with
/// `.unsupported` (fatal), so a test that expected fewer attempts ends instead of hanging.
final class FakeEngine: WebSocketEngine {
  enum Attempt: Sendable {
    case fail(WebSocketError)
    case succeed(FakeConnection)
  }

  let name = "fake"
  private let script: Mutex<(attempts: [Attempt], count: Int)>

  init(_ attempts: [Attempt]) {
    script = Mutex((attempts, 0))
  }

  /// How many times `connect` was called.
  var attemptCount: Int { script.withLock { $0.count } }

  func connect(to url: WebSocketURL, options: ConnectOptions) async throws(WebSocketError)
    -> any MessageConnection
  {
    let next: Attempt? = script.withLock { s in
      s.count += 1
      return s.attempts.isEmpty ? nil : s.attempts.removeFirst()
    }
    switch next {
    case .fail(let error): throw error
    case .succeed(let connection): return connection
    case nil: throw .unsupported("the fake engine's script is exhausted")
    }
  }
}
