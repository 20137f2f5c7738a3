import Foundation
import Synchronization
import TickerSupport
import WebSocketClient
import WebSocketWire

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One `URLSessionWebSocketTask`, adapted to `MessageConnection`.
final class URLSessionConnection: NSObject, MessageConnection, URLSessionWebSocketDelegate, Sendable {
  private struct State {
    var openContinuation: CheckedContinuation<Void, Error>?
    var closeWaiters: [CheckedContinuation<Void, Never>] = []
    var finished = false
    var peerStatus: CloseStatus?
    /// Whether we started the close: `task.closeCode` is then our own code, not the peer's.
    var closeSent = false
  }

  private let state = Mutex(State())
  /// The session and its task, made in `init` once this object (their delegate) exists.
  private let made = Mutex<(session: URLSession, task: URLSessionWebSocketTask)?>(nil)
  private var session: URLSession { made.withLock { $0! }.session }
  private var task: URLSessionWebSocketTask { made.withLock { $0! }.task }

  /// Filled from URLSession's delegate queue; `push` blocks it while the consumer is behind,
  /// and the next `receive` is only asked for after that.
  let messages = MessageChannel<WebSocketMessage>(capacity: 4096)
  /// Where received messages and the end go: `messages`, or the plugin's callbacks.
  private let delivery: Delivery

  init(request: URLRequest, maximumMessageSize: Int, delivery: Delivery = .channel) {
    self.delivery = delivery
    super.init()
    let session = URLSession(configuration: .ephemeral, delegate: self, delegateQueue: nil)
    let task = session.webSocketTask(with: request)
    task.maximumMessageSize = maximumMessageSize
    made.withLock { $0 = (session, task) }
  }

  var peerCloseStatus: CloseStatus? { state.withLock { $0.peerStatus } }

  func open(timeout: Double) async throws(WebSocketError) {
    do {
      try await withCheckedThrowingContinuation { (c: CheckedContinuation<Void, Error>) in
        state.withLock { $0.openContinuation = c }
        task.resume()
        // A build without WebSocket support fails `receive` before `didOpen`.
        receiveLoop()
      }
    } catch let error as WebSocketError {
      abandon()
      throw error
    } catch {
      abandon()
      throw Self.map(error, task: task)
    }
  }

  /// A connection that never opened: nothing of it may stay behind.
  private func abandon() {
    task.cancel()
    session.invalidateAndCancel()
  }

  private func resumeOpen(_ result: Result<Void, WebSocketError>) {
    let c = state.withLock { state in
      defer { state.openContinuation = nil }
      return state.openContinuation
    }
    c?.resume(with: result.mapError { $0 as Error })
  }

  private func receiveLoop() {
    task.receive { [weak self] result in
      guard let self else { return }
      switch result {
      case .success(let message):
        self.resumeOpen(.success(()))
        switch message {
        case .string(let text): self.deliver(.text(text))
        case .data(let data): self.deliver(.binary([UInt8](data)))
        @unknown default: break
        }
        self.receiveLoop()
      case .failure(let error):
        let mapped = Self.map(error, task: self.task)
        self.resumeOpen(.failure(mapped))
        self.finish(error: self.task.closeCode == .invalid ? mapped : nil)
      }
    }
  }

  /// Runs on URLSession's delegate queue and may block there (backpressure).
  private func deliver(_ message: WebSocketMessage) {
    switch delivery {
    case .channel: messages.push(message)
    case .callbacks(let onMessage, _): onMessage(message)
    }
  }

  private func finish(error: WebSocketError?) {
    let task = self.task
    let waiters: [CheckedContinuation<Void, Never>] = state.withLock { state in
      if state.finished { return [] }
      state.finished = true
      if state.peerStatus == nil, !state.closeSent, task.closeCode != .invalid {
        let reason = task.closeReason.flatMap { String(data: $0, encoding: .utf8) } ?? ""
        state.peerStatus = CloseStatus(code: CloseCode(UInt16(task.closeCode.rawValue)), reason: reason)
      }
      defer { state.closeWaiters = [] }
      return state.closeWaiters
    }
    switch delivery {
    case .channel: messages.finish(throwing: error)
    case .callbacks(_, let end): end(peerCloseStatus, error)
    }
    waiters.forEach { $0.resume() }
    session.finishTasksAndInvalidate()
  }

  func send(_ message: WebSocketMessage) async throws(WebSocketError) {
    let m: URLSessionWebSocketTask.Message =
      switch message {
      case .text(let text): .string(text)
      case .binary(let bytes): .data(Data(bytes))
      }
    do { try await task.send(m) } catch { throw Self.map(error, task: task) }
  }

