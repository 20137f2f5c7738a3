import CLI
import FeedRuntime
import Monitoring
import Outputs
import Recording
import TickerSupport
import Venues

/// `ticker --replay FILE`: a recording through the same machine and the same outputs as a live
/// run. The venue and the symbols come from the file; filtering, format and alerts from the
/// settings.
enum ReplayCommand {
  /// What the settings cannot do with this recording: bare prices of several venues or symbols.
  static func refusal(_ config: TickerConfig, _ header: RecordingHeader) -> String? {
    guard config.format == .price else { return nil }
    if header.venues.contains(where: { $0.stream == .topOfBook }) {
      return "--format price prints one bare number a line, and the recording holds best bids and asks "
        + "(two): use --format tsv"
    }
    if header.isSeveral {
      return "--format price prints bare numbers, which cannot say which of the recording's venues "
        + "(\(header.providerNames)) they come from: use --format tsv"
    }
    if header.symbols.count > 1 {
      return "--format price prints bare numbers, which cannot say which of the recording's "
        + "\(header.symbols.count) symbols they belong to: use --format tsv"
    }
    return nil
  }

  static func run(_ path: String, _ context: RunContext) async -> ExitCode {
    let config = context.config
    let header: RecordingHeader
    let providers: [any Provider]
    switch opening(path, context) {
    case .success(let opened): (header, providers) = opened
    case .failure(let stop): return stop.code
    }
    let provider = providers[0]
    if let refusal = refusal(config, header) {
      context.diagnostics.error(refusal)
      return .usage
    }
    let venuePlan = VenuePlan(
      members: zip(providers, header.venues).map { .init(provider: $0, symbols: $1.symbols) })
    guard let alerts = AlertRules.make(config, plan: venuePlan, context.diagnostics) else { return .usage }
    // A recording of several venues prints as their live run did: a venue column, each venue's
    // symbols in its own notation.
    let plan =
      header.isSeveral
      ? OutputPlan(
        context, provider: provider,
        venue: providers.map(\.displayName).joined(separator: ", ") + " (replay)",
        symbols: venuePlan.members.flatMap { member in member.symbols.map(member.provider.serverSymbol(for:))
        },
        venues: providers)
      : OutputPlan(
        context, provider: provider, venue: provider.displayName + " (replay)", symbols: header.symbols)
    return await MetricsEndpoint.serving(context, plan.monitor) {
      await play(path, context, plan, header: header, providers: providers, alerts: alerts)
    }
  }

  /// The replay itself, its outputs planned.
  private static func play(
    _ path: String, _ context: RunContext, _ plan: OutputPlan, header: RecordingHeader,
    providers: [any Provider],
    alerts: [[AlertBook.Rule]]
  ) async -> ExitCode {
    let config = context.config
    let provider = providers[0]
    let reports = plan.reportWriter()
    let replay: Replay
    do {
      replay = try Replay.open(
        Replay.Settings(
          path: path, speed: config.speed, mode: plan.stageMode, alerts: alerts[0], alertsByVenue: alerts,
          maximumMessageSize: config.maxMessageSize)
      ) { [board = plan.board] in
        reports.write($0)
        board?.report($0)
      }
    } catch {
      return refuse(error, path: path, context.diagnostics)
    }
    plan.diagnostics.info("replaying \(describe(path, header, providers, config.speed))")
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

  /// "FILE: Finnhub, AAPL, MSFT, recorded 2026-…Z, speed 1", for what `-v` says; of several
  /// venues, "FILE: Binance BTCUSDT; Coinbase BTC-USD, recorded …".
  static func describe(
    _ path: String, _ header: RecordingHeader, _ providers: [any Provider], _ speed: ReplaySpeed
  )
    -> String
  {
    let venues =
      header.isSeveral
      ? zip(providers, header.venues).map { "\($0.displayName) \($1.symbols.joined(separator: ", "))" }
        .joined(separator: "; ")
      : "\(providers[0].displayName), \(header.symbols.joined(separator: ", "))"
    return "\(path): \(venues), "
      + "recorded \(UTCTimestamp.string(milliseconds: header.startedMilliseconds)), speed \(speed)"
  }

  /// A recording's first line and the venues it names, or the exit code (after saying why).
  static func opening(_ path: String, _ context: RunContext) -> Result<
    (RecordingHeader, [any Provider]), Stop
  > {
    let header: RecordingHeader
    do {
      header = try Replay.header(
        of: path, maximumLineLength: Replay.Settings.lineLength(forMessageSize: context.config.maxMessageSize)
      )
    } catch {
      return .failure(Stop(code: refuse(error, path: path, context.diagnostics)))
    }
    var providers: [any Provider] = []
    for venue in header.venues {
      guard let provider = venue.decoder else {
        context.diagnostics.error(
          "cannot replay \(path): a recording of an unknown venue \"\(venue.name)\"")
        return .failure(Stop(code: .refused))
      }
      providers.append(provider)
    }
    return .success((header, providers))
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
