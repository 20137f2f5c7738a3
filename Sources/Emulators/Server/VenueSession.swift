import Dispatch
import Recording
import Synchronization
import Transport
import Venues
import WebSocketServer
import WebSocketWire

/// One connection's venue emulation at work: the emulator behind a lock, fed by the reader
/// (client frames), the replay (scripted steps, the synthetic stream) and its own timer thread
/// (deadlines), with what it decides written under that same lock so that the wire order is the
/// order of its decisions. Also counts messages both ways to fire the plan's cues, and keeps the
/// server's record of subscriptions, violations, pings and closes.
final class VenueSession: Sendable {
  private let writer: ServerFrameWriter
  private let life: ConnectionLife
  private let server: FeedServer
  /// This connection's number (0-based, in the order of acceptance).
  private let index: Int
  /// Signalled on each client message (the replay may be waiting for a subscription) and each
  /// change of deadlines (the timer thread recomputes).
  private let progress = DispatchSemaphore(value: 0)
  private let timerWake = DispatchSemaphore(value: 0)
  private let state: Mutex<State>

  private struct State: Sendable {
    var emulator: any VenueEmulator
    var cues: [ConnectionPlan.Cue]
    var clientMessages = 0
    var feedMessages = 0
  }

  init(
    emulator: any VenueEmulator, cues: [ConnectionPlan.Cue], writer: ServerFrameWriter, life: ConnectionLife,
    server: FeedServer, index: Int
  ) {
    self.writer = writer
    self.life = life
    self.server = server
    self.index = index
    self.state = Mutex(State(emulator: emulator, cues: cues))
  }

  // MARK: Inputs

  /// The venue's word on the upgrade request; a refusal is recorded as a violation, streams
  /// named in the URL as a subscription.
  func admit(_ request: ServerHandshake.Request) -> Admission {
    let (admission, subscribed) = state.withLock { state in
      (state.emulator.admit(request), state.emulator.subscribed)
    }
    switch admission {
    case .accept:
      if !subscribed.isEmpty {
        let entry = FeedServer.SubscriptionState(
          connection: index, request: request.target, subscribed: subscribed)
        server.update { $0.subscriptions.append(entry) }
      }
    case .refuse(_, _, let violation):
      server.update { $0.violations.append(violation) }
    }
    return admission
  }

  /// A client frame: the venue's answer is sent, the subscription recorded when it was a
  /// request, and cues on the client's message count fire.
  func receive(_ input: ClientInput) {
    state.withLock { state in
      let before = state.emulator.requestCount
      perform(state.emulator.receive(input, at: life.now))
      if state.emulator.requestCount > before {
        let request: String =
          switch input {
          case .text(let text): text
          case .binary(let bytes): String(decoding: bytes, as: UTF8.self)
          case .ping, .pong: ""
          }
        let entry = FeedServer.SubscriptionState(
          connection: index, request: request, subscribed: state.emulator.subscribed)
        server.update { $0.subscriptions.append(entry) }
      }
      switch input {
      case .text, .binary:
        state.clientMessages += 1
        fireCues(&state, when: .clientMessages(state.clientMessages))
      case .ping, .pong: break
      }
    }
    progress.signal()
    timerWake.signal()
  }

  /// A scripted step as the venue sends it. False when the connection is ending.
  func play(_ step: SessionScript.Step) -> Bool {
    let closing = state.withLock { state in
      let actions = state.emulator.outgoing(step, at: life.now)
      perform(actions)
      countFeed(actions, &state)
      return state.emulator.isClosing
    }
    timerWake.signal()
    return !closing && !life.isStopping
  }

  /// A step of the synthetic stream, written as the venue writes trades. False when the
  /// connection is ending.
  func play(_ trades: [SyntheticTrade]) -> Bool {
    let closing = state.withLock { state in
      let actions = state.emulator.synthetic(trades)
      perform(actions)
      countFeed(actions, &state)
      return state.emulator.isClosing
    }
    return !closing && !life.isStopping
  }

  /// Does what an ending or the synthetic stream's keepalive says, like a decision of the venue.
  func perform(_ action: EmulatorAction) {
    state.withLock { _ in perform([action]) }
  }

  // MARK: Questions

  var subscribed: [String] { state.withLock { $0.emulator.subscribed } }
  /// Whether the venue has decided to end the connection (see `VenueEmulator.isClosing`).
  var isClosing: Bool { state.withLock { $0.emulator.isClosing } }
  var lastPrices: [String: (price: String, time: Int64)] { state.withLock { $0.emulator.lastPrices } }
  var syntheticKeepalive: (action: EmulatorAction, seconds: Double)? {
    state.withLock { $0.emulator.syntheticKeepalive }
  }
  /// Where the synthetic stream may start each of `symbols` (see `VenueEmulator.walkStart(for:)`).
  func walkStarts(for symbols: [String]) -> [(symbol: String, start: WalkStart)] {
    state.withLock { state in
      symbols.compactMap { symbol in state.emulator.walkStart(for: symbol).map { (symbol, $0) } }
    }
  }

