import Dispatch
import Synchronization
import WebSocketClient

/// One accepted client of a `FeedServer`: the upgrade, a reader thread for client frames, and
/// the replay of the script on the connection's own thread.
final class ServerConnection: Sendable {
  private let stream: TCPStream
  private unowned let server: FeedServer
  private let plan: ConnectionPlan
  private let script: SessionScript
  /// Signalled when the connection ends, to cut short any wait in the replay.
  private let ended = DispatchSemaphore(value: 0)
  /// Signalled on each subscribe (Finnhub emulation starts the replay at the first one).
  private let subscribed = DispatchSemaphore(value: 0)
  private let writeLock = Mutex(())
  private let state: Mutex<State>

  private struct State: Sendable {
    var emulator: FinnhubEmulator
    var closeSent = false
    var finished = false
    /// Half-open simulation: client frames are read but nothing is answered.
    var unresponsive = false
    /// The client's bytes are no longer read at all (they pile up in the kernel's buffers).
    var stopReading = false
  }

  init(stream: TCPStream, server: FeedServer, plan: ConnectionPlan) {
    self.stream = stream
    self.server = server
    self.plan = plan
    self.script = plan.script ?? server.script
    let blastSymbols: [String] =
      switch plan.ending {
      case .blast: [BlastFrames.symbol]
      case .mixedBlast(_, let mix, _): mix.symbolNames
      default: []
      }
    self.state = Mutex(
      State(emulator: FinnhubEmulator(script: plan.script ?? server.script, extraSymbols: blastSymbols)))
  }

  /// Drops the connection at once (no close frame): `FeedServer.stop()`.
  func abort() {
    finish()
    stream.shutdown()
  }

  func run() {
    defer {
      finish()
      stream.close()
    }
    guard let leftover = handshake() else { return }
    DispatchQueue(label: "FeedServer.reader").async { self.readLoop(initial: leftover) }
    replay()
  }

  // MARK: Handshake

