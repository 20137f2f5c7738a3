import Dispatch
import NATS
import Synchronization
import TickerSupport
import WebSocketClient
import WebSocketWire

/// One subscriber's connection to a NATS server, as a `MessageConnection`: each delivered
/// payload is a binary message, its bytes as they came (no UTF-8 round trip), and what is said
/// about the server (a `-ERR` it keeps the connection after, no JetStream) a text one
/// (`PublishedVenue` reads both). `send` takes `SUB <subject>` and
/// `UNSUB <subject>` texts and numbers the subscriptions itself; `ping` is the protocol's PING.
/// The server's PINGs are answered on the reader's thread.
///
/// A new subscription starts with the subject's last price if a JetStream stream keeps it
/// (`--publish-stream`): its live deliveries wait (`SeamGate`) while the price is fetched, with
/// a JetStream request answered on an inbox of the connection's own. Only the reader's thread
/// hands messages over, so they keep their order.
final class NATSSourceConnection: MessageConnection {
  /// Bounded in messages and in payload bytes, as the native engine's: a server that sends faster
  /// than the feed reads is held back by TCP, not buffered here.
  let messages = MessageChannel<WebSocketMessage>(capacity: 512, costLimit: 256 << 10)
  private let connection: NATSConnection
  private let memory: NATSSourceMemory
  private let state = Mutex(State())
  /// How long a JetStream request may take; none answers on a server without JetStream.
  static let requestTimeout = 2.0
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
    var gate = SeamGate()
    /// The inbox JetStream answers on (`_INBOX.<token>`), once subscribed.
    var inbox: String?
    var nextRequest = 0
    /// JetStream requests waiting, by the subject they are answered on.
    var requests: [String: CheckedContinuation<[UInt8]?, Never>] = [:]
    /// Whether the server has JetStream (nil: not known yet).
    var jetStream: Bool?
  }

  init(_ connection: NATSConnection, memory: NATSSourceMemory) {
    self.connection = connection
    self.memory = memory
    connection.startReader(
      message: { [self] message in receive(message) },
      end: { [self] reason in
        end(NATSSource.webSocketError(reason))
        connection.close()
      })
  }

  private func receive(_ message: NATSServerMessage) {
    let released = state.withLock { state in
      state.gate.hasReleased ? state.gate.flush(lastDelivered: memory.lastDelivered) : []
    }
    for (subject, payload) in released { deliver(payload, on: subject) }
    switch message {
    case .message(let delivery) where delivery.sid == "inbox":
      answer(delivery.subject, delivery.payload)
    case .message(let delivery):
      if state.withLock({ $0.gate.live(delivery.subject, delivery.payload) }) {
        deliver(delivery.payload, on: delivery.subject)
      }
    case .ping: try? write(NATSCommands.pong)
    case .pong:
      let waiter = state.withLock { $0.pongWaiters.isEmpty ? nil : $0.pongWaiters.removeFirst() }
      waiter?.resume(returning: .success(()))
    case .ok, .info: break
    case .error(let error) where error.keepsConnection:
      _ = messages.push(.text("NATS: the server answered \(error)"))
    case .error(let error):
      end(NATSSource.webSocketError(.refused(error)))
      connection.shutdown()
    }
  }

  /// Hands a payload over (on the reader's thread only), remembering it as the subject's last.
  private func deliver(_ payload: [UInt8], on subject: String) {
    memory.delivered(payload, on: subject)
    _ = messages.push(.binary(payload), cost: payload.count)
  }

  private func end(_ error: WebSocketError) {
    let (waiters, requests) = state.withLock { state in
      if state.ended == nil { state.ended = error }
      defer {
        state.pongWaiters = []
        state.requests = [:]
      }
      return (state.pongWaiters, state.requests)
    }
    for waiter in waiters { waiter.resume(returning: .failure(error)) }
    for request in requests.values { request.resume(returning: nil) }
    messages.finish(throwing: error)
  }

  private func write(_ bytes: [UInt8]) throws(NATSLinkError) {
    try writing.withLock { _ throws(NATSLinkError) in try connection.write(bytes, timeout: Self.writeTimeout)
    }
  }

  func send(_ message: WebSocketMessage) async throws(WebSocketError) {
    guard case .text(let text) = message else { return }
    var out: [UInt8] = []
    var added: [String] = []
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
          if state.jetStream != false { state.gate.hold(subject) }
          return state.nextSID
        }
        if let sid {
          out += NATSCommands.subscribe(subject, sid: String(sid))
          added.append(subject)
        }
      case "UNSUB":
        if let sid = state.withLock({ $0.sids.removeValue(forKey: subject) }) {
          out += NATSCommands.unsubscribe(sid: String(sid))
          state.withLock { $0.gate.forget(subject) }
          memory.forget(subject)
        }
      default: continue
      }
    }
    // The PONG after them says the server has them: once `send` returns, what is published
    // reaches this subscription.
    if !out.isEmpty { try await writeAwaitingPong(out) }
    guard !added.isEmpty else { return }
    for subject in added {
      let last = await lastKept(subject)
      state.withLock { $0.gate.release(subject, seed: last) }
    }
    // The reader hands the released ones over when the next thing arrives: this PONG at the
    // latest.
    try await writeAwaitingPong([])
  }

  /// The last payload a JetStream stream keeps on `subject`; nil when there is none, no stream
  /// keeps the subject, or the server has no JetStream (said once).
  private func lastKept(_ subject: String) async -> [UInt8]? {
    guard state.withLock({ $0.jetStream }) != false else { return nil }
    let (namesSubject, namesBody) = JetStreamAPI.streamNames(keeping: subject)
    guard let names = await request(namesSubject, namesBody) else {
      state.withLock { $0.jetStream = false }
      if memory.sayNoJetStream() {
        _ = messages.forcePush(
          .text(
            "NATS: the server has no JetStream (or did not answer within \(Int(Self.requestTimeout)) s): "
              + "following live only, each symbol from its next price"))
      }
      return nil
    }
    state.withLock { $0.jetStream = true }
    guard case .success(let streams) = JetStreamAPI.streamNames(names), let stream = streams.first else {
      return nil
    }
    let (lastSubject, lastBody) = JetStreamAPI.lastMessage(in: stream, on: subject)
    guard let answer = await request(lastSubject, lastBody),
      case .success(let payload?) = JetStreamAPI.lastMessage(answer)
    else { return nil }
    return payload
  }

  /// A JetStream request: its answer, or nil when none came within `requestTimeout` (or the
  /// connection ended).
  private func request(_ subject: String, _ body: [UInt8]) async -> [UInt8]? {
    await withCheckedContinuation { continuation in
      let (reply, bytes) = state.withLock { state -> (String?, [UInt8]) in
        if state.ended != nil { return (nil, []) }
        var bytes: [UInt8] = []
        let inbox: String
        if let made = state.inbox {
          inbox = made
        } else {
          inbox = "_INBOX." + NATSConnection.randomToken()
          state.inbox = inbox
          bytes = NATSCommands.subscribe(inbox + ".*", sid: "inbox")
        }
        state.nextRequest += 1
        let reply = inbox + "." + String(state.nextRequest)
        state.requests[reply] = continuation
        return (reply, bytes + NATSCommands.request(subject: subject, replyTo: reply, payload: body))
      }
      guard let reply else {
        continuation.resume(returning: nil)
        return
      }
      DedicatedThread.start { [self] in
        do throws(NATSLinkError) {
          try write(bytes)
        } catch {
          answer(reply, nil)
        }
      }
      Timeout.after(seconds: Self.requestTimeout) { [self] in answer(reply, nil) }
    }
  }

  /// Resumes the request answered on `reply`, once.
  private func answer(_ reply: String, _ payload: [UInt8]?) {
    state.withLock { $0.requests.removeValue(forKey: reply) }?.resume(returning: payload)
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
          end(NATSSource.webSocketError(error))
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
