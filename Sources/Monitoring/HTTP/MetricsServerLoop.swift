import Transport

/// Every connection of the metrics endpoint on one `EventLoop` thread: accepting (within the
/// connection limit), reading each head (bounded in bytes and time), answering it, writing the
/// answer when the socket has room (bounded in time), closing. Nothing here waits on one socket:
/// a slow client holds one slot until its deadline, never the thread.
struct MetricsServerLoop: EventLoopDriver {
  enum Command: Sendable {
    /// Close the listener and every connection; the loop ends.
    case stop
  }

  /// After an accept fails (descriptors exhausted, say), accepting rests this long instead of
  /// spinning on a listener that stays readable.
  static let acceptPause = Duration.milliseconds(100)

  private let limits: MetricsServer.Limits
  private let responder: MetricsResponder
  private let statistics: MetricsServer.Record
  private var listener: TCPListener?
  private var connections: [Int: MetricsConnection] = [:]
  /// The last connection's number: the listener is 0, connections count from 1 (so the oldest
  /// has the smallest).
  private var accepted = 0
  private var acceptPausedUntil: ContinuousClock.Instant?
  private var buffer: [UInt8]

  init(
    listener: TCPListener, limits: MetricsServer.Limits, responder: MetricsResponder,
    statistics: MetricsServer.Record
  ) {
    self.listener = listener
    self.limits = limits
    self.responder = responder
    self.statistics = statistics
    buffer = [UInt8](repeating: 0, count: limits.maximumHeadSize + 1)
  }

  var isFinished: Bool { listener == nil && connections.isEmpty }

  var nextDeadline: ContinuousClock.Instant? {
    var next = acceptPausedUntil
    for connection in connections.values { next = min(next ?? connection.deadline, connection.deadline) }
    return next
  }

  func interests(into list: inout [EventLoopInterest]) {
    for (id, connection) in connections {
      list.append(
        EventLoopInterest(
          descriptor: connection.stream.descriptor, readable: !connection.isWriting,
          writable: connection.isWriting, token: id))
    }
    // The listener last: in one wake-up the connections' heads are read before newcomers may
    // evict them.
    if let listener, acceptPausedUntil == nil {
      list.append(
        EventLoopInterest(descriptor: listener.descriptor, readable: true, writable: false, token: 0))
    }
  }

  mutating func ready(_ token: Int, events: Int16, now: ContinuousClock.Instant) {
    guard token != 0 else { return acceptSome(now: now) }
    guard let connection = connections[token] else { return }
    if connection.isWriting { flush(token) } else { read(token, now: now) }
  }

  mutating func timersDue(now: ContinuousClock.Instant) {
    if let paused = acceptPausedUntil, paused <= now { acceptPausedUntil = nil }
    for (id, connection) in connections where connection.deadline <= now {
      statistics.update {
        if connection.isWriting { $0.writeTimeouts += 1 } else { $0.headTimeouts += 1 }
      }
      close(id)
    }
  }

  mutating func handle(_ commands: [Command], now: ContinuousClock.Instant) {
    for command in commands {
      switch command {
      case .stop:
        listener?.close()
        listener = nil
        for id in Array(connections.keys) { close(id) }
      }
    }
  }

  // MARK: Accepting

  /// A quarter of the limit at most a wake-up: a flood of connections waits its turn behind the
  /// heads already being read.
  private mutating func acceptSome(now: ContinuousClock.Instant) {
    guard let listener else { return }
    for _ in 0..<max(1, limits.maximumConnections / 4) {
      let stream: TCPStream?
      do {
        stream = try listener.acceptAvailable()
      } catch {
        acceptPausedUntil = now + Self.acceptPause
        return
      }
      guard let stream else { return }
      admit(stream, now: now)
    }
  }

  /// Takes a new connection: beyond the limit it evicts the oldest one still reading its head,
  /// or, when none is, is answered 503 (as much as the socket takes at once) and closed.
  private mutating func admit(_ stream: TCPStream, now: ContinuousClock.Instant) {
    statistics.update { $0.accepted += 1 }
    if connections.count >= limits.maximumConnections {
      var oldestReading: Int?
      for (id, connection) in connections where !connection.isWriting && id < oldestReading ?? .max {
        oldestReading = id
      }
      guard let oldestReading else {
        // Counted first: the client may look as soon as it has the answer.
        statistics.update { $0.refused += 1 }
        _ = MetricsResponder.busy.bytes().withUnsafeBytes { stream.writeAvailable($0) }
        stream.close()
        return
      }
      statistics.update { $0.evicted += 1 }
      close(oldestReading)
    }
    accepted += 1
    connections[accepted] = MetricsConnection(
      stream: stream, maximumHeadSize: limits.maximumHeadSize, deadline: now + limits.headTimeout)
    let open = connections.count
    statistics.update {
      $0.open = open
      $0.mostOpen = max($0.mostOpen, open)
    }
  }

  // MARK: Reading and answering

  /// One read of at most what the head may still take.
  private mutating func read(_ id: Int, now: ContinuousClock.Instant) {
    guard var connection = connections[id] else { return }
    let room = connection.reader.room
    let result = buffer.withUnsafeMutableBytes {
      connection.stream.readAvailable(into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<room]))
    }
    switch result {
    case .transferred(let count):
      connection.read += count
      let read = connection.read
      statistics.update { $0.mostReadFromOne = max($0.mostReadFromOne, read) }
      let answer: (response: HTTPResponse, headOnly: Bool)
      do throws(HTTPRequestError) {
        guard let request = try connection.reader.append(buffer[0..<count]) else {
          connections[id] = connection
          return
        }
        answer = responder.respond(to: request)
      } catch {
        answer = (MetricsResponder.respond(to: error), false)
      }
      connection.out = answer.response.bytes(headOnly: answer.headOnly)
      connection.deadline = now + limits.writeTimeout
      connections[id] = connection
      statistics.update {
        $0.responses += 1
        $0.writing += 1
      }
      flush(id)
    case .wouldBlock: return
    case .ended, .failed: close(id)
    }
  }

  /// Writes what the socket takes; closes once all is out (or the write failed).
  private mutating func flush(_ id: Int) {
    guard var connection = connections[id], let out = connection.out else { return }
    while connection.written < out.count {
      let result = out[connection.written...].withUnsafeBytes { connection.stream.writeAvailable($0) }
      switch result {
      case .transferred(let count): connection.written += count
      case .wouldBlock:
        connections[id] = connection
        return
      case .ended, .failed: return close(id)
      }
    }
    close(id)
  }

  private mutating func close(_ id: Int) {
    guard let connection = connections.removeValue(forKey: id) else { return }
    let open = connections.count
    statistics.update {
      $0.open = open
      if connection.isWriting { $0.writing -= 1 }
    }
    connection.stream.close()
  }
}
