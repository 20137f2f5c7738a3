import Synchronization
import TickerSupport
import WebSocketWire

/// One logical feed kept alive over many connections of a `MessageSource`: connects, calls `onConnect` after every
/// (re)connect, delivers messages in order, pings and watches for silence, reconnects transient
/// failures with backoff, ends on fatal ones, and stops cleanly.
///
/// ```swift
/// let session = SourceSession(source: WebSocketSource(engine: engine, url: url)) { connection throws(WebSocketError) in
///   for message in subscribeMessages { try await connection.send(message) }
/// }
/// session.start()
/// for await event in session.events { … }   // .ended(outcome) comes last
/// // elsewhere (signal, --count): await session.stop(beforeClose: unsubscribeMessages)
/// ```
public final class SourceSession: Sendable {
  public typealias ConnectHook = @Sendable (any MessageConnection) async throws(WebSocketError) -> Void

  /// Every event in order; finishes after `.ended`. Iterate it once.
  public let events: MessageChannel<SessionEvent>

  private let source: any MessageSource
  private let options: ConnectOptions
  private let configuration: SessionConfiguration
  private let clock: any Clock<Duration>
  private let makeRandom: @Sendable () -> any RandomNumberGenerator
  private let onConnect: ConnectHook
  private var eventSink: MessageChannel<SessionEvent> { events }
  private let inbox: MessageChannel<SessionInput>
  private var inboxSink: MessageChannel<SessionInput> { inbox }
  private let lifecycle = Mutex(Lifecycle())

  private struct Lifecycle {
    var started = false
    var ended = false
    var endWaiters: [CheckedContinuation<Void, Never>] = []
    var posts = 0
  }

  /// - Parameters:
  ///   - clock: where time comes from (tests pass a manual clock).
  ///   - makeRandom: makes the jitter source, once per session.
  ///   - onConnect: runs on every new connection before its messages are delivered (e.g. send
  ///     the subscriptions); a thrown error counts as that connection's failure.
  public init(
    source: any MessageSource,
    options: ConnectOptions = ConnectOptions(),
    configuration: SessionConfiguration = SessionConfiguration(),
    clock: any Clock<Duration> = ContinuousClock(),
    makeRandom: @escaping @Sendable () -> any RandomNumberGenerator = { SystemRandomNumberGenerator() },
    onConnect: @escaping ConnectHook
  ) {
    self.source = source
    self.options = options
    self.configuration = configuration
    self.clock = clock
    self.makeRandom = makeRandom
    self.onConnect = onConnect
    // Bounded: a consumer that falls behind holds the session back, and through it the
    // connection's reader and the socket. The bytes bound counts the batch the consumer is
    // working on too. The inbox counts read batches, not messages.
    events = MessageChannel(
      capacity: 512, costLimit: 256 << 10, countsBatchInHand: true, lockRank: .sessionEvents)
    inbox = MessageChannel(capacity: 2)
  }

  /// Starts connecting, in a task of its own. Idempotent; does nothing after the session ended.
  /// A caller with a task group of its own runs the session in it instead (`run()`).
  public func start() {
    guard claimStart() else { return }
    let clock = self.clock
    Task.preferringCurrentExecutor { await self.runLoop(clock) }
  }

  /// Runs the session in the calling task until it ends: the structured form of `start()`.
  /// Cancelling the task ends the session at once (its connection is closed with 1001, without
  /// waiting for the server's answer). Does nothing if the session started or ended already.
  public func run() async {
    guard claimStart() else { return }
    await runLoop(clock)
  }

  private func claimStart() -> Bool {
    lifecycle.withLock { state in
      guard !state.started && !state.ended else { return false }
      state.started = true
      return true
    }
  }

  /// Sends `beforeClose` (e.g. unsubscribes) on the current connection, closes it with `status`,
  /// waits at most `timeout` for the peer, and ends the session with `.stopped`. A pending
  /// backoff wait or connection attempt is abandoned at once. Returns once `.ended` was emitted.
  public func stop(
    beforeClose: [WebSocketMessage] = [],
    status: CloseStatus = CloseStatus(code: .normalClosure),
    timeout: Duration = .seconds(1)
  ) async {
    let running = lifecycle.withLock { state in
      if !state.started && !state.ended { state.ended = true }
      return state.started
    }
    guard running else {
      finishEvents(with: .stopped)
      return
    }
    inboxSink.forcePush(.stop(StopRequest(beforeClose: beforeClose, status: status, timeout: timeout)))
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let ended = lifecycle.withLock { state in
        if !state.ended { state.endWaiters.append(continuation) }
        return state.ended
      }
      if ended { continuation.resume() }
    }
  }

  /// Puts `value` into `events` as `.post`, after every event emitted so far and regardless of
  /// the stream's bound (posts are few: commands, timer ticks). An `onConnect` hook that posts is
  /// ordered after the previous connection's `.disconnected`. False once the stream has ended.
  @discardableResult
  public func post(_ value: any Sendable) -> Bool {
    let id = lifecycle.withLock { state in
      state.posts += 1
      return state.posts
    }
    return eventSink.forcePush(.post(SessionPost(value, id: id)))
  }

  /// Drops the open connection (close 1001 with `reason`) and reconnects with the usual backoff,
  /// as after a transient close: e.g. the venue announced it is about to close. Nothing happens
  /// when no connection is open.
  public func reconnect(reason: String) {
    inboxSink.forcePush(.reconnect(reason: reason))
  }

  private func runLoop<C: Clock>(_ clock: C) async where C.Duration == Duration {
    let context = SessionContext(
      source: source, options: options, configuration: configuration,
      makeRandom: makeRandom, onConnect: onConnect, events: eventSink, inbox: inboxSink)
    let loop = SessionLoop(clock: clock, context: context)
    let outcome = await loop.run(inbox: inbox)
    finishEvents(with: outcome)
  }

  private func finishEvents(with outcome: SessionOutcome) {
    eventSink.forcePush(.ended(outcome))
    eventSink.finish()
    inboxSink.finish()
    let waiters = lifecycle.withLock { state in
      state.ended = true
      defer { state.endWaiters = [] }
      return state.endWaiters
    }
    for waiter in waiters { waiter.resume() }
  }
}

/// What the loop needs from its session, all `Sendable`.
struct SessionContext: Sendable {
  var source: any MessageSource
  var options: ConnectOptions
  var configuration: SessionConfiguration
  var makeRandom: @Sendable () -> any RandomNumberGenerator
  var onConnect: SourceSession.ConnectHook
  var events: MessageChannel<SessionEvent>
  var inbox: MessageChannel<SessionInput>
}
