import CLI
import FeedRuntime
import Outputs
import Recording
import TickerSupport
import Venues

/// `ticker --replay FILE`: a recording through the same machine and the same outputs as a live
/// run. The venue and the symbols come from the file; filtering, format and alerts from the
/// settings.
enum ReplayCommand {
  static func run(_ path: String, _ context: RunContext) async -> ExitCode {
    let config = context.config
    let header: RecordingHeader
    let provider: any Provider
    switch opening(path, context) {
    case .success(let opened): (header, provider) = opened
    case .failure(let stop): return stop.code
    }
    if config.format == .price && header.symbols.count > 1 {
      context.diagnostics.error(
        "--format price prints bare numbers, which cannot say which of the recording's "
          + "\(header.symbols.count) symbols they belong to: use --format tsv")
      return .usage
    }
    guard
      let alerts = AlertRules.make(
        config, plan: VenuePlan(members: [.init(provider: provider, symbols: header.symbols)]),
        context.diagnostics
      )?.first
    else { return .usage }
    let plan = OutputPlan(
      context, provider: provider, venue: provider.displayName + " (replay)", symbols: header.symbols)
    let reports = plan.reportWriter()
    let replay: Replay
    do {
      replay = try Replay.open(
        Replay.Settings(
          path: path, speed: config.speed, mode: plan.stageMode, alerts: alerts,
          maximumMessageSize: config.maxMessageSize)
      ) { [board = plan.board] in
        reports.write($0)
        board?.report($0)
      }
    } catch {
      return refuse(error, path: path, context.diagnostics)
    }
    plan.diagnostics.info("replaying \(describe(path, header, provider, config.speed))")
    let outcome = await plan.run(replay)
    reports.summary()
    if let error = replay.error {
      plan.diagnostics.error("cannot replay all of \(path): \(error)")
      return .refused
    }
    // Played to the end: a normal end, like `--count` reached (exit 0; 1 while `--until` waits).
    return ErrorReport.report(
      outcome == Replay.finishedOutcome ? .stopped(.countReached) : outcome, provider: provider,
      awaitingUntil: !config.until.isEmpty, plan.diagnostics)
  }

  /// "FILE: Finnhub, AAPL, MSFT, recorded 2026-…Z, speed 1", for what `-v` says.
  static func describe(
    _ path: String, _ header: RecordingHeader, _ provider: any Provider, _ speed: ReplaySpeed
  )
    -> String
  {
    "\(path): \(provider.displayName), \(header.symbols.joined(separator: ", ")), "
      + "recorded \(UTCTimestamp.string(milliseconds: header.startedMilliseconds)), speed \(speed)"
  }

  /// A recording's first line and the venue it names, or the exit code (after saying why).
  static func opening(_ path: String, _ context: RunContext) -> Result<(RecordingHeader, any Provider), Stop>
  {
    let header: RecordingHeader
    do {
      header = try Replay.header(
        of: path, maximumLineLength: Replay.Settings.lineLength(forMessageSize: context.config.maxMessageSize)
      )
    } catch {
      return .failure(Stop(code: refuse(error, path: path, context.diagnostics)))
    }
    guard let provider = ProviderCatalog.provider(named: header.provider) else {
      context.diagnostics.error(
        "cannot replay \(path): a recording of an unknown venue \"\(header.provider)\"")
      return .failure(Stop(code: .refused))
    }
    return .success((header, provider))
  }

  static func refuse(_ error: RecordingError, path: String, _ diagnostics: Diagnostics) -> ExitCode {
    switch error {
    case .unreadable, .notRegularFile:
      diagnostics.error("\(error)")
      return .noInput
    default:
      diagnostics.error("cannot replay \(path): \(error)")
      return .refused
    }
  }
}
