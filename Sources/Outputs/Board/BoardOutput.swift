import Dispatch
import FeedRuntime
import JSON
import Synchronization
import TickerSupport
import Venues

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The live board (`--board`): a consumer of the feed's bus, like `StdoutOutput`, that keeps a
/// `BoardModel` and draws it on a `TerminalScreen` at most `framesPerSecond` times a second.
///
/// It never holds the feed back: its consumer only updates the model (no I/O, a short lock),
/// while frames are rendered and written on a queue of their own, so a slow terminal delays
/// frames, never quotes. Only the latest price per symbol is drawn: the prices in between are
/// in the model (the sparkline, the rate) but never on screen. `limit` (`--count`) counts
/// quotes, as the line output does.
///
/// While it is up, lines for stderr (a `Diagnostics` sink: `diagnostic(_:)`) would scroll the
/// board away when stderr is the same terminal: the latest is shown in the status line instead,
/// and all of them (up to `heldLines`) are written to stderr once the terminal is restored.
///
/// ```swift
/// let board = BoardOutput(screen: TerminalScreen(), provider: provider, venue: "Finnhub",
///                         symbols: symbols, useColor: useColor, limit: config.count)
/// let output = board.start(on: feed)     // takes the screen; the task restores it at the end
/// ```
public final class BoardOutput: Sendable {
  public static let framesPerSecond = 10
  /// The most stderr lines kept while the board is up.
  public static let heldLines = 200

  private let screen: TerminalScreen
  /// Says how many held lines were dropped (through the run's diagnostics, in their format).
  private let sayDropped: @Sendable (Int) -> Void
  private let provider: any Provider
  private let limit: Int?
  private let stderrIsTerminal: Bool
  private let state: Mutex<State>
  private let queue = DispatchQueue(label: "ticker.board")
  private let timer = RankedMutex(DispatchSources(), rank: .dispatchSources)

  private struct State: Sendable {
    var model: BoardModel<ContinuousClock.Instant>
    var renderer: BoardRenderer
    /// With several venues: the board grouped by asset, drawn instead of `model`'s rows (the
    /// model still counts quotes and holds the connection and the messages).
    var cross: CrossVenueBoard?
    var crossRenderer: CrossVenueRenderer?
    var dirty = true
    var shownSecond: Int64 = -1
    var drawing = false
    var held: [[UInt8]] = []
    var droppedLines = 0
  }

  /// - Parameters:
  ///   - symbols: the subscription, canonical for `provider` (rows are named as quotes name them).
  ///   - venue: for the status line ("Finnhub (demo)").
  ///   - limit: stop the feed after this many quotes (`--count`).
  ///   - venues: in a run of several venues, all of them, in the order `Quote.venue` counts
  ///     them: the board is then grouped by asset (`CrossVenueBoard`), starting with the rows
  ///     `venueSymbols` (each venue's symbols as quotes name them).
  public init(
    screen: TerminalScreen, provider: any Provider, venue: String, symbols: [String], useColor: Bool,
    limit: Int?, stderrIsTerminal: Bool = isTerminal(2), venues: [any Provider] = [],
    venueSymbols: [(venue: UInt8, symbol: String)] = [],
    sayDropped: @escaping @Sendable (Int) -> Void = { dropped in
      try? FileDescriptorWriter(fd: 2).write(
        "ticker: (\(dropped) earlier line(s) from while the board was up are not shown)\n")
    }
  ) {
    self.sayDropped = sayDropped
    self.screen = screen
    self.provider = provider
    self.limit = limit
    self.stderrIsTerminal = stderrIsTerminal
    let model = BoardModel(
      venue: venue, symbols: symbols.map(provider.serverSymbol(for:)), start: ContinuousClock.now)
    let topOfBook = provider.stream == .topOfBook
    var state = State(model: model, renderer: BoardRenderer(useColor: useColor, topOfBook: topOfBook))
    if venues.count > 1 {
      state.cross = CrossVenueBoard(symbols: venueSymbols) { venue, symbol in
        Int(venue) < venues.count ? venues[Int(venue)].market(of: symbol) : nil
      }
      state.crossRenderer = CrossVenueRenderer(
        venues: venues.map(\.displayName), useColor: useColor,
        topOfBook: venues.contains { $0.stream == .topOfBook })
    }
    self.state = Mutex(state)
  }