  /// The subscribed symbols the venue would trade (the script's, and any other it would list),
  /// each with its market, named by the emulator or else by `provider` from the symbol as its
  /// clients spell it.
  func tradables(_ provider: (any Provider)?) -> [MarketTrades.Tradable] {
    state.withLock { state in
      let emulator = state.emulator
      let scripted = emulator.lastPrices
      return emulator.subscribed.compactMap { symbol in
        let start = scripted[symbol].flatMap { SyntheticTrades.parseCents($0.price) }
        guard start != nil || emulator.walkStart(for: symbol) != nil else { return nil }
        let market =
          emulator.market(of: symbol)
          ?? provider.flatMap { provider in
            (try? provider.canonicalSymbol(symbol).get()).flatMap(provider.market(of:))
          }
        return MarketTrades.Tradable(symbol: symbol, market: market, start: start)
      }
    }
  }

  /// Waits until the venue would start sending (see `VenueEmulator.isReady`); false when the
  /// connection is ending first.
  func waitUntilReady(awaiting: Int) -> Bool {
    while !state.withLock({ $0.emulator.isReady(awaiting: awaiting) }) {
      if life.isStopping || isClosing { return false }
      // Woken by each client message (or the poll interval, to notice the end); re-checked.
      _ = progress.wait(timeout: .now() + 0.05)
    }
    return true
  }

  // MARK: Time

  /// Keeps the emulator's deadlines (pings, pong and subscribe deadlines, delayed closes) until
  /// the connection ends, unless the server has gone silent. Runs on a thread of its own.
  func runTimers() {
    while !life.isStopping {
      let deadline = state.withLock { $0.emulator.nextDeadline }
      let now = life.now
      // A server gone silent (a half-open link, a frame stalled midway) keeps no duties.
      if let deadline, deadline <= now, !life.isUnresponsive {
        let acted = state.withLock { state in
          let actions = state.emulator.tick(at: life.now)
          perform(actions)
          return !actions.isEmpty
        }
        // A deadline that brought nothing must not spin the loop.
        if !acted { _ = timerWake.wait(timeout: .now() + 0.01) }
        continue
      }
      // Woken early by client messages and new deadlines; the poll bound notices the end.
      let due = life.isUnresponsive ? nil : deadline.map { max(0, ($0 - now).fractionalSeconds) }
      _ = timerWake.wait(timeout: .now() + min(due ?? 0.1, 0.1))
    }
  }

  // MARK: Doing

  /// Sends, closes, drops and records what the emulator decided. Called with the lock held.
  private func perform(_ actions: [EmulatorAction]) {
    for action in actions {
      if life.isFinished { return }
      do throws(TransportError) {
        switch action {
        case .text(let text):
          if try writer.send(Frame(opcode: .text, payload: Array(text.utf8))) {
            server.update { $0.compressedMessages += 1 }
          }
        case .binary(let text):
          if try writer.send(Frame(opcode: .binary, payload: Array(text.utf8))) {
            server.update { $0.compressedMessages += 1 }
          }
        case .ping(let payload):
          try writer.send(Frame(opcode: .ping, payload: payload))
          server.update { $0.serverPings += 1 }
        case .close(let status):
          try writer.sendClose(status) { server.update { $0.serverCloses.append(status) } }
          life.stop()
        case .drop:
          writer.drop()
          life.finish()
        case .violation(let violation):
          server.update { $0.violations.append(violation) }
        }
      } catch {
        writer.drop()
        life.finish()
      }
    }
  }

  private func countFeed(_ actions: [EmulatorAction], _ state: inout State) {
    for action in actions {
      switch action {
      case .text, .binary:
        state.feedMessages += 1
        fireCues(&state, when: .feedMessages(state.feedMessages))
      default: break
      }
    }
  }

  private func fireCues(_ state: inout State, when trigger: ConnectionPlan.Cue.Trigger) {
    while let index = state.cues.firstIndex(where: { $0.trigger == trigger }) {
      let cue = state.cues.remove(at: index)
      perform(
        cue.actions.map { action in
          switch action {
          case .text(let text): .text(text)
          case .binary(let text): .binary(text)
          case .close(let status): .close(status)
          case .drop: .drop
          }
        })
    }
  }
}
