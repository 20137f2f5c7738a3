import FeedRuntime
import JSON
import Synchronization
import Venues
import WebSocketClient

/// `--replay FILE`: a recording (`Recorder`) run through the same `FeedMachine` — decode, filter,
/// alerts, debounce, dedupe — and out on a `QuoteBus`, as a live `Feed` does, so the same outputs
/// print it. The machine is given exactly what the live one was given, at exactly the instants it
/// was (`RecordedInstant`), and is ticked at each of its deadlines between them, as the live
/// timer would: so a replay prints the lines the live run printed with the same settings, at any
/// speed. The file is read a line at a time.
///
/// ```swift
/// let replay = try Replay.open(settings) { report in … }   // reads the header
/// let stdout = StdoutOutput.start(on: replay, writer: quoteWriter)
/// let outcome = await replay.run()
/// await stdout.value
/// if let error = replay.error { … }                         // a bad line ended it early
/// ```
public final class Replay: QuoteFeed {
  public struct Settings: Sendable {
    public var path: String
    public var speed: ReplaySpeed
    public var mode: PriceStageMode
    /// `--alert` and `--until` (symbols canonical for the recording's provider).
    public var alerts: [AlertBook.Rule]
    /// The longest line read (a frame of the largest message size, escaped, and its fields).
    public var maximumLineLength: Int
    /// How long, in recorded time, a run stopped by the machine (`--until`) goes on: as a live
    /// run goes on until its connection is closed (`Feed.Settings.closeTimeout`, and a margin).
    public var stopGrace: Duration

    public init(
      path: String, speed: ReplaySpeed = .default, mode: PriceStageMode = .default,
      alerts: [AlertBook.Rule] = [], maximumMessageSize: Int = 16 << 20, stopGrace: Duration = .seconds(2)
    ) {
      self.path = path
      self.speed = speed
      self.mode = mode
      self.alerts = alerts
      self.maximumLineLength = Self.lineLength(forMessageSize: maximumMessageSize)
      self.stopGrace = stopGrace
    }

    /// Every byte of a message escaped as `\u00XX` (6 bytes), plus the line's other fields.
    public static func lineLength(forMessageSize size: Int) -> Int {
      size.multipliedReportingOverflow(by: 6).overflow ? Int.max : size * 6 + 4096
    }
  }

  public let bus = QuoteBus()
  /// The first run section's header: the provider and symbols.
  public let header: RecordingHeader
  public let provider: any Provider
  private let settings: Settings
  private let report: @Sendable (FeedReport) -> Void
  private let inbox = Mutex<[Request]>([])
  private let source: Mutex<Source?>
  private let failure = Mutex<RecordingError?>(nil)

  private enum Request: Sendable {
    case command(SubscriptionCommand)
    case control(String)
    case stop(StopReason)
  }

  private struct Source: ~Copyable, Sendable {
    var file: RecordingFile
    var reader: RecordingReader
  }

  /// The header of the recording at `path` (its first line), read without replaying anything.
  public static func header(
    of path: String, maximumLineLength: Int = Settings.lineLength(forMessageSize: 16 << 20)
  )
    throws(RecordingError) -> RecordingHeader
  {
    var file = try RecordingFile(path: path, maximumLineLength: maximumLineLength)
    var reader = RecordingReader()
    guard let first = try firstLine(&file) else { throw .empty }
    guard case .header(let header)? = try reader.read(first) else {
      throw .notARecording("line 1 is not a recording header")
    }
    return header
  }

  /// Line 1; a file without one whole line is no recording.
  private static func firstLine(_ file: inout RecordingFile) throws(RecordingError) -> ArraySlice<UInt8>? {
    do {
      return try file.nextLine()
    } catch {
      switch error {
      case .truncated, .lineTooLong: throw .notARecording("line 1 is not a whole recording header")
      default: throw error
      }
    }
  }

  /// Opens the recording and reads its header: an unreadable, empty or foreign file, or an
  /// unknown provider, is refused here, before anything is printed.
  public static func open(
    _ settings: Settings, report: @escaping @Sendable (FeedReport) -> Void = { _ in }
  ) throws(RecordingError) -> Replay {
    var file = try RecordingFile(path: settings.path, maximumLineLength: settings.maximumLineLength)
    var reader = RecordingReader()
    guard let first = try firstLine(&file) else { throw .empty }
    guard case .header(let header)? = try reader.read(first) else {
      throw .notARecording("line 1 is not a recording header")
    }
    guard let provider = ProviderCatalog.provider(named: header.provider) else {
      throw .notARecording("unknown provider \(JSONEscaping.quoted(header.provider))")
    }
    return Replay(
      settings: settings, header: header, provider: provider, source: Source(file: file, reader: reader),
      report: report)
  }

  private init(
    settings: Settings, header: RecordingHeader, provider: any Provider, source: consuming Source,
    report: @escaping @Sendable (FeedReport) -> Void
  ) {
    self.settings = settings
    self.header = header
    self.provider = provider
    self.source = Mutex(source)
    self.report = report
  }

