import CLI
import FeedRuntime
import Outputs
import Recording
import Synchronization
import Venues

/// A run of several venues (`--symbol binance/BTCUSDT --symbol coinbase/BTC-USD`, `--asset BTC`):
/// a feed per venue under one `MultiFeed`, the lines saying which venue each price is from. A
/// venue that fails is reported as that venue's and the others go on. The exit code: 0 when an
/// `--until` condition held, a signal's when interrupted, else the first failed venue's (whether
/// the others went on to `--count` or ended too), else the stop's.
enum MultiVenueCommand {
  /// What a run of several venues cannot do yet, or cannot mean.
  static func refusal(_ config: TickerConfig, _ plan: VenuePlan) -> String? {
    let names = plan.members.map(\.provider.name).joined(separator: ", ")
    if config.format == .price {
      return "--format price prints bare numbers, which cannot say which venue (\(names)) they come from: "
        + "use --format tsv"
    }
    return nil
  }

  static func run(_ context: RunContext, _ plan: VenuePlan, alerts: [[AlertBook.Rule]]) async -> ExitCode {
    let config = context.config
    if let refusal = refusal(config, plan) {
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
    let providers = plan.members.map(\.provider)
    let output = OutputPlan(
      context, provider: providers[0],
      venue: providers.map(\.displayName).joined(separator: ", ") + (config.demo ? " (demo)" : ""),
      symbols: plan.members.flatMap { member in member.symbols.map(member.provider.serverSymbol(for:)) },
      venues: providers,
      venueSymbols: plan.members.enumerated().flatMap { index, member in
        member.symbols.map { (UInt8(index), member.provider.serverSymbol(for: $0)) }
      })
    let writers = providers.map { output.reportWriter(venue: $0) }
    let feeds = upstreams.indices.map { index in
      Feed(
        upstreams[index].feedSettings(
          config, mode: output.stageMode, alerts: alerts[index],
          diagnostics: output.diagnostics.about(providers[index].displayName))
      ) { [board = output.board, writer = writers[index]] in
        writer.write($0)
        board?.report($0)
      }
    }
    let codes = Mutex<[ExitCode]>([])
    let control = output.reportWriter()
    let feed = MultiFeed(
      feeds, defaultVenue: config.provider,
      memberEnded: { [diagnostics = output.diagnostics] index, outcome in
        let code = ErrorReport.report(
          outcome, provider: providers[index], diagnostics.about(providers[index].displayName))
        codes.withLock { $0.append(code) }
      },
      report: { control.write($0) })
    recording.feed = feed
    let outcome = await output.run(feed) {
      if config.control == .stdin { ControlReader.start(fd: 0, feed: feed) }
    }
    for writer in writers { writer.summary() }
    if recording.failure != nil { return .ioError }
    // Each venue that ended on its own was reported as it ended.
    return exitCode(
      outcome, failed: codes.withLock { $0.first { $0 != .ok } }, provider: providers[0], config: config,
      output.diagnostics)
  }

  /// Each venue's upstream, and `--record`'s one file for every venue (each venue's lines naming
  /// it). On a failure, what was opened is closed.
  private static func openUpstreams(_ context: RunContext, _ plan: VenuePlan, _ recording: RecordingTarget)
    async -> Result<[Upstream], Stop>
  {
    var upstreams: [Upstream] = []
    for member in plan.members {
      switch await Upstream.open(
        context, member, diagnostics: context.diagnostics.about(member.provider.displayName), records: false)
      {
      case .success(let opened): upstreams.append(opened)
      case .failure(let stop):
        for upstream in upstreams { upstream.close() }
        return .failure(stop)
      }
    }
    switch RecordingTarget.open(
      context.config.record,
      venues: plan.members.map { .init(provider: $0.provider.name, symbols: $0.symbols) },
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
  /// venue's failure, if any.
  private static func exitCode(
    _ outcome: FeedOutcome, failed: ExitCode?, provider: any Provider, config: TickerConfig,
    _ diagnostics: Diagnostics
  ) -> ExitCode {
    if case .stopped(let reason) = outcome {
      let code = ErrorReport.report(
        outcome, provider: provider, awaitingUntil: !config.until.isEmpty, diagnostics)
      // A venue's failure outranks the end of --count or of stdout's reader; not --until holding
      // (what the run waited for) or an interruption.
      switch reason {
      case .countReached, .readerGone: return failed ?? code
      case .untilMet, .signal, .writeFailed: return code
      }
    }
    let code = failed ?? .ok
    if code == .ok, !config.until.isEmpty {
      diagnostics.note("the run ended before any --until condition held")
      return .untilNotMet
    }
    return code
  }
}
