import TickerSupport
import Transport
import WebSocketWire

/// The session's decisions, made by one task from one inbox of inputs. Side effects (connect,
/// onConnect, reading, pinging, timers, closing) run in small tasks that report back here.
///
/// The timer and the connection's reader are children of the loop's task group: they end with
/// it, also when its task is cancelled. The others are tasks of their own, because they run
/// code that need not heed cancellation (an engine's connect, ping and close, the `onConnect`
/// hook) and the session must not wait for them to end: each is bounded by its own timeout or
/// by the connection's end, and reports to an inbox that is closed by then.
final class SessionLoop<C: Clock> where C.Duration == Duration {
  private enum Phase {
    case connecting(id: Int)
    case subscribing(id: Int, connection: any MessageConnection, task: Task<Void, Never>)
    case open(OpenConnection)
    case waiting
    case stopping(id: Int)
  }

  private struct OpenConnection {
    var id: Int
    var connection: any MessageConnection
    var openedAt: C.Instant
    var monitor: LivenessMonitor<C.Instant>
    /// The deadline the liveness timer is armed for.
    var armed: C.Instant?
    /// Why `onConnect` failed, if it did, and the peer's close status at that moment (the peer
    /// closed first when it had one); the connection is then on its way out.
    var subscribeFailure: (error: WebSocketError, peerClose: CloseStatus?)? = nil
  }

  private let clock: C
  private let context: SessionContext
  private var configuration: SessionConfiguration { context.configuration }
  private var random: any RandomNumberGenerator
  private var phase: Phase = .waiting
  private var outcome: SessionOutcome?
  /// 0 for the first connection, else the retry number since the last healthy connection.
  private var retry = 0
  private var nextID = 0
  /// Tokens of armed timers, never reused: a stale firing is recognised and ignored.
  private var timerSerial = 0
  /// The armed timer's token.
  private var timerToken: Int?
  private let timer: DeadlineTimer<C>
  private var reader: CancellableChild?
  /// Children for the loop's task group, started after the input that asked for them.
  private var children: [@Sendable () async -> Void] = []
  /// The open connection's forwarding (see `Forwarding`), closed when the loop leaves it.
  private var forwarding: Forwarding<C.Instant>?
  private var pinger: Task<Void, Never>?

  init(clock: C, context: SessionContext) {
    self.clock = clock
    self.context = context
    self.random = context.makeRandom()
    self.timer = DeadlineTimer(clock: clock)
  }

  /// Runs until the session ends, or until the calling task is cancelled (then the connection is
  /// abandoned and the outcome is `.stopped`).
  func run(inbox: MessageChannel<SessionInput>) async -> SessionOutcome {
    await withDiscardingTaskGroup(returning: SessionOutcome.self) { group in
      let (timer, timerInbox) = (timer, context.inbox)
      group.addTask { await timer.run { timerInbox.forcePush(.timer(token: $0)) } }
      beginAttempt()
      running: while let inputs = try? await inbox.nextBatch() {
        for input in inputs {
          handle(input)
          for child in children { group.addTask(operation: child) }
          children = []
          if outcome != nil { break running }
        }
      }
      timer.finish()
      // No message may follow the `.ended` the session emits next.
      forwarding?.close()
      reader?.cancel()
      pinger?.cancel()
      switch phase {
      case .subscribing(_, let connection, let task):
        task.cancel()
        if outcome == nil { abandon(connection) }
      case .open(let open) where outcome == nil: abandon(open.connection)
      default: break
      }
      return outcome ?? .stopped
    }
  }

