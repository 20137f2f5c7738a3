import Synchronization
import TickerSupport
import Venues
import WebSocketClient
import WebSocketWire

/// The thin async shell around `FeedMachine`: one task reads one ordered stream — the session's
/// events, into which connection openings, commands, timer ticks and stop requests are posted —
/// feeds it to the machine with the clock's time, and carries out what the machine answers:
/// publishing quotes on the bus, sending messages (through one sender task, so that a slow socket
/// never holds the stream up and messages keep their order), reconnecting, stopping.
///
/// `run()` is one task group: the session, the sender, the timer and the stopping task are its
/// children, so cancelling the task that runs it ends them all. The state they share is in
/// `FeedShellStorage`; while the task waits, `FastPath` may handle a live feed's batches on the
/// connection's reader thread.
final class FeedShell<C: Clock>: Sendable where C.Duration == Duration {
  private let storage: FeedShellStorage<C>
  private let clock: C
  private let session: SourceSession
  private let bus: QuoteBus
  private let report: @Sendable (FeedReport) -> Void
  private let closeTimeout: Duration
  private let wallClock: @Sendable () -> Int64
  private let outbox = MessageChannel<Outgoing>(capacity: 1 << 20, lockRank: .feedOutbox)
  /// `--record`: handed each batch before the machine sees it, with the instant it is given.
  private let recorder: (any FeedRecorder)?
  private let fastPath: FastPath<C>
  /// Whether the bus ends with this feed (its own), or with a group of feeds that share it.
  private let finishesBus: Bool

  init(
    machine: FeedMachine<C.Instant>, clock: C, session: SourceSession, bus: QuoteBus,
    finishesBus: Bool = true, closeTimeout: Duration,
    wallClock: @escaping @Sendable () -> Int64 = WallClock.epochMilliseconds,
    recorder: (any FeedRecorder)? = nil, report: @escaping @Sendable (FeedReport) -> Void
  ) {
    self.finishesBus = finishesBus
    storage = FeedShellStorage(machine: machine, clock: clock)
    self.recorder = recorder
    self.wallClock = wallClock
    self.clock = clock
    self.session = session
    self.bus = bus
    self.closeTimeout = closeTimeout
    self.report = report
    fastPath = FastPath(
      storage: storage, bus: bus, outbox: outbox, clock: clock, wallClock: wallClock, relays: recorder == nil)
  }

  /// Runs the feed until the session ends; cancelled, it ends at once (see `Feed.run()`).
  func run() async -> FeedOutcome {
    let now = clock.now
    storage.withState { $0.start = now }
    return await withDiscardingTaskGroup(returning: FeedOutcome.self) { group in
      group.addTask { await self.session.run() }
      group.addTask { await self.send() }
      group.addTask { await self.storage.runTimer { self.session.post(FeedPost.Tick(token: $0)) } }
      group.addTask { await self.stopWhenAsked() }
      let outcome = await readEvents()
      outbox.finish()
      storage.finish()
      return outcome
    }
  }

  /// The machine's figures as of now.
  func statistics() -> FeedStatistics {
    let (now, wall) = (clock.now, wallClock())
    return storage.withState { state in
      state.machine.activity.statistics(
        at: now, wall: wall, subscribed: state.machine.subscriptions.symbols.count)
    }
  }

  /// The sender: sends what the outbox holds, in order, until it is finished.
  private func send() async {
    while let items = try? await outbox.nextBatch() {
      for item in items {
        var failure: WebSocketError?
        do throws(WebSocketError) {
          try await item.connection.send(item.messages)
        } catch {
          failure = error
        }
        item.done?.resume(failure)
      }
    }
  }

  /// Once the run decided to stop: unsubscribes, closes with 1000 and ends the session.
  private func stopWhenAsked() async {
    guard let beforeClose = await storage.nextStopRequest() else { return }
    await session.stop(
      beforeClose: beforeClose, status: CloseStatus(code: .normalClosure), timeout: closeTimeout)
  }

  /// The stream, until the session ended (or the task was cancelled).
  private func readEvents() async -> FeedOutcome {
    let fastPath = self.fastPath
    let relay: @Sendable ([SessionEvent]) -> MessageChannel<SessionEvent>.Relayed = { fastPath.relay($0) }
    while let events = try? await session.events.nextBatch(relay: relay) {
      let pending = storage.withState { state in
        defer { state.pending = [] }
        return state.pending
      }
      if !pending.isEmpty {
        await execute(pending)
        storage.withState { $0.settle() }
      }
      if !events.isEmpty, let outcome = await handle(events) { return outcome }
    }
    return await cancelled()
  }

