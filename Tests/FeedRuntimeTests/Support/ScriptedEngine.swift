import Synchronization
import TickerSupport
import WebSocketClient
import WebSocketWire

/// An engine with one connection, which the test drives: it delivers what the test gives it,
/// records what the feed sends, and says when it is closed.
final class ScriptedEngine: WebSocketEngine {
  let name = "scripted"
  let connection = ScriptedConnection()
  private let used = Mutex(false)

  func connect(to url: WebSocketURL, options: ConnectOptions) async throws(WebSocketError)
    -> any MessageConnection
  {
    guard !used.withLock({ $0 }) else { throw .unsupported("the scripted engine has one connection") }
    used.withLock { $0 = true }
    return connection
  }
}

final class ScriptedConnection: MessageConnection {
  let messages = MessageChannel<WebSocketMessage>(capacity: 1 << 20)
  /// Each close, as it happens.
  let closes = MessageChannel<CloseStatus>(capacity: 16)
  private let sentMessages = Mutex<[WebSocketMessage]>([])

  var sent: [WebSocketMessage] { sentMessages.withLock { $0 } }
  var peerCloseStatus: CloseStatus? { nil }

  func deliver(_ text: String) { messages.push(.text(text)) }

  func send(_ message: WebSocketMessage) async throws(WebSocketError) {
    sentMessages.withLock { $0.append(message) }
  }

  func ping(_ payload: [UInt8]) async throws(WebSocketError) {}

  func close(_ status: CloseStatus, timeout: Double) async {
    closes.forcePush(status)
    messages.finish()
  }
}
