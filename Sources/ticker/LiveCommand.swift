import CLI
import FeedRuntime
import Outputs
import Venues

/// `ticker [--provider NAME] [--symbol SYMBOL]...`: a venue's prices, live, printed.
enum LiveCommand {
  static func run(_ context: RunContext) async -> ExitCode {
    let (provider, symbols): (any Provider, [String])
    switch Upstream.venue(context) {
    case .success(let venue): (provider, symbols) = venue
    case .failure(let stop): return stop.code
    }
    guard
      let alerts = AlertRules.make(context.config, provider: provider, symbols: symbols, context.diagnostics)
    else { return .usage }
    let upstream: Upstream
    switch await Upstream.open(context, provider: provider, symbols: symbols) {
    case .success(let opened): upstream = opened
    case .failure(let stop): return stop.code
    }
    defer { upstream.close() }

    let plan = OutputPlan(
      context, provider: provider, venue: provider.displayName + (context.config.demo ? " (demo)" : ""),
      symbols: symbols)
    let reports = plan.reportWriter()
    let feed = Feed(
      upstream.feedSettings(
        context.config, mode: plan.stageMode, alerts: alerts, diagnostics: plan.diagnostics)
    ) { [board = plan.board] in
      reports.write($0)
      board?.report($0)
    }
    upstream.recording.feed = feed
    let outcome = await plan.run(feed) {
      if context.config.control == .stdin { ControlReader.start(fd: 0, feed: feed) }
    }
    reports.summary()
    if upstream.recording.failure != nil { return .ioError }
    return ErrorReport.report(
      outcome, provider: provider, awaitingUntil: !context.config.until.isEmpty, plan.diagnostics)
  }
}
