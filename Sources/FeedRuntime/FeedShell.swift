import TickerSupport
import Venues
import WebSocketClient

/// The thin async shell around `FeedMachine`: one task reads one ordered stream — the session's
/// events, into which connection openings, commands, timer ticks and stop requests are posted —
/// feeds it to the machine with the clock's time, and carries out what the machine answers:
/// publishing quotes on the bus, sending messages (through one sender task per feed, so that a
/// slow socket never holds the stream up and messages keep their order), reconnecting, stopping.
final class FeedShell<C: Clock>: @unchecked Sendable where C.Duration == Duration {
  // `@unchecked`: all mutable state is touched only by the task running `run()`, or by `relay`
  // while that task is parked for the session's next events, under the events' lock (so never
  // at once with it, and whatever one did the other sees).
  private var machine: FeedMachine<C.Instant>
  private let clock: C
  private let session: WebSocketSession
  private let bus: QuoteBus
  private let report: (FeedReport) -> Void
  private let closeTimeout: Duration
  private let wallClock: @Sendable () -> Int64
  private let outbox = MessageChannel<Outgoing>(capacity: 1 << 20)
  private var connection: (any WebSocketConnection)?
  private var timer: (token: Int, deadline: C.Instant, task: Task<Void, Never>)?
  private var timerSerial = 0
  private var stopping: FeedOutcome?
  /// `--record`: handed each batch before the machine sees it, with the instant it is given.
  private let recorder: (any FeedRecorder)?
  private var start: C.Instant
  /// What `relay` left for `run()` to carry out before anything else.
  private var pending: [FeedAction] = []

  /// The most messages, and bytes, a batch `relay` handles may have: a live feed's. A firehose's
  /// batches are left to `run()`, so that the connection's reader goes on reading meanwhile.
  static var relayLimit: (messages: Int, bytes: Int) { (64, 16 << 10) }

  /// What the sender sends on which connection; `done` learns how it went.
  struct Outgoing: Sendable {
    var connection: any WebSocketConnection
    var messages: [WebSocketMessage]
    var done: CheckedContinuation<WebSocketError?, Never>?
  }

  init(
    machine: FeedMachine<C.Instant>, clock: C, session: WebSocketSession, bus: QuoteBus,
    closeTimeout: Duration, wallClock: @escaping @Sendable () -> Int64 = WallClock.epochMilliseconds,
    recorder: (any FeedRecorder)? = nil, report: @escaping (FeedReport) -> Void
  ) {
    self.recorder = recorder
    self.start = clock.now
    self.wallClock = wallClock
    self.machine = machine
    self.clock = clock
    self.session = session
    self.bus = bus
    self.closeTimeout = closeTimeout
    self.report = report
  }

  func run() async -> FeedOutcome {
    let outbox = self.outbox
    let sender = Task {
      while let items = try? await outbox.nextBatch() {
        for item in items {
          var failure: WebSocketError?
          for message in item.messages {
            do throws(WebSocketError) {
              try await item.connection.send(message)
            } catch {
              failure = error
              break
            }
          }
          item.done?.resume(returning: failure)
        }
      }
    }
    defer { timer?.task.cancel() }
    start = clock.now
    session.start()
    var outcome: FeedOutcome?
    let relay: @Sendable ([SessionEvent]) -> MessageChannel<SessionEvent>.Relayed = { [self] in
      self.relay($0)
    }
    while outcome == nil, let events = try? await session.events.nextBatch(relay: relay) {
      if !pending.isEmpty {
        let actions = pending
        pending = []
        await execute(actions)
        if !machine.isConnected { connection = nil }
        armTimer()
      }
      if !events.isEmpty { outcome = await handle(events) }
    }
    outbox.finish()
    _ = await sender.value
    return outcome ?? .stopped(.signal(2))
  }

  /// One batch of the stream; the outcome once the session has ended.
  private func handle(_ events: [SessionEvent]) async -> FeedOutcome? {
    let now = clock.now
    machine.received = wallClock()
    if let recorder {
      await recorder.record(events, at: start.duration(to: now).wholeNanoseconds, received: machine.received)
    }
    var start = 0
    while start < events.count {
      let (actions, stoppedAt) = machine.handle(events, from: start, at: now)
      await execute(actions)
      guard let index = stoppedAt else { break }
      switch events[index] {
      case .message(let message):
        await large(message, at: now)
      case .post(let post):
        await handle(post.value, at: now)
      case .ended(let ended):
        return await finish(ended, at: now)
      case .connected, .disconnected:
        break  // the machine handles these itself
      }
      start = index + 1
    }
    if !machine.isConnected { connection = nil }
    armTimer()
    return nil
  }

  /// While `run()` waits for the session's next events, whoever brings them (the connection's
  /// reader thread, through the session's forwarding) hands each batch here, under the events'
  /// lock. A small batch of ordinary messages is handled on that thread, as `handle` would: the
  /// machine's quotes go out on the bus if every output takes them without waiting (stdout
  /// writes them there and then when it can, see `StdoutOutput`), which spares waking this
  /// task for each message of a live feed. The first action that cannot be carried out here
  /// (an output without room, a report, a reconnect, a stop) and those after it are left in
  /// `pending`, for `run()`, which is woken. Anything else (posts, openings, large messages,
  /// `--record`) is declined: `run()` gets it as before.
  private func relay(_ events: [SessionEvent]) -> MessageChannel<SessionEvent>.Relayed {
    guard recorder == nil, pending.isEmpty, events.count <= Self.relayLimit.messages else { return .declined }
    var bytes = 0
    for event in events {
      guard case .message(let message) = event else { return .declined }
      bytes += message.byteCount
    }
    guard bytes <= Self.relayLimit.bytes, bytes < LargeMessage.threshold else { return .declined }
    let now = clock.now
    machine.received = wallClock()
    let (actions, _) = machine.handle(events, from: 0, at: now)
    for (index, action) in actions.enumerated() {
      switch action {
      case .publish(let quotes) where bus.publishNow(quotes):
        continue
      case .send(let messages):
        if let connection {
          outbox.forcePush(Outgoing(connection: connection, messages: messages, done: nil))
        }
      default:
        pending = Array(actions[index...])
        return .takenWake
      }
    }
    if !machine.isConnected { connection = nil }
    armTimer()
    return .taken
  }