  /// One batch of the stream; the outcome once the session has ended.
  private func handle(_ events: [SessionEvent]) async -> FeedOutcome? {
    let now = clock.now
    let received = wallClock()
    if let recorder {
      let start = storage.withState { $0.start }
      await recorder.record(events, at: start.duration(to: now).wholeNanoseconds, received: received)
    }
    var start = 0
    while start < events.count {
      let (actions, stoppedAt) = storage.withState { state in
        state.machine.received = received
        return state.machine.handle(events, from: start, at: now)
      }
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
    storage.withState { $0.settle() }
    return nil
  }

  private func large(_ message: WebSocketMessage, at now: C.Instant) async {
    let (chunks, actions) = storage.withState { $0.machine.large(message, at: now) }
    await execute(actions)
    guard var remaining = chunks else { return }
    var quotes: [Quote] = []
    while remaining.next(into: &quotes) {
      let chunk = quotes
      await execute(storage.withState { $0.machine.handleChunk(chunk, at: now) })
      quotes.removeAll(keepingCapacity: true)
    }
  }

  private func handle(_ value: any Sendable, at now: C.Instant) async {
    // Ticks and commands see the wall clock too (the activity's stale checks and follows).
    let wall = wallClock()
    storage.withState { $0.machine.received = wall }
    switch value {
    case let opened as FeedPost.Opened:
      let messages = storage.withState { state in
        state.connection = opened.connection
        return state.machine.opened(at: now)
      }
      outbox.forcePush(Outgoing(connection: opened.connection, messages: messages, done: opened.done))
    case let tick as FeedPost.Tick:
      let actions = storage.withState { state -> [FeedAction] in
        guard let timer = state.timer, timer.token == tick.token else { return [] }
        state.timer = nil
        return state.machine.tick(at: now)
      }
      await execute(actions)
    case let request as FeedPost.Request:
      switch request {
      // Once stopping, the unsubscribe before the close is on its way: later changes would only
      // repeat it (a serve client leaving as serve stops) or subscribe anew.
      case .command(let command):
        await execute(storage.withState { $0.stopping == nil ? $0.machine.handle(command, at: now) : [] })
      case .controlLine(let line):
        await execute(
          storage.withState { $0.stopping == nil ? $0.machine.handle(controlLine: line, at: now) : [] })
      case .controlError(let error): report(.controlError(error))
      case .stop(let reason): storage.withState { $0.beginStop(.stopped(reason)) }
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
        if let connection = storage.withState({ $0.connection }) {
          outbox.forcePush(Outgoing(connection: connection, messages: messages, done: nil))
        }
      case .report(let feedReport):
        report(feedReport)
      case .reconnect(let reason):
        session.reconnect(reason: reason)
      case .stop(let outcome, _):
        storage.withState { $0.beginStop(outcome) }
      }
    }
  }

  /// The session ended: what was pending is printed (unless the output is what stopped), and
  /// the outputs are finished.
  private func finish(_ ended: SessionOutcome, at now: C.Instant) async -> FeedOutcome {
    let (outcome, flushed, received, start) = storage.withState { state in
      state.machine.ended()
      state.connection = nil
      let outcome: FeedOutcome
      switch ended {
      // Once the run decided to stop (--until held, --count reached, a signal, …), that decides
      // the outcome, however the session then ended: the server may close first, racing our
      // close (seen with --until and a server that closed right after the last trade, which
      // made a met --until exit 1).
      case _ where state.stopping != nil: outcome = state.stopping ?? .stopped(.signal(2))
      case .stopped: outcome = .stopped(.signal(2))
      case .peerClosedNormally(let status):
        outcome = state.machine.refusal.map(FeedOutcome.refused) ?? .serverClosed(status)
      case .fatal(let error): outcome = .failed(error)
      case .retriesExhausted(let last):
        outcome = .retriesExhausted(attempts: state.machine.lastAttempt, last: last)
      }
      let printsPending: Bool =
        switch outcome {
        case .stopped(.countReached), .stopped(.readerGone), .stopped(.writeFailed): false
        default: true
        }
      let flushed = printsPending ? state.machine.flush(at: now) : []
      return (outcome, flushed, state.machine.received, state.start)
    }
    if let recorder {
      await recorder.end(outcome, at: start.duration(to: now).wholeNanoseconds, received: received)
    }
    await bus.publish(flushed)
    if finishesBus { bus.finish() }
    _ = await recorder?.finish()
    return outcome
  }

  /// The task was cancelled: the session is ending too (a child of the same group); the outputs
  /// are finished without what was pending.
  private func cancelled() async -> FeedOutcome {
    storage.withState { state in
      state.machine.ended()
      state.connection = nil
    }
    if finishesBus { bus.finish() }
    _ = await recorder?.finish()
    return .stopped(.signal(2))
  }
}

/// What the shell's sender task sends on which connection; `done` learns how it went.
struct Outgoing: Sendable {
  var connection: any MessageConnection
  var messages: [WebSocketMessage]
  var done: OpenedReply?
}

/// What is posted into a feed's session stream for its shell (not generic, so that every
/// shell recognises them whatever its clock).
package enum FeedPost {
  /// Posted by the session's `onConnect` hook: a connection wants its subscription.
  package struct Opened: Sendable {
    var connection: any MessageConnection
    var done: OpenedReply
  }

  /// The armed timer's deadline passed (a recording of several venues records it).
  package struct Tick: Sendable { var token: Int }

  /// Posted by `Feed`'s methods.
  package enum Request: Sendable {
    case command(SubscriptionCommand)
    case controlLine(String)
    case controlError(ControlLineError)
    case stop(StopReason)
  }
}

/// How the subscription of a new connection went, for the session's `onConnect` hook, which
/// waits for it. Answered once; a reply dropped unanswered (its post or its message lost when the
/// run was cancelled) answers `.notConnected`, so the hook never waits forever.
final class OpenedReply: Sendable {
  private let continuation: Mutex<CheckedContinuation<WebSocketError?, Never>?>

  init(_ continuation: CheckedContinuation<WebSocketError?, Never>) {
    self.continuation = Mutex(continuation)
  }

  deinit { resume(.notConnected) }

  func resume(_ failure: WebSocketError?) {
    continuation.withLock { continuation in
      defer { continuation = nil }
      return continuation
    }?.resume(returning: failure)
  }
}
