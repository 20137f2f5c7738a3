import CLI
import FeedRuntime
import Monitoring
import Outputs
import Recording
import Synchronization
import Venues

/// `ticker [--provider NAME] [--symbol SYMBOL]...`: the venues' prices, live, printed. One venue
/// or several (`--symbol binance/BTCUSDT --symbol coinbase/BTC-USD`, `--asset BTC`), the same
/// path: a feed per venue in one `FeedGroup`. With several, the lines say which venue each price
/// is from, and a venue that fails is reported as that venue's while the others go on. The exit
/// code: 0 when an `--until` condition held, a signal's when interrupted, else the first failed
/// venue's (whether the others went on to `--count` or ended too), else the stop's.
enum LiveCommand {
  /// What a run of several venues cannot do, or cannot mean.
  static func refusal(_ config: TickerConfig, _ plan: VenuePlan) -> String? {
    guard plan.isSeveral, config.format == .price else { return nil }
    let names = plan.members.map(\.provider.name).joined(separator: ", ")
    return "--format price prints bare numbers, which cannot say which venue (\(names)) they come from: "
      + "use --format tsv"
  }

  static func run(_ context: RunContext) async -> ExitCode {
    let plan: VenuePlan
    switch Upstream.plan(context) {
    case .success(let made): plan = made
    case .failure(let stop): return stop.code
    }
    guard let alerts = AlertRules.make(context.config, plan: plan, context.diagnostics) else { return .usage }
    if let refusal = refusal(context.config, plan) {
      context.diagnostics.error(refusal)
      return .usage
    }
    let upstreams: [Upstream]
    let recording = RecordingTarget()
    switch await openUpstreams(context, plan, recording) {
    case .success(let opened): upstreams = opened
    case .failure(let stop): return stop.code
    }
    defer { for upstream in upstreams { upstream.close() } }
    return await run(
      context, plan, upstreams, alerts: alerts, recording: plan.isSeveral ? recording : upstreams[0].recording
    )
  }

  /// The run itself, its upstreams open, `--metrics` served throughout.
  private static func run(
    _ context: RunContext, _ plan: VenuePlan, _ upstreams: [Upstream], alerts: [[AlertBook.Rule]],
    recording: RecordingTarget
  ) async -> ExitCode {
    let output = outputPlan(context, plan)
    return await MetricsEndpoint.serving(context, output.monitor) {
      await run(context, plan, upstreams, output, alerts: alerts, recording: recording)
    }
  }

  private static func run(
    _ context: RunContext, _ plan: VenuePlan, _ upstreams: [Upstream], _ output: OutputPlan,
    alerts: [[AlertBook.Rule]], recording: RecordingTarget
  ) async -> ExitCode {
    let config = context.config
    let providers = plan.members.map(\.provider)
    // One venue says nothing of which venue; several prefix each venue's words with its name.
    let diagnostics = providers.map {
      plan.isSeveral ? output.diagnostics.about($0.displayName) : output.diagnostics
    }
    let writers = providers.map { output.reportWriter(venue: plan.isSeveral ? $0 : nil) }
    let codes = Mutex<[ExitCode]>([])
    let control = plan.isSeveral ? output.reportWriter() : writers[0]
    // systemd: readiness, status and the watchdog from the venues' reports (docs/service.md).
    let service = ServiceSupervisor.start(
      context, diagnostics: output.diagnostics, venues: providers, isAlive: { output.monitor.isAlive() })
    let group = FeedGroup(
      venues: providers, defaultVenue: config.provider,
      startWith: Dictionary(uniqueKeysWithValues: plan.members.enumerated().map { ($0, $1.symbols) }),
      opening: .atStartOnly,
      opener: { index in
        { symbols, bus, venue in
          var settings = upstreams[index].feedSettings(
            config, mode: output.stageMode, alerts: alerts[index], diagnostics: diagnostics[index])
          settings.symbols = symbols
          let feed = Feed(settings, bus: bus, venue: venue) {
            [board = output.board, writer = writers[index]] in
            writer.write($0)
            board?.report($0)
            service?.report(venue: index, $0)
          }
          output.monitor.attach(feed, venue: index)
          return feed
        }
      },
      ended: { index, outcome in
        codes.withLock {
          $0.append(ErrorReport.report(outcome, provider: providers[index], diagnostics[index]))
        }
      },
      report: { control.write($0) })
    recording.feed = group
    // SIGHUP: the config file's subscription again.
    let reload = ConfigReload.watch(context, .feeds(group), service: service, diagnostics: output.diagnostics)
    defer {
      reload.cancel()
      service?.stopping()
    }
    let outcome = await output.run(group) {
      if config.control == .stdin { ControlReader.start(fd: 0, feed: group) }
    }
    for writer in writers { writer.summary() }
    if recording.failure != nil { return .ioError }
    let last = group.lastEnded ?? 0
    return exitCode(
      outcome, failed: codes.withLock { $0.first { $0 != .ok } }, provider: providers[last], config: config,
      diagnostics[last])
  }

