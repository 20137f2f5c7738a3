import CLI
import FeedRuntime
import Outputs
import TickerSupport
import Venues

/// Where a printing run's prices go, decided once for live runs and replays alike: the board
/// (stdout a terminal that can place the cursor, `--board`) or lines in the configured format;
/// the diagnostics that carry every secret, wherever their lines go; and the run itself —
/// signals, the output, `--publish` — around a feed or a replay.
struct OutputPlan: Sendable {
  let context: RunContext
  let provider: any Provider
  let symbols: [String]
  /// In a run of several venues, all of them, in the order `Quote.venue` counts them; else empty.
  let venues: [any Provider]
  /// The board when it draws; nil for lines.
  let board: BoardOutput?
  /// `context.diagnostics`, or the same secrets held by the board while it draws.
  let diagnostics: Diagnostics
  /// `--on-alert`'s command, when there is an alert to run it for.
  let alertCommand: AlertCommand?
  /// What `--metrics`, `/healthz` and the watchdog read: the run's feeds and sections.
  let monitor: RunMonitor
  /// How long the run waits, as it ends, for `--on-alert` commands still running.
  static let alertCommandGrace = Duration.seconds(5)

  /// - Parameters:
  ///   - venue: the board's status line ("Finnhub (demo)").
  ///   - symbols: canonical for `provider`; with several `venues`, every venue's as quotes name them.
  ///   - venueSymbols: with several `venues`, each symbol with its venue's index (the board's rows).
  init(
    _ context: RunContext, provider: any Provider, venue: String, symbols: [String],
    venues: [any Provider] = [], venueSymbols: [(venue: UInt8, symbol: String)] = []
  ) {
    self.context = context
    self.provider = provider
    self.symbols = symbols
    self.venues = venues
    // A replay has no connection to judge: its metrics are the process's and the outputs'.
    monitor = RunMonitor(
      venues: context.source == .venue ? (venues.isEmpty ? [provider] : venues).map(\.name) : [])
    let config = context.config
    if let warning = UnusedSettings.onAlertWarning(config) { context.diagnostics.warning(warning) }
    // The board draws only on a terminal that can place the cursor; elsewhere lines (never an
    // escape byte into a pipe or a file). It holds stderr's lines while it is up.
    guard config.board, isTerminal(1), context.environment["TERM"] != "dumb" else {
      // On the board --spread is already named as a setting for lines only.
      if let warning = UnusedSettings.spreadWarning(config, venues: max(1, venues.count)) {
        context.diagnostics.warning(warning)
      }
      board = nil
      diagnostics = context.diagnostics
      alertCommand = Self.alertCommand(context, diagnostics: diagnostics, board: false)
      return
    }
    if let warning = UnusedSettings.boardWarning(config, source: context.source) {
      context.diagnostics.warning(warning)
    }
    let board = BoardOutput(
      screen: TerminalScreen(fd: 1), provider: provider, venue: venue, symbols: symbols,
      useColor: Self.useColor(context), limit: config.count, venues: venues, venueSymbols: venueSymbols,
      sayDropped: { [diagnostics = context.diagnostics] dropped in
        diagnostics.note("(\(dropped) earlier line(s) from while the board was up are not shown)")
      })
    self.board = board
    diagnostics = context.diagnostics.writing(to: board.diagnostic)
    alertCommand = Self.alertCommand(context, diagnostics: diagnostics, board: true)
  }

  private static func alertCommand(_ context: RunContext, diagnostics: Diagnostics, board: Bool)
    -> AlertCommand?
  {
    let config = context.config
    guard let command = config.onAlert, !(config.alerts.isEmpty && config.until.isEmpty) else { return nil }
    return AlertCommand(
      command: command, environment: context.environment, diagnostics: diagnostics, throughDiagnostics: board)
  }

  /// What the stage lets through: the board takes every trade (it redraws at most 10 times a
  /// second itself, and counts trades per second).
  /// The board shows every trade; a `--source` run prints what the publisher printed, already
  /// debounced and deduplicated there.
  var stageMode: PriceStageMode {
    board == nil && context.config.source == nil ? context.config.stageMode : .everyTrade
  }

  /// The warnings and the summary of what the feed reports; in a run of several venues, of one
  /// of them (`venue`), each line saying which.
  func reportWriter(venue: (any Provider)? = nil) -> ReportWriter<ContinuousClock.Instant> {
    ReportWriter(
      diagnostics: venue.map { diagnostics.about($0.displayName) } ?? diagnostics,
      provider: venue ?? provider,
      now: { ContinuousClock.now }, bell: isTerminal(2), alertCommand: alertCommand)
  }

  /// Runs `feed` into the output until it ends: a Ctrl-C stops it (and restores the terminal
  /// first if a second one comes), `beforeRun` starts what else reads the feed (`--control`),
  /// `--publish` sends what is printed.
  func run(_ feed: any QuoteFeed, beforeRun: () -> Void = {}) async -> FeedOutcome {
    // Signals are caught before the board takes the terminal: a Ctrl-C then always restores it.
    let signals = SignalWatcher(beforeImmediateExit: { [board] in board?.restore() }) {
      feed.stop(.signal($0))
    }
    defer { signals.cancel() }
    let output = board?.start(on: feed) ?? StdoutOutput.start(on: feed, writer: lineWriter())
    beforeRun()
    let publishing = context.config.publish.map { url in
      Publishing.start(
        to: url, config: context.config, key: context.natsKey, feed: feed,
        providers: venues.isEmpty ? [provider] : venues, monitor: monitor, diagnostics: diagnostics)
    }
    let outcome = await feed.run()
    await output.value
    await publishing?.value
    await alertCommand?.finish(within: Self.alertCommandGrace)
    return outcome
  }

  /// Lines in the configured format: on a terminal, aligned columns with arrows and the change
  /// since the start (`TerminalLineFormatter`); in a pipe or a file, plain lines.
  private func lineWriter() -> QuoteWriter {
    let config = context.config
    if config.spread, config.format == .json, venues.count > 1 {
      // The board's spreads and premiums as records after the prices that changed them.
      let formatter = SpreadRecordFormatter(venues: venues.map(\.name)) { [venues] venue, symbol in
        Int(venue) < venues.count ? venues[Int(venue)].market(of: symbol) : nil
      }
      return QuoteWriter(formatter: formatter, writer: context.stdout, limit: config.count)
    }
    let formatter = config.format.makeFormatter(
      FormatContext(
        useColor: Self.useColor(context), provider: provider.name, timestamps: config.timestamps,
        isTerminal: isTerminal(1),
        symbols: venues.isEmpty ? symbols.map(provider.serverSymbol(for:)) : symbols,
        venues: venues.map(\.name), bidAsk: provider.stream == .topOfBook))
    return QuoteWriter(formatter: formatter, writer: context.stdout, limit: config.count)
  }

  private static func useColor(_ context: RunContext) -> Bool {
    context.config.color.resolve(isTerminal: isTerminal(1), environment: context.environment)
  }
}