  /// What `run()` returns when the recording was played to its end.
  public static let finishedOutcome = FeedOutcome.serverClosed(
    CloseStatus(code: .normalClosure, reason: "end of the recording"))

  /// What ended the replay before the end of the file (a bad line), once `run()` returned.
  public var error: RecordingError? { failure.withLock { $0 } }

  public func subscribe(_ symbols: [String]) { post(.command(.add(symbols))) }
  public func unsubscribe(_ symbols: [String]) { post(.command(.remove(symbols))) }
  public func replace(with symbols: [String]) { post(.command(.replace(symbols))) }
  /// A line of the control protocol (`ControlLine`).
  public func control(_ line: String) { post(.control(line)) }
  public func stop(_ reason: StopReason) { post(.stop(reason)) }

  private func post(_ request: Request) { inbox.withLock { $0.append(request) } }

  /// Replays the whole recording (every run section in turn) unless stopped; the outputs'
  /// queues end after the last quote. `.serverClosed` with 1000 when the recording was played
  /// to its end (or to a bad line: see `error`). Call once.
  public func run() async -> FeedOutcome {
    guard var source = source.withLock({ $0.take() }) else { return .stopped(.signal(2)) }
    var player = Player(replay: self, header: header)
    let outcome = await player.play(&source)
    bus.finish()
    return outcome
  }

  private func takeRequests() -> [Request] {
    inbox.withLock { requests in
      defer { requests.removeAll() }
      return requests
    }
  }

  /// One replay's state, run by `run()`'s task alone.
  private struct Player {
    let replay: Replay
    var machine: FeedMachine<RecordedInstant>
    /// The instant the machine last saw.
    var now = RecordedInstant(offset: .zero)
    /// Events of one recorded batch, not yet given to the machine.
    var group: [SessionEvent] = []
    var groupKey: (batch: Int, at: Int64, received: Int64)?
    var groupBytes = 0
    static let groupLimit = 1 << 16
    static let groupByteLimit = 64 << 20
    /// The machine ended the run (`--until`, a refusal) at this instant.
    var machineStop: (outcome: FeedOutcome, at: RecordedInstant)?
    /// Where the current section's recorded time starts, on the replay's clock.
    var sectionStart = ContinuousClock.now
    var sawEnd: RecordedEnd?
    /// Whether the current section said its connection opened. A script's frames (a section
    /// without the recorder's `--` lines) are played as one connection's, opened at the first.
    var sawConnected = false

    init(replay: Replay, header: RecordingHeader) {
      self.replay = replay
      machine = Self.machine(replay, header)
    }

    static func machine(_ replay: Replay, _ header: RecordingHeader) -> FeedMachine<RecordedInstant> {
      FeedMachine(
        provider: replay.provider, symbols: header.symbols, mode: replay.settings.mode,
        ticketPrefix: "replay", alerts: replay.settings.alerts)
    }

    mutating func play(_ source: inout Source) async -> FeedOutcome {
      while true {
        if let outcome = await handleRequests() { return outcome }
        let line: RecordingLine?
        do throws(RecordingError) {
          guard let bytes = try source.file.nextLine() else {
            await endSection()
            return machineStop?.outcome ?? Self.finished
          }
          line = try source.reader.read(bytes)
        } catch {
          // Everything before the bad line is played (and what is pending printed), then the error.
          await endSection()
          replay.failure.withLock { $0 = error }
          return Self.finished
        }
        guard let line else { continue }
        switch line {
        case .header(let header):
          await endSection()
          machine = Self.machine(replay, header)
          now = RecordedInstant(offset: .zero)
          machineStop = nil
          sawEnd = nil
          sawConnected = false
          sectionStart = ContinuousClock.now
        case .step(let step):
          if sawEnd != nil { continue }  // after a section's end, only a new header counts
          if let stop = machineStop,
            RecordedInstant(nanoseconds: step.at) > stop.at.advanced(by: replay.settings.stopGrace)
          {
            await endSection(at: stop.at.advanced(by: replay.settings.stopGrace))
            return stop.outcome
          }
          if let outcome = await handle(step) { return outcome }
          if sawEnd != nil, let stop = machineStop {
            // The run the machine ended is over; later sections are other runs.
            await endSection()
            return stop.outcome
          }
        }
      }
    }

    static var finished: FeedOutcome { Replay.finishedOutcome }

    /// Requests from the outputs or the API: commands now, a stop at once.
    mutating func handleRequests() async -> FeedOutcome? {
      let requests = replay.takeRequests()
      guard !requests.isEmpty else { return nil }
      await flushGroup()
      for request in requests {
        switch request {
        case .command(let command): await execute(machine.handle(command, at: now))
        case .control(let line): await execute(machine.handle(controlLine: line, at: now))
        case .stop(let reason):
          let outcome = FeedOutcome.stopped(reason)
          if RecordedEnd(outcome).printedPending { await replay.bus.publish(machine.flush(at: now)) }
          return outcome
        }
      }
      return nil
    }