  private func handle(_ input: SessionInput) {
    switch input {
    case .connectFinished(let id, let result): connectFinished(id: id, result)
    case .subscribed(let id, let error): subscribed(id: id, error)
    case .connectionEnded(let id, let error): connectionEnded(id: id, error)
    case .pong(let id):
      guard case .open(var open) = phase, open.id == id else { return }
      open.monitor.receivedPong(at: clock.now)
      // Re-arm for the next ping (once per interval, cheap; tests also see the pong handled).
      open.armed = nil
      disarm()
      phase = .open(open)
      armLivenessTimer()
    case .timer(let token):
      guard timerToken == token else { return }
      timerToken = nil
      timerFired()
    case .stop(let request): stop(request)
    case .stopFinished: outcome = .stopped
    case .reconnect(let reason):
      guard case .open(let open) = phase else { return }
      leaveOpenConnection()
      abandon(open.connection)
      failed(.requested(reason), .reconnect, healthyFor: open.openedAt.duration(to: clock.now))
    }
  }

  // MARK: - Connecting

  private func beginAttempt() {
    nextID += 1
    let id = nextID
    phase = .connecting(id: id)
    let context = context
    Task.preferringCurrentExecutor {
      let result: Result<any MessageConnection, WebSocketError>
      do throws(WebSocketError) {
        result = .success(try await context.source.open(options: context.options))
      } catch {
        result = .failure(error)
      }
      if !context.inbox.forcePush(.connectFinished(id: id, result)), case .success(let connection) = result {
        // The session ended meanwhile.
        let timeout = context.configuration.abandonCloseTimeout
        await connection.close(CloseStatus(code: .goingAway), timeout: timeout)
      }
    }
  }

  private func connectFinished(id: Int, _ result: Result<any MessageConnection, WebSocketError>) {
    guard case .connecting(let current) = phase, current == id else {
      if case .success(let connection) = result { abandon(connection) }
      return
    }
    switch result {
    case .failure(let error):
      failed(.failed(error), FailurePolicy.disposition(for: error), healthyFor: nil)
    case .success(let connection):
      let context = context
      let task = Task.preferringCurrentExecutor {
        var failure: WebSocketError? = nil
        do throws(WebSocketError) {
          try await context.onConnect(connection)
        } catch {
          failure = error
        }
        context.inbox.forcePush(.subscribed(id: id, failure))
      }
      phase = .subscribing(id: id, connection: connection, task: task)
    }
  }

  /// `onConnect` finished. Even when it failed, what the connection received is delivered: a
  /// server may send data and close 1000 in the same segment as its 101, before our subscription
  /// could go out (the send then fails with `.notConnected`), and that close is how the feed ends.
  /// So the reader runs either way, and the connection's own ending decides (see `connectionEnded`).
  private func subscribed(id: Int, _ error: WebSocketError?) {
    guard case .subscribing(let current, let connection, _) = phase, current == id else { return }
    let now = clock.now
    let monitor = LivenessMonitor(
      pingInterval: configuration.pingInterval, pongTimeout: configuration.pongTimeout,
      silenceTimeout: configuration.silenceTimeout, openedAt: now)
    var open = OpenConnection(id: id, connection: connection, openedAt: now, monitor: monitor)
    if let error {
      // Whether the peer had closed before our send failed decides, later, which of the two
      // is the reason. Then we close it (a no-op on a connection that has already ended).
      open.subscribeFailure = (error, connection.peerCloseStatus)
      abandon(connection)
    }
    let forwarding = Forwarding<C.Instant>()
    self.forwarding = forwarding
    phase = .open(open)
    // Before the first message: the forwarding task below puts messages into the events itself.
    if error == nil { context.events.forcePush(.connected(attempt: retry)) }
    startReader(of: connection, id: id, forwarding: forwarding)
    armLivenessTimer()
  }

