import Synchronization
import WebSocketClient

@testable import TickerSupport
@testable import WebSocketWire

/// A scripted connection: delivers the given messages, then ends as told (or stays open for the
/// test to `deliver` and `end` later). Records what the session sent, pinged and closed.
///
/// A scripted end models a peer that ends the connection after our subscriptions: sends still
/// succeed (unless `sendError` is given). After `end(_:)` at run time or `close`, sends fail.
final class FakeConnection: MessageConnection {
  enum End: Sendable {
    /// The peer sent a close frame with this status (nil: an empty close frame, 1005).
    case peerClose(CloseStatus?)
    case error(WebSocketError)
  }

  enum Action: Sendable, Equatable {
    case send(WebSocketMessage)
    case ping
    case close(CloseStatus)
  }

  /// Large enough that a test's `deliver` never blocks.
  let messages = MessageChannel<WebSocketMessage>(capacity: 1 << 20)
  private let answersPings: Bool
  private let closeHangs: Bool
  private let sendError: WebSocketError?
  private let state = Mutex(State())

  private struct State {
    var actions: [Action] = []
    var finished = false
    var peerCloseStatus: CloseStatus?
    var nextWaiter = 0
    var waiting: [Int: CheckedContinuation<Void, Never>] = [:]
  }

  /// - Parameters:
  ///   - answersPings: false = pings never get a pong (a half-open connection).
  ///   - closeHangs: true = the peer never answers our close (close returns only when ended).
  ///   - sendError: every send fails with this.
  init(
    messages: [WebSocketMessage] = [], end: End? = nil, answersPings: Bool = true,
    closeHangs: Bool = false, sendError: WebSocketError? = nil
  ) {
    self.answersPings = answersPings
    self.closeHangs = closeHangs
    self.sendError = sendError
    self.messages.push(contentsOf: messages)
    if let end { finishStream(end) }
  }

  var actions: [Action] { state.withLock { $0.actions } }
  var sent: [WebSocketMessage] {
    actions.compactMap { if case .send(let message) = $0 { message } else { nil } }
  }
  var pingCount: Int { actions.filter { $0 == .ping }.count }
  var closes: [CloseStatus] {
    actions.compactMap { if case .close(let status) = $0 { status } else { nil } }
  }
  var peerCloseStatus: CloseStatus? { state.withLock { $0.peerCloseStatus } }

  func deliver(_ message: WebSocketMessage) { messages.push(message) }

  func end(_ end: End) {
    let waiting: [CheckedContinuation<Void, Never>] = state.withLock { s in
      guard !s.finished else { return [] }
      s.finished = true
      defer { s.waiting = [:] }
      return Array(s.waiting.values)
    }
    finishStream(end)
    for waiter in waiting { waiter.resume() }
  }

  private func finishStream(_ end: End) {
    switch end {
    case .peerClose(let status):
      state.withLock { s in
        if s.peerCloseStatus == nil { s.peerCloseStatus = status ?? CloseStatus(code: .noStatusReceived) }
      }
      messages.finish()
    case .error(let error):
      messages.finish(throwing: error)
    }
  }

  func send(_ message: WebSocketMessage) async throws(WebSocketError) {
    if let sendError { throw sendError }
    let open = state.withLock { s in
      if !s.finished { s.actions.append(.send(message)) }
      return !s.finished
    }
    if !open { throw .notConnected }
  }

  func ping(_ payload: [UInt8]) async throws(WebSocketError) {
    state.withLock { $0.actions.append(.ping) }
    if answersPings { return }
    await waitUntilEnded()
    throw .notConnected
  }

  func close(_ status: CloseStatus, timeout: Double) async {
    state.withLock { $0.actions.append(.close(status)) }
    if closeHangs {
      await waitUntilEnded()
    } else {
      end(.peerClose(status))
    }
  }

  /// Suspends until the connection ended (pings never answered, a close never answered), or
  /// the waiting task is cancelled.
  func waitUntilEnded() async {
    let id = state.withLock { s in
      s.nextWaiter += 1
      return s.nextWaiter
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
        let resumeNow = state.withLock { s in
          if !s.finished && !Task.isCancelled { s.waiting[id] = waiter }
          return s.finished || Task.isCancelled
        }
        if resumeNow { waiter.resume() }
      }
    } onCancel: {
      state.withLock { $0.waiting.removeValue(forKey: id) }?.resume()
    }
  }
}
