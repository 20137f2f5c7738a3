import Synchronization
import TickerSupport
import WebSocketClient
import WebSocketWire

/// Everything a feed's shell changes, under one lock, the way swift-async-algorithms'
/// `DebounceStorage` holds its state machine: the machine, the open connection, the armed timer,
/// what the fast path left for the shell's task, and whether the run is stopping. The shell's
/// task and the fast path (on a connection's reader thread) reach it only through `withState`.
/// What must happen outside the lock is decided under it and carried out after it, in order:
/// arming the timer and asking the session to stop here; publishing and sending by the caller.
final class FeedShellStorage<C: Clock>: Sendable where C.Duration == Duration {
  struct State: Sendable {
    var machine: FeedMachine<C.Instant>
    /// Where the machine's messages go out (nil between connections).
    var connection: (any MessageConnection)?
    /// The armed timer's token and deadline; its tick (`FeedPost.Tick`) is stale once it changed.
    var timer: (token: Int, deadline: C.Instant)?
    var timerSerial = 0
    /// Set once the run decided to stop: how it ends.
    var stopping: FeedOutcome?
    /// What the fast path could not carry out, for the shell's task before anything else.
    var pending: [FeedAction] = []
    /// When the run started (a recording counts from it).
    var start: C.Instant
    /// For `withState` to carry out after the lock.
    fileprivate var arming: (token: Int, deadline: C.Instant)?
    fileprivate var stopRequest: [WebSocketMessage]?

    /// Arms the timer for the machine's next deadline, unless one at least as early is armed.
    mutating func armTimer() {
      guard let deadline = machine.nextDeadline else { return }
      if let timer, timer.deadline <= deadline { return }
      timerSerial += 1
      timer = (timerSerial, deadline)
      arming = timer
    }

    /// After a batch: the connection goes with the machine's, and the timer follows its deadlines.
    mutating func settle() {
      if !machine.isConnected { connection = nil }
      armTimer()
    }

    /// Decides to stop: unsubscribe, close with 1000, end the session. The first call decides
    /// the outcome; later ones do nothing.
    mutating func beginStop(_ outcome: FeedOutcome) {
      guard stopping == nil else { return }
      stopping = outcome
      stopRequest = machine.unsubscribeAll()
    }
  }

  private let state: RankedMutex<State>
  /// Sleeps until the armed deadline, in the shell's task group (`runTimer`).
  private let timer: DeadlineTimer<C>
  /// Carries the one stop request to the shell's stopping task (`nextStopRequest`).
  private let stops = MessageChannel<[WebSocketMessage]>(capacity: 1)

  init(machine: FeedMachine<C.Instant>, clock: C) {
    state = RankedMutex(State(machine: machine, start: clock.now), rank: .feedShell)
    timer = DeadlineTimer(clock: clock)
  }

  /// The one way to the state. `body` must be short and must not take other locks.
  func withState<R: Sendable>(_ body: (inout State) -> R) -> R {
    let (result, arming, stopRequest) = state.withLock { state in
      let result = body(&state)
      defer { (state.arming, state.stopRequest) = (nil, nil) }
      return (result, state.arming, state.stopRequest)
    }
    if let arming { timer.arm(at: arming.deadline, token: arming.token) }
    if let stopRequest { stops.forcePush(stopRequest) }
    return result
  }

  /// The timer's task: calls `fire` with each armed token once its deadline has passed, until
  /// `finish()` or cancellation.
  func runTimer(fire: (Int) -> Void) async { await timer.run(fire: fire) }

  /// The stopping task's wait: the messages to send before closing, once the run decided to
  /// stop; nil if it ended (or was cancelled) first.
  func nextStopRequest() async -> [WebSocketMessage]? {
    try? await stops.nextBatch()?.first
  }

  /// The run is over: the timer's and the stopping task's waits end.
  func finish() {
    timer.finish()
    stops.finish()
  }
}