  /// Starts the reader child: it takes `connection`'s messages into the events as the consumer
  /// makes room for them (`forwarding` tells when it last did, and whether it is held back), and
  /// reports the connection's end to the inbox.
  private func startReader(
    of connection: any MessageConnection, id: Int, forwarding: Forwarding<C.Instant>
  ) {
    let (inbox, events, clock) = (context.inbox, context.events, clock)
    let forward: @Sendable ([WebSocketMessage]) -> Void = { batch in
      forwarding.forwarded(at: clock.now)
      let bytes = batch.reduce(0) { $0 + $1.byteCount }
      events.forcePush(contentsOf: batch.map(SessionEvent.message), cost: bytes) { forwarding.isOpen }
    }
    // While this task waits for the connection's next batch with room in the events, the
    // connection's producer (its reader thread) forwards each batch itself, as this task would:
    // one wake-up less per batch. Once the events are full it wakes this task, which waits.
    let relay: @Sendable ([WebSocketMessage]) -> MessageChannel<WebSocketMessage>.Relayed = { batch in
      forward(batch)
      return events.hasRoom ? .taken : .takenWake
    }
    let reader = CancellableChild()
    self.reader = reader
    children.append {
      await reader.run {
        do {
          // A batch is taken from the connection only once the session's consumer has room for it
          // (`events` counts the batch it is working on), so a large message waits in the
          // connection, which then reads no further: about one message is held between the socket
          // and the consumer's hands. Then it goes straight into the events.
          while true {
            if !events.hasRoom {
              forwarding.setHeldBack(true)
              await events.waitForRoom()
              forwarding.setHeldBack(false)
              // Left for another connection or the end while held back: let the connection's
              // reader go now (it may be blocked on its own full channel), not once our consumer
              // has caught up.
              if Task.isCancelled {
                connection.messages.cancel()
                break
              }
            }
            guard let batch = try await connection.messages.nextBatch(relay: relay) else { break }
            if !batch.isEmpty { forward(batch) }
          }
          inbox.forcePush(.connectionEnded(id: id, nil))
        } catch let error as WebSocketError {
          inbox.forcePush(.connectionEnded(id: id, error))
        } catch {
          inbox.forcePush(.connectionEnded(id: id, .abnormalClosure))
        }
      }
    }
  }

  // MARK: - Open connection

  private func connectionEnded(id: Int, _ error: WebSocketError?) {
    guard case .open(let open) = phase, open.id == id else { return }
    leaveOpenConnection()
    let healthy = open.openedAt.duration(to: clock.now)
    if let error {
      failed(.failed(error), FailurePolicy.disposition(for: error), healthyFor: healthy)
    } else if let (subscribeError, peerClose) = open.subscribeFailure, peerClose == nil {
      // We closed it because `onConnect` failed: that failure is the reason.
      failed(.failed(subscribeError), FailurePolicy.disposition(for: subscribeError), healthyFor: nil)
    } else {
      let status = open.connection.peerCloseStatus ?? CloseStatus(code: .noStatusReceived)
      failed(.peerClosed(status), FailurePolicy.disposition(forPeerClose: status), healthyFor: healthy)
    }
  }

  private func timerFired() {
    switch phase {
    case .waiting: beginAttempt()
    case .stopping: outcome = .stopped
    case .open(var open):
      open.armed = nil
      let now = clock.now
      noteForwarded(&open)
      if forwarding?.isHeldBack == true {
        // Our consumer is behind, so the connection is not being read: neither silence nor a
        // missing pong can be told apart from that, and neither is the peer's doing.
        open.monitor.heldBack(at: now)
      }
      switch open.monitor.check(at: now) {
      case .alive:
        phase = .open(open)
      case .sendPing:
        open.monitor.sentPing(at: now)
        phase = .open(open)
        startPing(open)
      case .pongOverdue:
        dead(open, reason: .pongTimeout(configuration.pongTimeout))
        return
      case .silent:
        dead(open, reason: .silence(configuration.silenceTimeout ?? .zero))
        return
      }
      armLivenessTimer()
    case .connecting, .subscribing: break
    }
  }

  private func startPing(_ open: OpenConnection) {
    let (id, connection, inbox) = (open.id, open.connection, context.inbox)
    pinger?.cancel()
    pinger = Task.preferringCurrentExecutor {
      do throws(WebSocketError) {
        try await connection.ping(Array("keepalive".utf8))
        inbox.forcePush(.pong(id: id))
      } catch {
        // A failed ping means the connection ended; the reader reports how.
      }
    }
  }

