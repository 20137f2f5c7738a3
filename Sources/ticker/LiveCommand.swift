import CLI
import FeedRuntime
import Outputs
import Venues

/// `ticker [--provider NAME] [--symbol SYMBOL]...`: a venue's prices, live, printed; with symbols
/// of several venues (`binance/BTCUSDT`, `--asset`), `MultiVenueCommand`.
enum LiveCommand {
  static func run(_ context: RunContext) async -> ExitCode {
    let plan: VenuePlan
    switch Upstream.plan(context) {
    case .success(let made): plan = made
    case .failure(let stop): return stop.code
    }
    guard let alerts = AlertRules.make(context.config, plan: plan, context.diagnostics) else { return .usage }
    if plan.isSeveral { return await MultiVenueCommand.run(context, plan, alerts: alerts) }
    let (provider, symbols) = (plan.members[0].provider, plan.members[0].symbols)
    let upstream: Upstream
    switch await Upstream.open(context, plan.members[0], diagnostics: context.diagnostics) {
    case .success(let opened): upstream = opened
    case .failure(let stop): return stop.code
    }
    defer { upstream.close() }

    let output = OutputPlan(
      context, provider: provider, venue: provider.displayName + (context.config.demo ? " (demo)" : ""),
      symbols: symbols)
    let reports = output.reportWriter()
    let feed = Feed(
      upstream.feedSettings(
        context.config, mode: output.stageMode, alerts: alerts[0], diagnostics: output.diagnostics)
    ) { [board = output.board] in
      reports.write($0)
      board?.report($0)
    }
    upstream.recording.feed = feed
    let outcome = await output.run(feed) {
      if context.config.control == .stdin { ControlReader.start(fd: 0, feed: feed) }
    }
    reports.summary()
    if upstream.recording.failure != nil { return .ioError }
    return ErrorReport.report(
      outcome, provider: provider, awaitingUntil: !context.config.until.isEmpty, output.diagnostics)
  }
}