  func ping(_ payload: [UInt8]) async throws(WebSocketError) {
    #if canImport(FoundationNetworking)
      // corelibs (6.3.1) sends an empty ping whose pong libcurl never hands over, so
      // `sendPing`'s completion never runs; and a frame the client sends while the server is
      // sending can leave either direction stalled. So no ping goes out: this returns at once,
      // and liveness rests on the session's silence watchdog (`--silence-timeout`).
      if state.withLock({ $0.finished }) { throw .notConnected }
    #else
      do {
        try await withCheckedThrowingContinuation { (c: CheckedContinuation<Void, Error>) in
          task.sendPing { error in
            if let error { c.resume(throwing: error) } else { c.resume() }
          }
        }
      } catch {
        throw Self.map(error, task: task)
      }
    #endif
  }

  func close(_ status: CloseStatus, timeout: Double) async {
    let alreadyFinished = state.withLock { $0.finished }
    if alreadyFinished { return }
    let code = URLSessionWebSocketTask.CloseCode(rawValue: Int(status.code.rawValue)) ?? .normalClosure
    state.withLock { $0.closeSent = true }
    task.cancel(with: code, reason: status.reason.data(using: .utf8))
    await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
      let done = state.withLock { state in
        if state.finished { return true }
        state.closeWaiters.append(c)
        return false
      }
      if done { c.resume() }
      DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { [weak self] in
        self?.finish(error: nil)
      }
    }
  }

  // MARK: URLSessionWebSocketDelegate

  func urlSession(
    _ session: URLSession, webSocketTask: URLSessionWebSocketTask, didOpenWithProtocol protocol: String?
  ) {
    // corelibs (6.3.1) reports an open also when the server refused the upgrade (401, 426 …):
    // only a 101 is one. The refusal is reported as the native engine reports it.
    if let status = (webSocketTask.response as? HTTPURLResponse)?.statusCode, status != 101 {
      resumeOpen(.failure(Self.map(URLError(.badServerResponse), task: webSocketTask)))
      return
    }
    resumeOpen(.success(()))
  }

  func urlSession(
    _ session: URLSession, webSocketTask: URLSessionWebSocketTask,
    didCloseWith closeCode: URLSessionWebSocketTask.CloseCode, reason: Data?
  ) {
    let status = CloseStatus(
      code: CloseCode(UInt16(closeCode.rawValue)),
      reason: reason.flatMap { String(data: $0, encoding: .utf8) } ?? "")
    state.withLock { $0.peerStatus = status }
    finish(error: nil)
  }

  /// Maps Foundation's errors onto the engine's error type.
  static func map(_ error: Error, task: URLSessionWebSocketTask?) -> WebSocketError {
    if let status = (task?.response as? HTTPURLResponse)?.statusCode, status != 101, status != 0 {
      let retry = (task?.response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Retry-After").flatMap {
        Int($0)
      }
      return .handshake(
        .unexpectedStatus(
          code: status, reason: HTTPURLResponse.localizedString(forStatusCode: status), retryAfter: retry))
    }
    let ns = error as NSError
    switch ns.code {
    case NSURLErrorUnsupportedURL: return .unsupported(ns.localizedDescription)
    case NSURLErrorTimedOut: return .transport(.timeout("URLSession: \(ns.localizedDescription)"))
    case NSURLErrorCannotFindHost, NSURLErrorDNSLookupFailed:
      return .transport(
        .resolve(host: task?.originalRequest?.url?.host ?? "", message: ns.localizedDescription))
    case NSURLErrorServerCertificateUntrusted, NSURLErrorServerCertificateHasBadDate,
      NSURLErrorServerCertificateHasUnknownRoot, NSURLErrorServerCertificateNotYetValid:
      return .transport(.certificateVerification(code: ns.code, message: ns.localizedDescription))
    case NSURLErrorCannotConnectToHost:
      // libcurl's "couldn't connect" (refused or unreachable); the native engine reports the
      // errno, URLSession does not say: ECONNREFUSED, the common case on loopback.
      let url = task?.originalRequest?.url
      return .transport(
        .connect(
          host: url?.host ?? "", port: url?.port ?? (url?.scheme == "wss" ? 443 : 80), errno: ECONNREFUSED))
    case NSURLErrorNetworkConnectionLost: return .abnormalClosure
    default: return .transport(.tls("URLSession: \(ns.domain) \(ns.code) \(ns.localizedDescription)"))
    }
  }
}

extension URLSessionConnection {
  /// How a connection hands over what it receives.
  enum Delivery: Sendable {
    /// Into its own `messages` channel (the engine used in-process).
    case channel
    /// To closures, called on URLSession's delegate queue (the plugin's C callbacks): each
    /// message, then once the end (the peer's close status, if any, and the error, if any).
    case callbacks(
      message: @Sendable (WebSocketMessage) -> Void, end: @Sendable (CloseStatus?, WebSocketError?) -> Void)
  }
}