  /// Tells the monitor when the forwarding task last forwarded messages.
  private func noteForwarded(_ open: inout OpenConnection) {
    if let instant = forwarding?.takeLastMessage() { open.monitor.receivedMessage(at: instant) }
  }

  private func dead(_ open: OpenConnection, reason: DisconnectReason) {
    leaveOpenConnection()
    abandon(open.connection)
    let healthy = open.openedAt.duration(to: open.monitor.lastSignOfLife)
    failed(reason, .reconnect, healthyFor: healthy)
  }

  /// Arms the liveness timer for the monitor's next deadline unless an earlier one is armed.
  private func armLivenessTimer() {
    guard case .open(var open) = phase, let deadline = open.monitor.nextDeadline else { return }
    if let armed = open.armed, armed <= deadline { return }
    open.armed = deadline
    phase = .open(open)
    arm(at: deadline)
  }

  private func leaveOpenConnection(keepReader: Bool = false) {
    if !keepReader {
      // Closed before whatever the loop emits next: nothing from this connection follows it.
      forwarding?.close()
      forwarding = nil
      reader?.cancel()
      reader = nil
    }
    pinger?.cancel()
    pinger = nil
    disarm()
  }

  // MARK: - Failures

  private func failed(_ reason: DisconnectReason, _ disposition: Disposition, healthyFor healthy: Duration?) {
    let backoff = configuration.backoff
    if let healthy, backoff.resets(afterHealthy: healthy) { retry = 0 }
    switch disposition {
    case .endNormally:
      if case .peerClosed(let status) = reason {
        outcome = .peerClosedNormally(status)
      } else {
        outcome = .peerClosedNormally(nil)
      }
    case .fatal:
      outcome = .fatal(reason.error ?? .abnormalClosure)
    case .reconnect, .rateLimited:
      if let maxRetries = configuration.maxRetries, retry >= maxRetries {
        outcome = .retriesExhausted(last: reason)
        return
      }
      retry += 1
      let delay = backoff.delay(
        forRetry: retry, notBefore: backoff.minimumDelay(for: disposition), using: &random)
      context.events.forcePush(.disconnected(reason: reason, attempt: retry, retryIn: delay))
      phase = .waiting
      arm(at: clock.now.advanced(by: delay))
    }
  }

  /// Closes a connection the session no longer wants, without waiting.
  private func abandon(_ connection: any MessageConnection) {
    let timeout = configuration.abandonCloseTimeout
    Task.preferringCurrentExecutor { await connection.close(CloseStatus(code: .goingAway), timeout: timeout) }
  }

  // MARK: - Stopping

  private func stop(_ request: StopRequest) {
    switch phase {
    case .connecting, .waiting:
      outcome = .stopped
    case .subscribing(let id, let connection, let task):
      task.cancel()
      beginStopping(id: id, connection: connection, request)
    case .open(let open):
      // Keep the reader: messages that arrive before the close are still delivered.
      leaveOpenConnection(keepReader: true)
      let (id, connection) = (open.id, open.connection)
      beginStopping(id: id, connection: connection, request)
    case .stopping:
      break
    }
  }

  private func beginStopping(id: Int, connection: any MessageConnection, _ request: StopRequest) {
    phase = .stopping(id: id)
    let inbox = context.inbox
    Task.preferringCurrentExecutor {
      do throws(WebSocketError) { try await connection.send(request.beforeClose) } catch {}
      await connection.close(request.status, timeout: request.timeout.seconds)
      inbox.forcePush(.stopFinished)
    }
    arm(at: clock.now.advanced(by: request.timeout))
  }

  // MARK: - Timer

  private func arm(at deadline: C.Instant) {
    timerSerial += 1
    timerToken = timerSerial
    timer.arm(at: deadline, token: timerSerial)
  }

  private func disarm() {
    timerToken = nil
    timer.disarm()
  }
}