    mutating func handle(_ step: RecordedStep) async -> FeedOutcome? {
      switch step.what {
      case .connected: sawConnected = true
      case .message where !sawConnected:
        sawConnected = true
        for what in [RecordedStep.What.opened, .connected(attempt: 0)] {
          if let outcome = await handle(
            RecordedStep(at: step.at, received: step.received, batch: step.batch, what: what))
          {
            return outcome
          }
        }
      default: break
      }
      let at = RecordedInstant(nanoseconds: step.at)
      let event: SessionEvent?
      switch step.what {
      case .message(let message): event = .message(message)
      case .connected(let attempt): event = .connected(attempt: attempt)
      case .disconnected(let attempt, let retryIn, let reason):
        event = .disconnected(reason: .requested(reason), attempt: attempt, retryIn: retryIn)
      default: event = nil
      }
      if let event {
        let key = (step.batch, step.at, step.received)
        if let groupKey, groupKey != key { await flushGroup() }
        groupKey = key
        group.append(event)
        if case .message(let message) = event { groupBytes += message.byteCount }
        // A live batch is bounded by the session's channel; a file's is not: a hostile one is
        // given to the machine in parts rather than held whole.
        if group.count >= Self.groupLimit || groupBytes >= Self.groupByteLimit { await flushGroup() }
        return nil
      }
      await flushGroup()
      guard await advance(to: at) else { return nil }
      machine.received = step.received
      switch step.what {
      case .opened: _ = machine.opened(at: at)
      case .command(let command): await execute(machine.handle(command, at: at))
      case .control(let line): await execute(machine.handle(controlLine: line, at: at))
      case .end(let end): sawEnd = end
      default: break
      }
      return nil
    }

    /// Gives the machine one recorded batch, as `FeedShell.handle` does.
    mutating func flushGroup() async {
      guard let key = groupKey else { return }
      let events = group
      group.removeAll(keepingCapacity: true)
      groupKey = nil
      groupBytes = 0
      let at = RecordedInstant(nanoseconds: key.at)
      guard await advance(to: at) else { return }
      machine.received = key.received
      var start = 0
      while start < events.count {
        let (actions, stoppedAt) = machine.handle(events, from: start, at: at)
        await execute(actions)
        guard let index = stoppedAt else { break }
        if case .message(let message) = events[index] {
          var (chunks, actions) = machine.large(message, at: at)
          await execute(actions)
          if var remaining = chunks {
            var quotes: [Quote] = []
            while remaining.next(into: &quotes) {
              await execute(machine.handleChunk(quotes, at: at))
              quotes.removeAll(keepingCapacity: true)
            }
            chunks = nil
          }
        }
        start = index + 1
      }
    }

    /// Ticks the machine at each of its deadlines up to `instant` (as the live timer did), then
    /// makes `instant` the machine's time, waiting as the speed asks. False when the recording
    /// goes back in time (a later instant was already seen): the step is skipped.
    mutating func advance(to instant: RecordedInstant) async -> Bool {
      guard instant >= now else { return false }
      while let deadline = machine.nextDeadline, deadline <= instant {
        let at = max(deadline, now)
        await wait(until: at)
        now = at
        await execute(machine.tick(at: at))
        if let next = machine.nextDeadline, next <= at { break }  // never spin
      }
      await wait(until: instant)
      now = instant
      return true
    }

    func wait(until instant: RecordedInstant) async {
      guard case .factor(let factor) = replay.settings.speed else { return }
      // A hostile file's instant may be centuries away: clamp rather than overflow.
      let nanoseconds = min(Double(instant.offset.wholeNanoseconds) / factor, 1e17)
      let target = sectionStart.advanced(by: .nanoseconds(Int64(nanoseconds)))
      // In slices, so that a stop is seen promptly.
      while ContinuousClock.now < target {
        let slice = min(target, ContinuousClock.now.advanced(by: .milliseconds(100)))
        try? await Task.sleep(until: slice, clock: .continuous)
        if replay.inbox.withLock({ !$0.isEmpty }) { return }
      }
    }

    mutating func execute(_ actions: [FeedAction]) async {
      for action in actions {
        switch action {
        case .publish(let quotes): await replay.bus.publish(quotes)
        case .report(let feedReport): replay.report(feedReport)
        case .send, .reconnect: break  // nobody to send to
        case .stop(let outcome, _):
          if machineStop == nil { machineStop = (outcome, now) }
        }
      }
    }

    /// The section ends: at its recorded end (or `instant`, or the last step), what was due is
    /// released, then what is pending, unless the live run did not print it.
    mutating func endSection(at instant: RecordedInstant? = nil) async {
      await flushGroup()
      if let instant { _ = await advance(to: instant) }
      let printsPending = sawEnd?.printedPending ?? true
      if printsPending { await replay.bus.publish(machine.flush(at: now)) }
      machine = Self.machine(replay, replay.header)
    }
  }
}

extension Replay: QuoteSource {}