  /// Takes the terminal, draws the first frame and starts consuming `feed`'s quotes. The task
  /// ends after the last quote (or at `limit`), with the terminal restored: await it before the
  /// process exits.
  public func start(on feed: any QuoteFeed) -> Task<Void, Never> {
    let subscription = feed.bus.subscribe()
    screen.enter { [self] in redraw() }
    state.withLock { $0.drawing = true }
    let timer = DispatchSource.makeTimerSource(queue: queue)
    timer.schedule(deadline: .now(), repeating: .milliseconds(1000 / Self.framesPerSecond))
    timer.setEventHandler { [self] in frame(force: false) }
    timer.resume()
    self.timer.withLock { $0.keep([timer]) }
    let limit = self.limit
    return Task {
      defer { restore() }
      while let batches = try? await subscription.queue.nextBatch() {
        let now = ContinuousClock.now
        let reached = state.withLock { state -> Bool in
          for quotes in batches {
            for quote in quotes {
              if let limit, state.model.received >= limit { return true }
              state.model.receive(quote, at: now)
              state.cross?.receive(quote)
            }
          }
          state.dirty = true
          return limit.map { state.model.received >= $0 } ?? false
        }
        if reached {
          feed.stop(.countReached)
          feed.bus.unsubscribe(subscription)
          subscription.queue.cancel()
          return
        }
      }
    }
  }

  /// What the feed reports that the board shows: the connection state and changes of the
  /// subscription. Call it from the feed's `report` closure (alongside the `ReportWriter`).
  public func report(_ report: FeedReport) {
    let now = ContinuousClock.now
    state.withLock { state in
      switch report {
      case .connected:
        state.model.connection = .connected
      case .disconnected(_, let attempt, _):
        state.model.connection = .reconnecting(attempt: attempt)
      case .subscriptionChanged(_, _, let symbols), .currentSet(let symbols):
        state.model.setSymbols(symbols.map(provider.serverSymbol(for:)), at: now)
      case .stale(let symbol, _):
        state.model.stale.insert(symbol)
      case .recovered(let symbol, _):
        state.model.stale.remove(symbol)
      case .changeRefused(_, let refused):
        let gone = Set(refused.map(provider.serverSymbol(for:)))
        state.model.setSymbols(state.model.rows.map(\.symbol).filter { !gone.contains($0) }, at: now)
      default:
        return
      }
      state.dirty = true
    }
  }

  /// A `Diagnostics` sink: a complete stderr line (escaped, newline included). Held while the
  /// board is up and stderr is a terminal; written at once otherwise.
  public func diagnostic(_ line: [UInt8]) {
    let written = state.withLock { state -> Bool in
      guard state.drawing, stderrIsTerminal else { return false }
      if state.held.count >= Self.heldLines {
        state.held.removeFirst()
        state.droppedLines += 1
      }
      state.held.append(line)
      state.model.show(message: Self.statusText(line), at: ContinuousClock.now)
      state.dirty = true
      return true
    }
    if !written { try? FileDescriptorWriter(fd: 2).write(line) }
  }

  /// Restores the terminal and writes the held stderr lines. Idempotent; safe from any thread,
  /// also just before an immediate `exit` (the second Ctrl-C).
  public func restore() {
    timer.withLock { $0.cancelAll() }
    screen.restore()
    let (held, dropped) = state.withLock { state -> ([[UInt8]], Int) in
      defer {
        state.drawing = false
        state.held = []
        state.droppedLines = 0
      }
      return (state.held, state.droppedLines)
    }
    if dropped > 0 { sayDropped(dropped) }
    let stderr = FileDescriptorWriter(fd: 2)
    for line in held { try? stderr.write(line) }
  }

  /// What the status line shows of a stderr line: its words without `ticker: `; of a JSON line
  /// (`--log-format json`), its message, led by its level unless that is info.
  static func statusText(_ line: [UInt8]) -> String {
    var text = String(decoding: line, as: UTF8.self)
    if text.hasSuffix("\n") { text.removeLast() }
    if text.hasPrefix("{"), let object = try? JSONParser().parse(line),
      let message = object["message"]?.stringValue
    {
      let level = object["level"]?.stringValue ?? "info"
      var escaped: [UInt8] = []
      TerminalText.appendEscaped((level == "info" ? "" : level + ": ") + message, to: &escaped)
      return String(decoding: escaped, as: UTF8.self)
    }
    if text.hasPrefix("ticker: ") { text.removeFirst(8) }
    return text
  }

  /// Draws everything again at once (the terminal was resized or given back).
  private func redraw() {
    queue.async { [self] in frame(force: true) }
  }

  /// Renders and draws a frame if anything changed (or the clock's second did).
  private func frame(force: Bool) {
    let wallClock = Self.wallClockMilliseconds()
    let size = screen.size
    let frame = state.withLock { state -> BoardFrame? in
      guard state.drawing else { return nil }
      let second = wallClock / 1000
      guard force || state.dirty || second != state.shownSecond else { return nil }
      state.dirty = false
      state.shownSecond = second
      if let cross = state.cross, var renderer = state.crossRenderer {
        defer { state.crossRenderer = renderer }
        return renderer.render(
          cross, status: state.model, size: size, at: ContinuousClock.now, wallClock: wallClock)
      }
      return state.renderer.render(state.model, size: size, at: ContinuousClock.now, wallClock: wallClock)
    }
    if let frame { screen.draw(frame) }
  }

  static func wallClockMilliseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
  }
}