  private func large(_ message: WebSocketMessage, at now: C.Instant) async {
    var (chunks, actions) = machine.large(message, at: now)
    await execute(actions)
    guard var remaining = chunks else { return }
    var quotes: [Quote] = []
    while remaining.next(into: &quotes) {
      await execute(machine.handleChunk(quotes, at: now))
      quotes.removeAll(keepingCapacity: true)
    }
    chunks = nil
  }

  private func handle(_ value: any Sendable, at now: C.Instant) async {
    switch value {
    case let opened as FeedPost.Opened:
      connection = opened.connection
      let messages = machine.opened(at: now)
      outbox.forcePush(Outgoing(connection: opened.connection, messages: messages, done: opened.done))
    case let tick as FeedPost.Tick:
      guard let timer, timer.token == tick.token else { return }
      self.timer = nil
      await execute(machine.tick(at: now))
    case let request as FeedPost.Request:
      switch request {
      // Once stopping, the unsubscribe before the close is on its way: later changes would only
      // repeat it (a serve client leaving as serve stops) or subscribe anew.
      case .command(let command) where stopping == nil: await execute(machine.handle(command, at: now))
      case .controlLine(let line) where stopping == nil:
        await execute(machine.handle(controlLine: line, at: now))
      case .command, .controlLine: break
      case .controlError(let error): report(.controlError(error))
      case .stop(let reason): beginStop(.stopped(reason))
      }
    default:
      break
    }
  }

  private func execute(_ actions: [FeedAction]) async {
    for action in actions {
      switch action {
      case .publish(let quotes):
        await bus.publish(quotes)
      case .send(let messages):
        if let connection {
          outbox.forcePush(Outgoing(connection: connection, messages: messages, done: nil))
        }
      case .report(let feedReport):
        report(feedReport)
      case .reconnect(let reason):
        session.reconnect(reason: reason)
      case .stop(let outcome, _):
        beginStop(outcome)
      }
    }
  }

  /// Unsubscribes, closes with 1000 and ends the session; the first request decides the outcome.
  private func beginStop(_ outcome: FeedOutcome) {
    guard stopping == nil else { return }
    stopping = outcome
    let beforeClose = machine.unsubscribeAll()
    let (session, timeout) = (session, closeTimeout)
    Task {
      await session.stop(
        beforeClose: beforeClose, status: CloseStatus(code: .normalClosure), timeout: timeout)
    }
  }

  /// The session ended: what was pending is printed (unless the output is what stopped), and
  /// the outputs are finished.
  private func finish(_ ended: SessionOutcome, at now: C.Instant) async -> FeedOutcome {
    machine.ended()
    connection = nil
    let outcome: FeedOutcome
    switch ended {
    // Once the run decided to stop (--until held, --count reached, a signal, …), that decides
    // the outcome, however the session then ended: the server may close first, racing our
    // close (seen with --until and a server that closed right after the last trade, which
    // made a met --until exit 1).
    case _ where stopping != nil: outcome = stopping ?? .stopped(.signal(2))
    case .stopped: outcome = .stopped(.signal(2))
    case .peerClosedNormally(let status):
      outcome = machine.refusal.map(FeedOutcome.refused) ?? .serverClosed(status)
    case .fatal(let error): outcome = .failed(error)
    case .retriesExhausted(let last): outcome = .retriesExhausted(attempts: machine.lastAttempt, last: last)
    }
    let printsPending: Bool =
      switch outcome {
      case .stopped(.countReached), .stopped(.readerGone), .stopped(.writeFailed): false
      default: true
      }
    if let recorder {
      await recorder.end(
        outcome, at: start.duration(to: now).wholeNanoseconds, received: machine.received)
    }
    if printsPending { await bus.publish(machine.flush(at: now)) }
    bus.finish()
    _ = await recorder?.finish()
    return outcome
  }

  // MARK: Timer

  /// Arms the timer for the machine's next deadline, unless one at least as early is armed.
  private func armTimer() {
    guard let deadline = machine.nextDeadline else { return }
    if let timer, timer.deadline <= deadline { return }
    timer?.task.cancel()
    timerSerial += 1
    let token = timerSerial
    let (clock, session) = (clock, session)
    let task = Task {
      do {
        try await clock.sleep(until: deadline, tolerance: nil)
      } catch {
        return
      }
      session.post(FeedPost.Tick(token: token))
    }
    timer = (token, deadline, task)
  }
}

/// What is posted into a feed's session stream for its shell (not generic, so that every
/// shell recognises them whatever its clock).
package enum FeedPost {
  /// Posted by the session's `onConnect` hook: a connection wants its subscription.
  package struct Opened: Sendable {
    var connection: any WebSocketConnection
    var done: CheckedContinuation<WebSocketError?, Never>
  }

  struct Tick: Sendable { var token: Int }

  /// Posted by `Feed`'s methods.
  package enum Request: Sendable {
    case command(SubscriptionCommand)
    case controlLine(String)
    case controlError(ControlLineError)
    case stop(StopReason)
  }
}
