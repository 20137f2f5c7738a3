import Transport
import WebSocketServer
import WebSocketWire

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Every `serve` connection on one `EventLoop` thread: accepting, each upgrade (bounded in size
/// and time), each client's frames (its requests go to the hub), writing what its outbox holds
/// when the socket has room, and ending it (the close handshake, the grace a closed client has to
/// answer, a write that makes no progress). Nothing here waits on one socket: a slow client
/// costs its own bounded outbox and never a thread.
struct ServeLoop: EventLoopDriver {
  enum Command: Sendable {
    /// A client's outbox has something to send.
    case flush(Int)
    /// The server closed a client: its grace starts.
    case serverClosed(Int)
    /// Stop accepting; the loop ends once the last connection is gone.
    case stop
  }

  /// Seconds a connection has to send its upgrade request (without a byte), and a refused one.
  static let requestTimeout = Duration.seconds(10)
  static let fullRequestTimeout = Duration.seconds(2)
  /// A write that makes no progress for this long drops the client.
  static let writeTimeout = Duration.seconds(5)
  /// How long a client that left has for what is queued to go out.
  static let leftGrace = Duration.milliseconds(500)

  private let hub: ServeHub
  private var listener: TCPListener?
  private var connections: [Int: ServeConnection] = [:]
  private var accepted = 0
  private var buffer = [UInt8](repeating: 0, count: 16 << 10)

  init(hub: ServeHub, listener: TCPListener) {
    self.hub = hub
    self.listener = listener
  }

  var isFinished: Bool { listener == nil && connections.isEmpty }

  var nextDeadline: ContinuousClock.Instant? {
    var next: ContinuousClock.Instant?
    for connection in connections.values {
      guard let due = connection.nextDeadline(writeTimeout: Self.writeTimeout) else { continue }
      next = min(next ?? due, due)
    }
    return next
  }

  func interests(into list: inout [EventLoopInterest]) {
    if let listener {
      list.append(
        EventLoopInterest(descriptor: listener.descriptor, readable: true, writable: false, token: 0))
    }
    for (id, connection) in connections {
      list.append(
        EventLoopInterest(
          descriptor: connection.stream.descriptor, readable: !connection.readingDone,
          writable: connection.hasOutput, token: id))
    }
  }

  mutating func ready(_ token: Int, events: Int16, now: ContinuousClock.Instant) {
    guard token != 0 else { return acceptAll(now: now) }
    let trouble = Int16(POLLERR) | Int16(POLLHUP) | Int16(POLLNVAL)
    if events & (Int16(POLLOUT) | trouble) != 0 { flush(token, now: now) }
    guard let connection = connections[token] else { return }
    if !connection.readingDone {
      if events & (Int16(POLLIN) | trouble) != 0 { read(token, now: now) }
    } else if events & trouble != 0 {
      // Nothing more can go either way (a read would not report it again).
      broken(token, now: now)
    }
  }

  mutating func handle(_ commands: [Command], now: ContinuousClock.Instant) {
    for command in commands {
      switch command {
      case .flush(let id): flush(id, now: now)
      case .serverClosed(let id):
        guard connections[id] != nil else { continue }
        if connections[id]?.readingDone == false {
          connections[id]?.graceDeadline = now + .seconds(hub.options.closeGrace)
        }
        flush(id, now: now)
      case .stop:
        listener?.close()
        listener = nil
      }
    }
  }

  mutating func timersDue(now: ContinuousClock.Instant) {
    for (id, connection) in connections {
      if let due = connection.requestDeadline, due <= now {
        requestTimedOut(id, now: now)
      } else if let due = connection.graceDeadline, due <= now, !connection.readingDone {
        // The client did not answer the server's close in time: dropped.
        broken(id, now: now)
      } else if let due = connection.finishDeadline, due <= now {
        closeConnection(id)
      } else if connection.hasOutput, now - connection.lastProgress >= Self.writeTimeout {
        broken(id, now: now)
      }
    }
  }

  // MARK: Accepting and upgrading

  private mutating func acceptAll(now: ContinuousClock.Instant) {
    guard let listener else { return }
    while true {
      let stream: TCPStream?
      do {
        stream = try listener.acceptAvailable()
      } catch {
        return  // the listener failed: the next poll says so again, or it was closed
      }
      guard let stream else { return }
      accepted += 1
      // A slot is taken before anything is read, so that connections that never finish their
      // upgrade count against the limit too.
      let full = !hub.reserveSlot()
      var connection = ServeConnection(stream: stream, phase: .upgrading(request: [], full: full), now: now)
      connection.requestDeadline = now + (full ? Self.fullRequestTimeout : Self.requestTimeout)
      connections[accepted] = connection
    }
  }

  private mutating func upgrade(_ id: Int, with bytes: ArraySlice<UInt8>, now: ContinuousClock.Instant) {
    guard case .upgrading(var request, let full) = connections[id]?.phase else { return }
    request += bytes
    connections[id]?.phase = .upgrading(request: request, full: full)
    connections[id]?.requestDeadline = now + (full ? Self.fullRequestTimeout : Self.requestTimeout)
    let parsed: (request: ServerHandshake.Request, consumed: Int)?
    do throws(ServerHandshake.RequestError) {
      parsed = try ServerHandshake.parseRequest(request)
    } catch {
      return full
        ? refuse(id, ServeAdmission.full(limit: hub.options.maximumClients), now: now)
        : refuse(id, ServeAdmission.answer(error), releasing: true, now: now)
    }
    guard let (head, consumed) = parsed else { return }
    if full { return refuse(id, ServeAdmission.full(limit: hub.options.maximumClients), now: now) }
    switch ServeAdmission.answer(head, token: hub.options.token) {
    case .upgrade(let response): open(id, response: response, leftover: request[consumed...], now: now)
    case let refusal: refuse(id, refusal, releasing: true, now: now)
    }
  }

  private mutating func requestTimedOut(_ id: Int, now: ContinuousClock.Instant) {
    guard case .upgrading(_, let full) = connections[id]?.phase else { return }
    if full { return refuse(id, ServeAdmission.full(limit: hub.options.maximumClients), now: now) }
    hub.releaseSlot(status: nil, why: "")
    closeConnection(id)
  }

  /// Sends a refusal, logs it, and closes once it is out.
  private mutating func refuse(
    _ id: Int, _ answer: ServeAdmission.Answer, releasing: Bool = false, now: ContinuousClock.Instant
  ) {
    guard case .refuse(let response, let status, let why) = answer else { return }
    connections[id]?.phase = .refusing
    connections[id]?.readingDone = true
    connections[id]?.requestDeadline = nil
    connections[id]?.finishDeadline = now + Self.writeTimeout
    connections[id]?.append(response)
    flush(id, now: now)
    if releasing {
      hub.releaseSlot(status: status, why: why)
    } else if let status {
      hub.log(.refused(status: status, why: why))
    }
  }

  private mutating func open(
    _ id: Int, response: [UInt8], leftover: ArraySlice<UInt8>, now: ContinuousClock.Instant
  ) {
    guard let stream = connections[id]?.stream else { return }
    let options = hub.options
    // What a client that stops reading can hold in the kernel, besides its queue.
    stream.limitSendBuffer(to: options.socketSendBuffer)
    let client = hub.makeClient(id: id)
    let reader = ServeConnection.Reader(
      parser: FrameParser(role: .server, maximumFrameSize: options.maximumMessageSize),
      assembler: MessageAssembler(maximumMessageSize: options.maximumMessageSize),
      budget: RequestBudget(burst: options.requestBurst, perSecond: options.requestsPerSecond))
    connections[id]?.phase = .open(reader)
    connections[id]?.client = client
    connections[id]?.requestDeadline = nil
    connections[id]?.append(response)
    flush(id, now: now)
    hub.register(client)
    if !leftover.isEmpty { frames(id, leftover, now: now) }
  }

  // MARK: Reading

  private mutating func read(_ id: Int, now: ContinuousClock.Instant) {
    guard let stream = connections[id]?.stream else { return }
    // A few reads at most, then the others' turn.
    for _ in 0..<4 {
      let result = buffer.withUnsafeMutableBytes { stream.readAvailable(into: $0) }
      switch result {
      case .transferred(let count): received(id, buffer[0..<count], now: now)
      case .wouldBlock: return
      case .ended: return ended(id, now: now)
      case .failed: return broken(id, now: now)
      }
      guard connections[id]?.readingDone == false else { return }
    }
  }

  private mutating func received(_ id: Int, _ bytes: ArraySlice<UInt8>, now: ContinuousClock.Instant) {
    switch connections[id]?.phase {
    case .upgrading?: upgrade(id, with: bytes, now: now)
    case .open?: if connections[id]?.discarding == false { frames(id, bytes, now: now) }
    case .refusing?, nil: break
    }
  }

  /// The client's frames: pings answered, its requests to the hub, its close answered.
  private mutating func frames(_ id: Int, _ bytes: ArraySlice<UInt8>, now: ContinuousClock.Instant) {
    guard case .open(var reader) = connections[id]?.phase, let client = connections[id]?.client else {
      return
    }
    reader.parser.append(bytes)
    var closed: CloseStatus??
    do throws(FrameError) {
      while closed == nil, let frame = try reader.parser.next() {
        guard let event = try reader.assembler.receive(frame) else { continue }
        closed = take(event, from: client, reader: &reader, id: id, now: now)
      }
    } catch {
      connections[id]?.phase = .open(reader)
      return protocolError(error, id: id, client: client)
    }
    connections[id]?.phase = .open(reader)
    if let closed { clientClosed(id, closed, now: now) }
  }

  /// One event; the client's close status (itself optional) once it closed.
  private mutating func take(
    _ event: MessageAssembler.Event, from client: ServeClient, reader: inout ServeConnection.Reader, id: Int,
    now: ContinuousClock.Instant
  ) -> CloseStatus?? {
    // Once the server has closed a client, its further messages are dropped until its close
    // frame (closing on unread bytes would reset the connection before it could read why).
    if client.serverEnding != nil {
      if case .close(let status) = event { return .some(status) }
      return nil
    }
    if case .ping(let payload) = event {
      connections[id]?.append(FrameEncoder.encodeServerFrame(Frame(opcode: .pong, payload: payload)))
      flush(id, now: now)
    }
    if case .message = event, !reader.budget.spend(at: now) {
      hub.tooManyRequests(client)
      return nil
    }
    _ = hub.handle(event, from: client)
    if case .close(let status) = event {
      sendClose(id, status ?? CloseStatus(code: .normalClosure), now: now)
      return .some(status)
    }
    return nil
  }

  private mutating func protocolError(_ error: FrameError, id: Int, client: ServeClient) {
    hub.protocolError(error, from: client)
    // The frames cannot be parsed any more: the bytes are dropped until the client goes or
    // its grace is over.
    connections[id]?.discarding = true
  }

  private mutating func clientClosed(_ id: Int, _ status: CloseStatus?, now: ContinuousClock.Instant) {
    connections[id]?.status = status ?? CloseStatus(code: .noStatusReceived)
    readingEnded(id, now: now)
  }

  // MARK: Ending

  /// The client's end of the stream: what is queued may still go out.
  private mutating func ended(_ id: Int, now: ContinuousClock.Instant) {
    switch connections[id]?.phase {
    case .upgrading(_, let full)?:
      if full { return refuse(id, ServeAdmission.full(limit: hub.options.maximumClients), now: now) }
      hub.releaseSlot(status: nil, why: "")
      closeConnection(id)
    case .open?: readingEnded(id, now: now)
    case .refusing?, nil: closeConnection(id)
    }
  }

  /// A failed read or write, a stalled write, or a client too late with its close: nothing
  /// more can go out.
  private mutating func broken(_ id: Int, now: ContinuousClock.Instant) {
    guard var connection = connections[id] else { return }
    if case .upgrading(_, let full) = connection.phase, !full { hub.releaseSlot(status: nil, why: "") }
    if case .open = connection.phase, !connection.readingDone {
      connection.readingDone = true
      connection.left = hub.unregister(id)
    }
    connection.stream.shutdown()
    connections[id] = connection
    closeConnection(id)
  }

  /// Reading is over: the client leaves the hub; what is queued goes out (a client that left
  /// gets half a second, one the server closed its grace), then the socket is closed.
  private mutating func readingEnded(_ id: Int, now: ContinuousClock.Instant) {
    guard var connection = connections[id], !connection.readingDone, let client = connection.client else {
      return
    }
    connection.readingDone = true
    connection.left = hub.unregister(id)
    let wait = client.serverEnding == nil ? Self.leftGrace : .seconds(hub.options.closeGrace)
    connection.finishDeadline = now + wait
    connections[id] = connection
    client.outbox.finish()
    flush(id, now: now)
  }

  private mutating func closeConnection(_ id: Int) {
    guard let connection = connections.removeValue(forKey: id) else { return }
    connection.stream.close()
    guard let client = connection.client else { return }
    client.writerStopped()
    let ended = client.serverEnding
    hub.log(
      .disconnected(
        client: id, status: ended?.status ?? connection.status, why: ended?.why, open: connection.left))
  }

  // MARK: Writing

  private mutating func sendClose(_ id: Int, _ status: CloseStatus, now: ContinuousClock.Instant) {
    guard connections[id]?.closeSent == false else { return }
    connections[id]?.closeSent = true
    connections[id]?.append(FrameEncoder.encodeServerFrame(Frame.close(status)))
    flush(id, now: now)
  }

  /// Writes what waits, taking more from the outbox whenever what was taken is out.
  private mutating func flush(_ id: Int, now: ContinuousClock.Instant) {
    guard var connection = connections[id] else { return }
    var finished = false
    while true {
      if !connection.hasOutput && !connection.closeSent, let client = connection.client {
        guard let items = client.outbox.take() else {
          finished = true
          break
        }
        move(items, into: &connection)
      }
      guard connection.hasOutput else { break }
      let result = connection.out[connection.written...].withUnsafeBytes {
        connection.stream.writeAvailable($0)
      }
      switch result {
      case .transferred(let count):
        connection.written += count
        connection.lastProgress = now
      case .wouldBlock:
        connections[id] = connection
        return
      case .ended, .failed:
        connections[id] = connection
        return broken(id, now: now)
      }
    }
    connections[id] = connection
    if connection.closeSent { connection.client?.writerStopped() }
    let done = connection.closeSent || finished || connection.client == nil
    if connection.readingDone && done { closeConnection(id) }
  }

  private func move(_ items: [ClientOutbox.Item], into connection: inout ServeConnection) {
    for item in items {
      switch item {
      case .frame(let bytes): connection.append(bytes)
      case .close(let status):
        connection.append(FrameEncoder.encodeServerFrame(Frame.close(status)))
        connection.closeSent = true
        return
      }
    }
  }
}
