import Dispatch
import Synchronization
import TickerSupport
import Transport
import WebSocketWire

/// One open RFC 6455 connection over a `ByteStream`.
///
/// A reader (a blocking loop on a thread of its own, `DedicatedThread`) parses frames, answers pings, resolves
/// ping waiters on pongs and yields data messages in order into `messages`. Writes go through one
/// serial queue; a client masks every frame with a fresh key. Usable in the server role too
/// (FeedServer): frames are then sent unmasked and client frames must be masked.
public final class NativeConnection: MessageConnection {
  public let messages: MessageChannel<WebSocketMessage>
  let role: FrameParser.Role
  private let stream: any ByteStream
  private let maximumMessageSize: Int
  private let state = Mutex(State())
  private let writer: Mutex<Writer>
  private let writeQueue = DispatchQueue(label: "websocket.native.writer")
  /// Seconds a frame may wait for the socket (no progress) before the connection is failed.
  let writeTimeout: Double
  /// Pongs queued at most; past this, the newest ping's pong replaces the last queued one
  /// (RFC 6455 §5.5.3 allows answering only the most recent ping), so a peer that floods pings and
  /// reads nothing cannot grow our memory.
  static let pongQueueLimit = 16

  private struct PingWaiter {
    var id: Int
    var payload: [UInt8]
    var continuation: CheckedContinuation<WebSocketError?, Never>
  }

  private struct State {
    /// A close frame was sent or queued (we started the close, or answered the peer's).
    var closeSent = false
    /// The reader ended and `messages` is finished.
    var finished = false
    var peerCloseStatus: CloseStatus?
    /// The first failed write; reported instead of the `.cancelled` read it causes.
    var writeFailure: TransportError?
    var nextID = 0
    var pingWaiters: [PingWaiter] = []
    var closeWaiters: [Int: CheckedContinuation<Void, Never>] = [:]
    /// Pong payloads waiting for the writer, oldest first (at most `pongQueueLimit`).
    var pendingPongs: [[UInt8]] = []
    /// A job that writes `pendingPongs` is on the write queue.
    var pongJobQueued = false
  }

  private struct Writer {
    var random: any RandomNumberGenerator
    var closed = false
    /// Compresses data messages when permessage-deflate was agreed.
    var compressor: MessageCompressor?
  }

  private enum Outcome {
    case peerClosed(CloseStatus?)
    case violation(FrameError)
    case endOfStream
    case transportFailed(TransportError)
  }

  /// Wraps a stream whose opening handshake is already done. Call `start(initialBytes:)` once.
  /// `deflate`: the permessage-deflate the handshake agreed on, from this side's point of view.
  public init(
    stream: any ByteStream, role: FrameParser.Role, random: sending any RandomNumberGenerator,
    maximumMessageSize: Int, writeTimeout: Double = 30, deflate: PerMessageDeflate? = nil
  ) {
    self.stream = stream
    self.role = role
    self.maximumMessageSize = maximumMessageSize
    self.writeTimeout = writeTimeout
    self.deflate = deflate
    // A client sends a few small messages (subscriptions): a 4 KiB window and a small hash
    // table (about 24 KiB in all) compress them as well as zlib's defaults would.
    let compressor = deflate.map {
      role == .client
        ? MessageCompressor(agreed: $0, windowBits: 12, memoryLevel: 4) : MessageCompressor(agreed: $0)
    }
    self.writer = Mutex(Writer(random: random, compressor: compressor))
    messages = MessageChannel(
      capacity: Self.messageCapacity, costLimit: Self.byteCapacity, lockRank: .connectionMessages)
  }

  /// Starts the reader; `initialBytes` are bytes that arrived right after the handshake head.
  public func start(initialBytes: [UInt8] = []) {
    DedicatedThread.start { self.readLoop(initialBytes: initialBytes) }
  }

  /// Seconds the close (ours, or our answer to the peer's) waits at most for the consumer to take
  /// the messages that came before it. The consumer normally does so at once, or goes away
  /// (which ends the wait); the bound only guards against one that does neither, like the write
  /// timeout. (A bound of 1 s was seen to run out on a loaded machine, sending the close first.)
  static let drainTimeout = 30.0

  /// Messages that may wait for the consumer before the reader stops reading the socket.
  static let messageCapacity = 512
  /// Payload bytes that may wait, so that a few large messages count like many small ones.
  static let byteCapacity = 256 << 10
  /// Payload bytes one batch holds at most (about what one read brings uncompressed), and
  /// messages: one read of 100-byte messages stays one batch.
  static let batchByteLimit = 64 << 10
  static let batchCountLimit = 1024