  /// The outputs of the run: one venue's lines as they always were, several with a venue column.
  private static func outputPlan(_ context: RunContext, _ plan: VenuePlan) -> OutputPlan {
    let providers = plan.members.map(\.provider)
    let venue = providers.map(\.displayName).joined(separator: ", ") + (context.config.demo ? " (demo)" : "")
    let symbols = plan.members.flatMap { member in member.symbols.map(member.provider.serverSymbol(for:)) }
    guard plan.isSeveral else {
      return OutputPlan(context, provider: providers[0], venue: venue, symbols: plan.members[0].symbols)
    }
    return OutputPlan(
      context, provider: providers[0], venue: venue, symbols: symbols, venues: providers,
      venueSymbols: plan.members.enumerated().flatMap { index, member in
        member.symbols.map { (UInt8(index), member.provider.serverSymbol(for: $0)) }
      })
  }

  /// Each venue's upstream, and `--record`'s file: one venue's own (format 1), or one for every
  /// venue of several (each venue's lines naming it). On a failure, what was opened is closed.
  private static func openUpstreams(_ context: RunContext, _ plan: VenuePlan, _ recording: RecordingTarget)
    async -> Result<[Upstream], Stop>
  {
    var upstreams: [Upstream] = []
    for member in plan.members {
      let diagnostics =
        plan.isSeveral ? context.diagnostics.about(member.provider.displayName) : context.diagnostics
      switch await Upstream.open(context, member, diagnostics: diagnostics, records: !plan.isSeveral) {
      case .success(let opened): upstreams.append(opened)
      case .failure(let stop):
        for upstream in upstreams { upstream.close() }
        return .failure(stop)
      }
    }
    guard plan.isSeveral else { return .success(upstreams) }
    switch RecordingTarget.open(
      context.config.record,
      venues: plan.members.map {
        .init(provider: $0.provider.name, symbols: $0.symbols, stream: $0.provider.stream)
      },
      recording, context.diagnostics)
    {
    case .success(let recorder?):
      for index in upstreams.indices { upstreams[index].recorder = recorder.venue(index) }
    case .success(nil): break
    case .failure(let stop):
      for upstream in upstreams { upstream.close() }
      return .failure(stop)
    }
    return .success(upstreams)
  }

  /// The run's exit code once every venue has ended or the run was stopped; `failed` is the first
  /// failure of a venue that ended before the last.
  private static func exitCode(
    _ outcome: FeedOutcome, failed: ExitCode?, provider: any Provider, config: TickerConfig,
    _ diagnostics: Diagnostics
  ) -> ExitCode {
    let code = ErrorReport.report(
      outcome, provider: provider, awaitingUntil: !config.until.isEmpty && failed == nil, diagnostics)
    guard case .stopped(let reason) = outcome else { return failed ?? code }
    // A venue's failure outranks the end of --count or of stdout's reader; not --until holding
    // (what the run waited for) or an interruption.
    switch reason {
    case .countReached, .readerGone: return failed ?? code
    case .untilMet, .signal, .writeFailed: return code
    }
  }
}
