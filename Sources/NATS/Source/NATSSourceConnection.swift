import Synchronization
import TickerSupport
import WebSocketClient

/// One subscriber's connection to a NATS server, as a `WebSocketConnection`: each delivered
/// payload is a text message, a `-ERR` the server keeps the connection after (a permissions
/// violation) a binary one (`PublishedVenue` reads both). `send` takes `SUB <subject>` and
/// `UNSUB <subject>` texts and numbers the subscriptions itself; `ping` is the protocol's PING.
/// The server's PINGs are answered on the reader's thread.
final class NATSSourceConnection: WebSocketConnection {
  let messages = MessageChannel<WebSocketMessage>(capacity: 1024)
  private let connection: NATSConnection
  private let state = Mutex(State())
  /// Writes come from the reader's thread (PONG) and from `send`/`ping`/`close`, each on a thread
  /// of its own: one at a time.
  private let writing = Mutex(())
  /// A write that makes no progress for this long fails (the server stopped reading).
  static let writeTimeout = 10.0

  private struct State: ~Copyable {
    var sids: [String: Int] = [:]
    var nextSID = 1
    /// `ping` callers waiting for a PONG, oldest first (the server answers PINGs in order).
    var pongWaiters: [CheckedContinuation<Result<Void, WebSocketError>, Never>] = []
    var ended: WebSocketError?
  }

  init(_ connection: NATSConnection) {
    self.connection = connection
    connection.startReader(
      message: { [self] message in receive(message) },
      end: { [self] reason in
        end(NATSSourceEngine.webSocketError(reason))
        connection.close()
      })
  }

  private func receive(_ message: NATSServerMessage) {
    switch message {
    case .message(let delivery):
      _ = messages.push(
        .text(String(decoding: delivery.payload, as: UTF8.self)), cost: delivery.payload.count)
    case .ping: try? write(NATSCommands.pong)
    case .pong:
      let waiter = state.withLock { $0.pongWaiters.isEmpty ? nil : $0.pongWaiters.removeFirst() }
      waiter?.resume(returning: .success(()))
    case .ok, .info: break
    case .error(let error) where error.keepsConnection:
      _ = messages.push(.binary(Array("NATS: the server answered \(error)".utf8)))
    case .error(let error):
      end(NATSSourceEngine.webSocketError(.refused(error)))
      connection.shutdown()
    }
  }

  private func end(_ error: WebSocketError) {
    let waiters = state.withLock { state in
      if state.ended == nil { state.ended = error }
      defer { state.pongWaiters = [] }
      return state.pongWaiters
    }
    for waiter in waiters { waiter.resume(returning: .failure(error)) }
    messages.finish(throwing: error)
  }

  private func write(_ bytes: [UInt8]) throws(NATSLinkError) {
    try writing.withLock { _ throws(NATSLinkError) in try connection.write(bytes, timeout: Self.writeTimeout)
    }
  }

  func send(_ message: WebSocketMessage) async throws(WebSocketError) {
    guard case .text(let text) = message else { return }
    var out: [UInt8] = []
    for line in text.split(separator: "\n") {
      let parts = line.split(separator: " ", maxSplits: 1)
      guard parts.count == 2 else { continue }
      let subject = String(parts[1])
      switch parts[0] {
      case "SUB":
        let sid = state.withLock { state -> Int? in
          guard state.sids[subject] == nil else { return nil }
          defer { state.nextSID += 1 }
          state.sids[subject] = state.nextSID
          return state.nextSID
        }
        if let sid { out += Array("SUB \(subject) \(sid)\r\n".utf8) }
      case "UNSUB":
        if let sid = state.withLock({ $0.sids.removeValue(forKey: subject) }) {
          out += Array("UNSUB \(sid)\r\n".utf8)
        }
      default: continue
      }
    }
    // The PONG after them says the server has them: once `send` returns, what is published
    // reaches this subscription.
    if !out.isEmpty { try await writeAwaitingPong(out) }
  }

  func ping(_ payload: [UInt8]) async throws(WebSocketError) { try await writeAwaitingPong([]) }

  /// Writes `bytes` and a PING, and returns when its PONG comes.
  private func writeAwaitingPong(_ bytes: [UInt8]) async throws(WebSocketError) {
    let result: Result<Void, WebSocketError> = await withCheckedContinuation { continuation in
      let ended = state.withLock { state -> WebSocketError? in
        if let ended = state.ended { return ended }
        state.pongWaiters.append(continuation)
        return nil
      }
      if let ended {
        continuation.resume(returning: .failure(ended))
        return
      }
      DedicatedThread.start { [self] in
        do throws(NATSLinkError) {
          try write(bytes + NATSCommands.ping)
        } catch {
          end(NATSSourceEngine.webSocketError(error))
        }
      }
    }
    try result.get()
  }

  /// Wakes the reader, which closes the socket as it ends.
  func close(_ status: CloseStatus, timeout: Double) async {
    end(.transport(.cancelled))
    connection.shutdown()
  }

  /// NATS has no close handshake: the session sees a lost connection and reconnects.
  var peerCloseStatus: CloseStatus? { nil }
}