  public var peerCloseStatus: CloseStatus? { state.withLock { $0.peerCloseStatus } }

  /// The agreed permessage-deflate, if any.
  public let deflate: PerMessageDeflate?

  public var extensions: String? { deflate?.agreement }

  public func send(_ message: WebSocketMessage) async throws(WebSocketError) {
    try await send([message])
  }

  /// The messages' frames in one write.
  public func send(_ messages: [WebSocketMessage]) async throws(WebSocketError) {
    guard !messages.isEmpty else { return }
    let frames = messages.map { message in
      switch message {
      case .text(let text): Frame(opcode: .text, payload: Array(text.utf8))
      case .binary(let bytes): Frame(opcode: .binary, payload: bytes)
      }
    }
    guard state.withLock({ !$0.closeSent && !$0.finished }) else { throw .notConnected }
    let failure: TransportError? = await withCheckedContinuation { continuation in
      writeQueue.async { continuation.resume(returning: self.writeNow(frames, timeout: self.writeTimeout)) }
    }
    if let failure { throw failure == .cancelled ? .notConnected : .transport(failure) }
  }

  public func ping(_ payload: [UInt8]) async throws(WebSocketError) {
    guard payload.count <= 125 else { throw .protocolViolation(.controlFrameTooLarge(UInt64(payload.count))) }
    let id = state.withLock { s in
      s.nextID += 1
      return s.nextID
    }
    let failure: WebSocketError? = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let refusal: WebSocketError? = state.withLock { s in
          if Task.isCancelled { return .transport(.cancelled) }
          if s.closeSent || s.finished { return .notConnected }
          s.pingWaiters.append(PingWaiter(id: id, payload: payload, continuation: continuation))
          return nil
        }
        if let refusal {
          continuation.resume(returning: refusal)
          return
        }
        enqueueWrite(Frame(opcode: .ping, payload: payload), timeout: writeTimeout) { error in
          if let error {
            self.resolvePing(id: id, with: error == .cancelled ? .notConnected : .transport(error))
          }
        }
      }
    } onCancel: {
      resolvePing(id: id, with: .transport(.cancelled))
    }
    if let failure { throw failure }
  }

  public func close(_ status: CloseStatus, timeout: Double) async {
    let (sendFrame, id): (Bool, Int?) = state.withLock { s in
      if s.finished { return (false, nil) }
      let send = !s.closeSent
      s.closeSent = true
      s.nextID += 1
      return (send, s.nextID)
    }
    guard let id else { return }
    if sendFrame { enqueueWrite(.close(status), timeout: max(timeout, 0.001)) { _ in } }
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let registered = state.withLock { s in
        if s.finished { return false }
        s.closeWaiters[id] = continuation
        return true
      }
      guard registered else {
        continuation.resume()
        return
      }
      Timeout.after(seconds: timeout) {
        guard let waiter = self.state.withLock({ $0.closeWaiters.removeValue(forKey: id) }) else { return }
        // The peer did not answer in time: drop the connection (the reader then finishes).
        self.stream.shutdown()
        waiter.resume()
      }
    }
  }

  // MARK: - Writing

  /// Encodes and writes `frame` on the write queue, then calls `done` with the failure, if any.
  private func enqueueWrite(
    _ frame: Frame, timeout: Double, done: @escaping @Sendable (TransportError?) -> Void
  ) {
    writeQueue.async {
      done(self.writeNow(frame, timeout: timeout))
    }
  }

  /// Queues the answer to a ping: one write job drains every pong waiting, and while the peer
  /// does not read, pongs past `pongQueueLimit` are coalesced instead of queued.
  private func answerPing(_ payload: [UInt8]) {
    let schedule: Bool = state.withLock { s in
      guard !s.closeSent else { return false }
      if s.pendingPongs.count >= Self.pongQueueLimit {
        s.pendingPongs[s.pendingPongs.count - 1] = payload
      } else {
        s.pendingPongs.append(payload)
      }
      guard !s.pongJobQueued else { return false }
      s.pongJobQueued = true
      return true
    }
    guard schedule else { return }
    writeQueue.async {
      let pongs: [[UInt8]] = self.state.withLock { s in
        s.pongJobQueued = false
        defer { s.pendingPongs = [] }
        return s.pendingPongs
      }
      _ = self.writeNow(pongs.map { Frame(opcode: .pong, payload: $0) }, timeout: self.writeTimeout)
    }
  }

  /// Runs on the write queue only.
  private func writeNow(_ frame: Frame, timeout: Double) -> TransportError? {
    writeNow([frame], timeout: timeout)
  }

  /// Writes `frames` in one write. Runs on the write queue only.
  private func writeNow(_ frames: [Frame], timeout: Double) -> TransportError? {
    let bytes: [UInt8]? = writer.withLock { w in
      guard !w.closed else { return nil }
      var bytes: [UInt8] = []
      for var frame in frames {
        if w.compressor != nil { frame = w.compressor!.encode(frame) }
        switch role {
        case .client: bytes += FrameEncoder.encodeClientFrame(frame, using: &w.random)
        case .server: bytes += FrameEncoder.encodeServerFrame(frame)
        }
      }
      return bytes
    }
    guard let bytes else { return .cancelled }
    do {
      try stream.write(bytes, timeout: timeout)
      return nil
    } catch {
      let failure: TransportError =
        if case .timeout = error {
          .timeout("the peer took none of our bytes for \(Self.seconds(timeout)) s (it stopped reading)")
        } else {
          error
        }
      let first = state.withLock { s in
        if s.writeFailure == nil && failure != .cancelled { s.writeFailure = failure }
        return s.writeFailure == failure
      }
      // A stuck or broken socket: end the connection so the reader reports it.
      if first { stream.shutdown() }
      return failure
    }
  }

  // MARK: - Reading

  private func readLoop(initialBytes: [UInt8]) {
    var parser = FrameParser(
      role: role, maximumFrameSize: maximumMessageSize, allowsCompression: deflate != nil)
    var assembler = MessageAssembler(maximumMessageSize: maximumMessageSize, inflation: deflate)
    parser.append(initialBytes)
    let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 1)
    defer { chunk.deallocate() }
    var outcome: Outcome
    // Messages parsed from one read travel to the consumer together; while the consumer is
    // `messageCapacity` messages or `byteCapacity` bytes behind, the reader stops reading the
    // socket (TCP flow control then slows the server) instead of buffering without bound.
    var batch: [WebSocketMessage] = []
    var batchBytes = 0
    while true {
      let stop = parseMessages(&parser, &assembler, into: &batch, bytes: &batchBytes)
      if case .ended(let end) = stop {
        outcome = end
        break
      }
      if !batch.isEmpty {
        messages.push(contentsOf: batch, cost: batchBytes)
        batch.removeAll(keepingCapacity: true)
        batchBytes = 0
      }
      // Read no further while the consumer is that far behind: what would be read (a large
      // message, say) has nowhere to go but this thread's memory. (False once the consumer is
      // gone: then reading goes on, for the close.)
      messages.waitForRoom()
      // The batch was full: more is parsed from what was read before the socket is read again.
      if case .batchFull = stop { continue }
      if let end = read(into: chunk, for: &parser) {
        outcome = end
        break
      }
    }
    endReading(outcome, after: batch, bytes: batchBytes)
  }

  /// Why `parseMessages` stopped.
  private enum ParseStop {
    case needsBytes
    /// The batch is full: it goes to the consumer before more is parsed from what was read.
    case batchFull
    /// A close frame or a violation.
    case ended(Outcome)
  }

  /// Parses what was read into `batch` (adding the messages' bytes to `batchBytes`) until the
  /// parser needs more bytes, the batch is full or the connection ends; answers pings and
  /// resolves pongs on the way.
  @inline(__always)
  private func parseMessages(
    _ parser: inout FrameParser, _ assembler: inout MessageAssembler, into batch: inout [WebSocketMessage],
    bytes batchBytes: inout Int
  ) -> ParseStop {
    do throws(FrameError) {
      // A text message in one frame becomes its String straight from the parser's buffer.
      while true {
        // Compressed messages are several times larger than the bytes read: without this
        // bound one 64 KiB read could become thousands of messages in one batch.
        if batch.count >= Self.batchCountLimit || batchBytes >= Self.batchByteLimit { return .batchFull }
        guard let event = try assembler.next(from: &parser) else { break }
        switch event {
        case .message(let message):
          batch.append(message)
          batchBytes += message.byteCount
        case .ping(let payload): answerPing(payload)
        case .pong(let payload): resolvePings(matching: payload)
        case .close(let status): return .ended(.peerClosed(status))
        }
      }
      // The parser needs more bytes: text of a frame still arriving is checked now.
      try assembler.inspect(parser.partialFrame)
      return .needsBytes
    } catch {
      return .ended(.violation(error))
    }
  }

  /// Reads the socket into `chunk` and hands the bytes to `parser`; how the connection ended,
  /// when it did.
  @inline(__always)
  private func read(into chunk: UnsafeMutableRawBufferPointer, for parser: inout FrameParser) -> Outcome? {
    let count: Int
    do {
      count = try stream.read(into: chunk, timeout: nil)
    } catch {
      return .transportFailed(error)
    }
    if count == 0 { return .endOfStream }
    parser.append(UnsafeRawBufferPointer(rebasing: chunk[0..<count]))
    return nil
  }

  /// After the reading: the messages still in `batch` go to the consumer, then the connection
  /// ends as `outcome` says (`finish`), our close waiting for the consumer when one is due.
  private func endReading(_ outcome: Outcome, after batch: [WebSocketMessage], bytes batchBytes: Int) {
    // Messages that arrived before the close frame, the violation or the failure come first.
    if !batch.isEmpty { messages.push(contentsOf: batch, cost: batchBytes) }
    let answerDue: Bool =
      switch outcome {
      case .peerClosed, .violation: !state.withLock { $0.closeSent }
      case .endOfStream, .transportFailed: false
      }
    if answerDue {
      // Our close frame (the answer to the peer's, or ours for the violation) goes out once the
      // consumer has taken those messages and come back for more: whatever it sent in answer to
      // them (an echo, an ack) then precedes the close, as a peer that processed them one by one
      // would have it. (When we already sent our close, there is nothing to order.)
      _ = messages.waitUntilConsumed(timeout: Self.drainTimeout)
    }
    finish(outcome)
  }

  /// Records how the connection ended, answers a close if needed, wakes every waiter, finishes
  /// `messages`, and releases the transport after any pending writes.
  private func finish(_ outcome: Outcome) {
    let (reply, error, pings, closes):
      (Frame?, WebSocketError?, [PingWaiter], [CheckedContinuation<Void, Never>]) =
        state.withLock { s in
          var reply: Frame? = nil
          let error: WebSocketError?
          switch outcome {
          case .peerClosed(let status):
            s.peerCloseStatus = status ?? CloseStatus(code: .noStatusReceived)
            if !s.closeSent { reply = .close(status.map { CloseStatus(code: $0.code) }) }
            error = nil
          case .violation(let frameError):
            if !s.closeSent { reply = .close(CloseStatus(code: frameError.closeCode)) }
            error = .protocolViolation(frameError)
          case .endOfStream:
            error = s.closeSent ? nil : .abnormalClosure
          case .transportFailed(let transportError):
            if let failure = s.writeFailure {
              error = .transport(failure)
            } else if transportError == .cancelled && s.closeSent {
              error = nil
            } else {
              error = .transport(transportError)
            }
          }
          s.closeSent = true
          s.finished = true
          let pings = s.pingWaiters
          let closes = Array(s.closeWaiters.values)
          s.pingWaiters = []
          s.closeWaiters = [:]
          return (reply, error, pings, closes)
        }
    writeQueue.async {
      if let reply { _ = self.writeNow(reply, timeout: 5) }
      self.writer.withLock { $0.closed = true }
      self.stream.close()
    }
    for waiter in pings { waiter.continuation.resume(returning: error ?? .notConnected) }
    messages.finish(throwing: error)
    for waiter in closes { waiter.resume() }
  }

  /// "30", "0.5".
  static func seconds(_ value: Double) -> String {
    value == value.rounded() && value < 1e15 ? String(Int(value)) : String(value)
  }

  /// A pong answers the ping with the same payload and every ping sent before it.
  private func resolvePings(matching payload: [UInt8]) {
    let resolved: [PingWaiter] = state.withLock { s in
      guard let last = s.pingWaiters.lastIndex(where: { $0.payload == payload }) else { return [] }
      let done = Array(s.pingWaiters[...last])
      s.pingWaiters.removeSubrange(...last)
      return done
    }
    for waiter in resolved { waiter.continuation.resume(returning: nil) }
  }

  private func resolvePing(id: Int, with error: WebSocketError) {
    let waiter: PingWaiter? = state.withLock { s in
      guard let index = s.pingWaiters.firstIndex(where: { $0.id == id }) else { return nil }
      return s.pingWaiters.remove(at: index)
    }
    waiter?.continuation.resume(returning: error)
  }
}
