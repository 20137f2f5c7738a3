import FeedRuntime
import JSON
import Synchronization
import Venues
import WebSocketClient
import WebSocketWire

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
    /// Of a recording of several venues: each venue's `--alert` and `--until` rules, by the
    /// header's order (`alerts` is then not used).
    public var alertsByVenue: [[AlertBook.Rule]]
    /// The longest line read (a frame of the largest message size, escaped, and its fields).
    public var maximumLineLength: Int
    /// How long, in recorded time, a run stopped by the machine (`--until`) goes on: as a live
    /// run goes on until its connection is closed (`Feed.Settings.closeTimeout`, and a margin).
    public var stopGrace: Duration

    public init(
      path: String, speed: ReplaySpeed = .default, mode: PriceStageMode = .default,
      alerts: [AlertBook.Rule] = [], alertsByVenue: [[AlertBook.Rule]] = [],
      maximumMessageSize: Int = 16 << 20,
      stopGrace: Duration = .seconds(2)
    ) {
      self.alertsByVenue = alertsByVenue
      self.path = path
      self.speed = speed
      self.mode = mode
      self.alerts = alerts
      self.maximumLineLength = Self.lineLength(forMessageSize: maximumMessageSize)
      self.stopGrace = stopGrace
    }

    /// The rules of the recording's venue `index`.
    public func alerts(of index: Int) -> [AlertBook.Rule] {
      if alertsByVenue.indices.contains(index) { return alertsByVenue[index] }
      return index == 0 ? alerts : []
    }

    /// Every byte of a message escaped as `\u00XX` (6 bytes), plus the line's other fields.
    public static func lineLength(forMessageSize size: Int) -> Int {
      size.multipliedReportingOverflow(by: 6).overflow ? Int.max : size * 6 + 4096
    }
  }

  public let bus = QuoteBus()
  /// The first run section's header: the venues and their symbols.
  public let header: RecordingHeader
  /// The recording's venues, in the header's order.
  public let providers: [any Provider]
  /// The first venue (the only one of a recording of one).
  public var provider: any Provider { providers[0] }
  private let settings: Settings
  /// Told what each venue's machine reports (its index into `providers`).
  private let report: @Sendable (_ venue: Int, FeedReport) -> Void
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
    try open(settings, venueReport: { _, feedReport in report(feedReport) })
  }

  /// `open`, each report with the index of the venue that made it (in a recording of several).
  public static func open(
    _ settings: Settings, venueReport report: @escaping @Sendable (_ venue: Int, FeedReport) -> Void
  ) throws(RecordingError) -> Replay {
    var file = try RecordingFile(path: settings.path, maximumLineLength: settings.maximumLineLength)
    var reader = RecordingReader()
    guard let first = try firstLine(&file) else { throw .empty }
    guard case .header(let header)? = try reader.read(first) else {
      throw .notARecording("line 1 is not a recording header")
    }
    var providers: [any Provider] = []
    for venue in header.venues {
      guard let provider = venue.decoder else {
        throw .notARecording("unknown provider \(JSONEscaping.quoted(venue.name))")
      }
      providers.append(provider)
    }
    return Replay(
      settings: settings, header: header, providers: providers, source: Source(file: file, reader: reader),
      report: report)
  }

  private init(
    settings: Settings, header: RecordingHeader, providers: [any Provider], source: consuming Source,
    report: @escaping @Sendable (_ venue: Int, FeedReport) -> Void
  ) {
    self.settings = settings
    self.header = header
    self.providers = providers
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
    /// The current section's header.
    var header: RecordingHeader
    /// Each venue of the section: its machine and where it is.
    var venues: [VenueState]
    /// Events of one recorded batch (of one venue), not yet given to its machine.
    var group: [SessionEvent] = []
    var groupKey: (venue: Int, batch: Int, at: Int64, received: Int64)?
    var groupBytes = 0
    static let groupLimit = 1 << 16
    static let groupByteLimit = 64 << 20
    /// A machine ended the run (`--until`, a refusal) at this instant (of its venue's time).
    var machineStop: (outcome: FeedOutcome, at: RecordedInstant)?
    /// Where the current section's recorded time starts, on the replay's clock.
    var sectionStart = ContinuousClock.now

    /// One venue's machine in a section.
    struct VenueState {
      var machine: FeedMachine<RecordedInstant>
      /// The instant the machine last saw (its venue's recorded time).
      var now = RecordedInstant(offset: .zero)
      var sawEnd: RecordedEnd?
      /// Whether the section said this venue's connection opened. A script's frames (a section
      /// without the recorder's `--` lines) are played as one connection's, opened at the first.
      var sawConnected = false
    }

    init(replay: Replay, header: RecordingHeader) {
      self.replay = replay
      self.header = header
      venues = Self.venues(replay, header)
    }

    static func venues(_ replay: Replay, _ header: RecordingHeader) -> [VenueState] {
      header.venues.indices.map { index in
        VenueState(
          machine: FeedMachine(
            provider: replay.providers[index], symbols: header.venues[index].symbols,
            mode: replay.settings.mode, ticketPrefix: "replay", alerts: replay.settings.alerts(of: index)))
      }
    }

    /// Whether every venue's end line was played.
    var allEnded: Bool { venues.allSatisfy { $0.sawEnd != nil } }

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
        case .header(let next):
          await endSection()
          header = next
          venues = Self.venues(replay, next)
          machineStop = nil
          sectionStart = ContinuousClock.now
        case .step(let step):
          // After a venue's end, only a new header counts for it.
          if venues[step.venue].sawEnd != nil { continue }
          if let stop = machineStop,
            RecordedInstant(nanoseconds: step.at) > stop.at.advanced(by: replay.settings.stopGrace)
          {
            await endSection(at: stop.at.advanced(by: replay.settings.stopGrace))
            return stop.outcome
          }
          if let outcome = await handle(step) { return outcome }
          if allEnded, let stop = machineStop {
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
        case .command(let command): await route(command)
        case .control(let line) where venues.count == 1:
          await execute(venues[0].machine.handle(controlLine: line, at: venues[0].now), venue: 0)
        case .control(let line):
          switch ControlLine.parse(line) {
          case .success(.command(let command)): await route(command)
          case .success(.query):
            for index in venues.indices {
              await execute(
                venues[index].machine.handle(controlLine: "?", at: venues[index].now), venue: index)
            }
          case .success(.nothing): break
          case .failure(let error): replay.report(0, .controlError(error))
          }
        case .stop(let reason):
          let outcome = FeedOutcome.stopped(reason)
          if RecordedEnd(outcome).printedPending {
            for index in venues.indices {
              await publish(venues[index].machine.flush(at: venues[index].now), venue: index)
            }
          }
          return outcome
        }
      }
      return nil
    }

    /// A subscription change, each symbol to its venue (`binance/BTCUSDT`; an unqualified one is
    /// the first venue's), as `FeedGroup` routes them.
    mutating func route(_ command: SubscriptionCommand) async {
      guard venues.count > 1 else {
        await execute(venues[0].machine.handle(command, at: venues[0].now), venue: 0)
        return
      }
      let symbols: [String]
      switch command {
      case .add(let list), .remove(let list), .replace(let list): symbols = list
      }
      var shares = [[String]](repeating: [], count: venues.count)
      for symbol in symbols {
        let (venue, bare) = ProviderCatalog.qualified(symbol)
        let name = venue?.name ?? header.provider
        guard let index = header.venues.firstIndex(where: { $0.provider == name }) else { continue }
        shares[index].append(bare)
      }
      for (index, share) in shares.enumerated() {
        let part: SubscriptionCommand
        switch command {
        case .add: part = .add(share)
        case .remove: part = .remove(share)
        case .replace: part = .replace(share)
        }
        // A replacement replaces every venue's set; an addition or removal touches the named.
        if share.isEmpty, case .add = part { continue }
        if share.isEmpty, case .remove = part { continue }
        await execute(venues[index].machine.handle(part, at: venues[index].now), venue: index)
      }
    }

    mutating func handle(_ step: RecordedStep) async -> FeedOutcome? {
      let venue = step.venue
      switch step.what {
      case .connected: venues[venue].sawConnected = true
      case .message where !venues[venue].sawConnected:
        venues[venue].sawConnected = true
        for what in [RecordedStep.What.opened, .connected(attempt: 0)] {
          if let outcome = await handle(
            RecordedStep(at: step.at, received: step.received, batch: step.batch, what: what, venue: venue))
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
        let key = (venue, step.batch, step.at, step.received)
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
      guard await advance(venue, to: at) else { return nil }
      venues[venue].machine.received = step.received
      switch step.what {
      case .opened: _ = venues[venue].machine.opened(at: at)
      case .command(let command): await execute(venues[venue].machine.handle(command, at: at), venue: venue)
      case .control(let line):
        await execute(venues[venue].machine.handle(controlLine: line, at: at), venue: venue)
      case .end(let end):
        venues[venue].sawEnd = end
        // Of several venues, each printed what it held when its own feed ended, the others going on.
        if header.isSeveral, end.printedPending {
          await publish(venues[venue].machine.flush(at: venues[venue].now), venue: venue)
        }
      default: break
      }
      return nil
    }

    /// Gives a machine one recorded batch, as `FeedShell.handle` does.
    mutating func flushGroup() async {
      guard let key = groupKey else { return }
      let events = group
      group.removeAll(keepingCapacity: true)
      groupKey = nil
      groupBytes = 0
      let venue = key.venue
      let at = RecordedInstant(nanoseconds: key.at)
      guard await advance(venue, to: at) else { return }
      venues[venue].machine.received = key.received
      var start = 0
      while start < events.count {
        let (actions, stoppedAt) = venues[venue].machine.handle(events, from: start, at: at)
        await execute(actions, venue: venue)
        guard let index = stoppedAt else { break }
        if case .message(let message) = events[index] {
          var (chunks, actions) = venues[venue].machine.large(message, at: at)
          await execute(actions, venue: venue)
          if var remaining = chunks {
            var quotes: [Quote] = []
            while remaining.next(into: &quotes) {
              await execute(venues[venue].machine.handleChunk(quotes, at: at), venue: venue)
              quotes.removeAll(keepingCapacity: true)
            }
            chunks = nil
          }
        }
        start = index + 1
      }
    }

    /// Ticks a venue's machine at each of its deadlines up to `instant` (as the live timer did),
    /// then makes `instant` the machine's time, waiting as the speed asks. False when the
    /// recording goes back in time (a later instant was already seen): the step is skipped.
    mutating func advance(_ venue: Int, to instant: RecordedInstant) async -> Bool {
      guard instant >= venues[venue].now else { return false }
      while let deadline = venues[venue].machine.nextDeadline, deadline <= instant {
        let at = max(deadline, venues[venue].now)
        await wait(until: at)
        venues[venue].now = at
        await execute(venues[venue].machine.tick(at: at), venue: venue)
        if let next = venues[venue].machine.nextDeadline, next <= at { break }  // never spin
      }
      await wait(until: instant)
      venues[venue].now = instant
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

    /// Quotes of `venue`, stamped with it (as a live venue's feed stamps them).
    func publish(_ quotes: [Quote], venue: Int) async {
      guard !quotes.isEmpty else { return }
      var stamped = quotes
      if venue != 0 { for i in stamped.indices { stamped[i].venue = UInt8(venue) } }
      await replay.bus.publish(stamped)
    }

    mutating func execute(_ actions: [FeedAction], venue: Int) async {
      for action in actions {
        switch action {
        case .publish(let quotes): await publish(quotes, venue: venue)
        case .report(let feedReport): replay.report(venue, feedReport)
        case .send, .reconnect: break  // nobody to send to
        case .stop(let outcome, _):
          if machineStop == nil { machineStop = (outcome, venues[venue].now) }
        }
      }
    }

    /// The section ends: at its recorded end (or `instant`, or the last step), what was due is
    /// released, then what is pending, unless the live run did not print it.
    mutating func endSection(at instant: RecordedInstant? = nil) async {
      await flushGroup()
      for venue in venues.indices {
        if let instant { _ = await advance(venue, to: instant) }
        // A venue of several whose end line was played printed what it held then.
        if header.isSeveral, venues[venue].sawEnd != nil { continue }
        let printsPending = venues[venue].sawEnd?.printedPending ?? true
        if printsPending { await publish(venues[venue].machine.flush(at: venues[venue].now), venue: venue) }
      }
      header = replay.header
      venues = Self.venues(replay, replay.header)
    }
  }
}

extension Replay: QuoteSource {
  /// The recording's venues: a qualified symbol (`coinbase/BTC-USD`) names one of them.
  public var venues: [any Provider] { providers }
}