  /// Answers the upgrade; returns the bytes that followed the request head, or nil when the
  /// connection ends here (refused or broken).
  private func handshake() -> [UInt8]? {
    var received: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let n: Int
      do { n = try readChunk(&chunk, timeout: 10) } catch { return nil }
      if n == 0 { return nil }
      received += chunk[0..<n]
      let parsed: (request: ServerHandshake.Request, consumed: Int)?
      do {
        parsed = try ServerHandshake.parseRequest(received)
      } catch {
        let status = error.status
        try? write(ServerHandshake.response(status: status.code, reason: status.reason))
        return nil
      }
      guard let (request, consumed) = parsed else { continue }
      server.update {
        $0.connections += 1
        $0.targets.append(request.target)
      }
      var status = script.handshakeStatus
      var retryAfter = server.options.retryAfter
      var statusLine = "HTTP/1.1 101 Switching Protocols"
      var trailing: [UInt8] = []
      switch plan.handshake {
      case .script: break
      case .respond(let code, let reason, let fields):
        try? write(
          ServerHandshake.response(
            status: code, reason: reason, headers: fields.map { ($0.name, $0.value) },
            body: Array("\(code)\n".utf8)))
        return nil
      case .accept(let line, let bytes):
        statusLine = line
        trailing = bytes
      case .refuse(let code, let reason, let retry):
        status = (code, reason)
        retryAfter = retry
      case .stall:
        try? write(Array("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n".utf8))
        ended.wait()
        ended.signal()
        return nil
      }
      if status.code != 101 {
        var headers: [(name: String, value: String)] = [("Content-Type", "text/plain")]
        if let retryAfter { headers.append(("Retry-After", String(retryAfter))) }
        try? write(
          ServerHandshake.response(
            status: status.code, reason: status.reason, headers: headers,
            body: Array("\(status.code) \(status.reason)\n".utf8)))
        return nil
      }
      do {
        let key = try ServerHandshake.validateUpgrade(request)
        try write(ServerHandshake.upgradeResponse(forKey: key, statusLine: statusLine) + trailing)
      } catch let error as ServerHandshake.RequestError {
        try? write(ServerHandshake.response(status: error.status.code, reason: error.status.reason))
        return nil
      } catch {
        return nil
      }
      return Array(received[consumed...])
    }
  }

  // MARK: Client frames

  private func readLoop(initial: [UInt8]) {
    var parser = FrameParser(role: .server, maximumFrameSize: 1 << 20)
    var assembler = MessageAssembler(maximumMessageSize: 1 << 20)
    parser.append(initial)
    var chunk = [UInt8](repeating: 0, count: 16 * 1024)
    defer { finish() }
    while true {
      do {
        while let frame = try parser.next() {
          guard let event = try assembler.receive(frame) else { continue }
          if state.withLock({ $0.unresponsive }) { continue }
          switch event {
          case .message(.text(let text)):
            server.update { $0.clientMessages.append(text) }
            let (replies, didSubscribe) = state.withLock { state in
              let before = state.emulator.subscribeRequests
              let replies = state.emulator.receive(clientText: text)
              return (replies, state.emulator.subscribeRequests > before)
            }
            for reply in replies { try sendFrame(Frame(opcode: .text, payload: Array(reply.utf8))) }
            if didSubscribe { subscribed.signal() }
          case .message(.binary):
            break
          case .ping(let payload):
            try sendFrame(Frame(opcode: .pong, payload: payload))
          case .pong:
            break
          case .close(let status):
            server.update { $0.clientCloses.append(status) }
            try? sendClose(status ?? CloseStatus(code: .normalClosure))
            return
          }
        }
      } catch let error as FrameError {
        try? sendClose(CloseStatus(code: error.closeCode, reason: "\(error)"))
        return
      } catch {
        return
      }
      if state.withLock({ $0.stopReading }) {
        ended.wait()
        ended.signal()
        return
      }
      do {
        let n = try readChunk(&chunk, timeout: nil)
        if n == 0 { return }
        parser.append(chunk[0..<n])
      } catch {
        return
      }
    }
  }

  // MARK: Replay

  private func replay() {
    let options = server.options
    if options.emulation == .finnhub {
      // Finnhub sends nothing before the first subscribe.
      let needed = max(1, options.awaitSubscriptions)
      while state.withLock({ $0.emulator.subscribeRequests < needed }) {
        if isFinished { return }
        // Woken by each subscribe (or the poll interval, to notice the end); the loop re-checks.
        _ = subscribed.wait(timeout: .now() + 0.05)
      }
    }
    for step in script.steps where step.direction == .server && step.kind != .http {
      guard pause(milliseconds: step.afterMilliseconds) else { return }
      do {
        switch step.kind {
        case .text, .binary:
          let body: String? =
            options.emulation == .finnhub
            ? state.withLock { $0.emulator.outgoing(step.body) } : step.body
          guard let body else { continue }
          try sendFrame(Frame(opcode: step.kind == .text ? .text : .binary, payload: Array(body.utf8)))
        case .ping:
          try sendFrame(Frame(opcode: .ping, payload: Array(step.body.utf8.prefix(125))))
        case .close:
          let parts = step.body.split(separator: " ", maxSplits: 1)
          let code = parts.first.flatMap { UInt16($0) } ?? 1000
          try sendClose(CloseStatus(code: CloseCode(code), reason: parts.count > 1 ? String(parts[1]) : ""))
          waitForEnd(seconds: 5)
          return
        case .raw:
          try write(SessionScript.bytes(fromHex: step.body))
        case .http:
          continue
        }
      } catch {
        return
      }
    }
    server.update { $0.scriptsCompleted += 1 }
    switch plan.ending {
    case .close(let status):
      try? sendClose(status)
      waitForEnd(seconds: 5)
    case .hold:
      ended.wait()
      ended.signal()
    case .drop:
      stream.shutdown()
    case .unresponsive:
      state.withLock { $0.unresponsive = true }
      ended.wait()
      ended.signal()
    case .stallMidFrame:
      state.withLock { $0.unresponsive = true }
      // A text frame announcing 100 bytes, of which 3 arrive.
      try? write([0x81, 100, 0x7B, 0x22, 0x64])
      ended.wait()
      ended.signal()
    case .closeThenData:
      try? sendClose(CloseStatus(code: .normalClosure, reason: "bye"))
      try? sendFrame(Frame(opcode: .text, payload: Array(#"{"type":"ping"}"#.utf8)))
      waitForEnd(seconds: 5)
    case .pingFlood:
      state.withLock { $0.stopReading = true }
      let ping = FrameEncoder.encodeServerFrame(
        Frame(opcode: .ping, payload: Array(repeating: 0x70, count: 125)))
      let burst = Array([[UInt8]](repeating: ping, count: 64).joined())
      while !isFinished {
        do { try write(burst) } catch { return }
      }
    case .synthetic(let seed, let interval):
      synthesize(seed: seed, interval: interval)
    case .blast(let count, let then):
      do {
        try blast(count: count)
      } catch {
        return
      }
      finishPlan(then)
    case .mixedBlast(let count, let mix, let then):
      do {
        try mixedBlast(count: count, mix: mix)
      } catch {
        return
      }
      finishPlan(then)
    }
  }

  /// The ending after a blast (one level: a blast never follows a blast).
  private func finishPlan(_ ending: ConnectionPlan.Ending) {
    switch ending {
    case .close(let status):
      try? sendClose(status)
      waitForEnd(seconds: 30)
    case .drop:
      stream.shutdown()
    default:
      ended.wait()
      ended.signal()
    }
  }

  /// Writes `count` pre-framed trade messages in large writes.
  private func blast(count: Int) throws(TransportError) {
    let batch = server.options.hostileBlast ? BlastFrames.hostileBatch : BlastFrames.batch
    var remaining = count
    while remaining > 0, !isFinished {
      let n = min(remaining, BlastFrames.messagesPerBatch)
      if n == BlastFrames.messagesPerBatch {
        try write(batch)
      } else {
        try write(BlastFrames.frames(count: n))
      }
      remaining -= n
      server.update { $0.blasted += n }
    }
  }

  /// Writes `count` multi-trade messages shaped by `mix`, built and written 100 at a time.
  private func mixedBlast(count: Int, mix: BlastMix) throws(TransportError) {
    var generator = BlastFrames.Mixed(mix)
    var remaining = count
    while remaining > 0, !isFinished {
      let n = min(remaining, 100)
      try write(generator.frames(count: n).bytes)
      remaining -= n
      server.update { $0.blasted += n }
    }
  }

  /// Keeps trading after the script: a random walk of the subscribed known symbols, with a
  /// Finnhub ping every 60 s.
  private func synthesize(seed: UInt64, interval: Double) {
    var generator = state.withLock { $0.emulator.syntheticTrades(seed: seed) }
    var sincePing = 0.0
    while pause(milliseconds: Int(interval * 1000)) {
      sincePing += interval
      let symbols = state.withLock { $0.emulator.subscribedKnownSymbols }
      do {
        if let message = generator.nextMessage(symbols: symbols, elapsedMilliseconds: Int(interval * 1000)) {
          try sendFrame(Frame(opcode: .text, payload: Array(message.utf8)))
        }
        if sincePing >= 60 {
          sincePing = 0
          try sendFrame(Frame(opcode: .text, payload: Array(#"{"type":"ping"}"#.utf8)))
        }
      } catch {
        return
      }
    }
  }

  /// Waits the step's scaled delay; false when the connection ended meanwhile.
  private func pause(milliseconds: Int) -> Bool {
    var seconds = Double(milliseconds) / 1000 * server.options.timeScale
    if let cap = server.options.maximumDelay { seconds = min(seconds, cap) }
    if seconds <= 0 { return !isFinished }
    if ended.wait(timeout: .now() + seconds) == .success {
      ended.signal()  // keep it signalled for everyone else
      return false
    }
    return true
  }

  private func waitForEnd(seconds: Double) {
    if ended.wait(timeout: .now() + seconds) == .success { ended.signal() }
  }

  private var isFinished: Bool { state.withLock { $0.finished } }

  private func finish() {
    let first = state.withLock { state -> Bool in
      defer { state.finished = true }
      return !state.finished
    }
    if first { ended.signal() }
  }

  // MARK: Writing

  private func sendClose(_ status: CloseStatus) throws(TransportError) {
    let first = state.withLock { state -> Bool in
      defer { state.closeSent = true }
      return !state.closeSent
    }
    if first { try sendFrame(Frame.close(status)) }
  }

  private func sendFrame(_ frame: Frame) throws(TransportError) {
    try write(FrameEncoder.encodeServerFrame(frame))
  }

  private func write(_ bytes: [UInt8]) throws(TransportError) {
    try writeLock.withLock { _ throws(TransportError) in try stream.write(bytes, timeout: 10) }
  }

  private func readChunk(_ chunk: inout [UInt8], timeout: Double?) throws(TransportError) -> Int {
    var result: Result<Int, TransportError> = .success(0)
    chunk.withUnsafeMutableBytes { raw in
      do throws(TransportError) { result = .success(try stream.read(into: raw, timeout: timeout)) } catch {
        result = .failure(error)
      }
    }
    return try result.get()
  }
}
