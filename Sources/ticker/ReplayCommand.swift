import CLI
import FeedRuntime
import Gateway
import Outputs
import Recording
import Synchronization
import TickerSupport
import Venues
import WebSocketClient

/// `ticker --replay FILE`: a recording through the same machine and the same outputs as a live
/// run. The venue and the symbols come from the file; filtering, format and alerts from the
/// settings.
enum ReplayCommand {
  static func run(
    path: String, config: TickerConfig, environment: [String: String], diagnostics: Diagnostics
  ) async -> ExitCode {
    let header: RecordingHeader
    let provider: any Provider
    switch opening(path, config, diagnostics) {
    case .success(let opened): (header, provider) = opened
    case .failure(let code): return code.code
    }
    if config.format == .price && header.symbols.count > 1 {
      diagnostics.error(
        "--format price prints bare numbers, which cannot say which of the recording's "
          + "\(header.symbols.count) symbols they belong to: use --format tsv")
      return .usage
    }
    guard
      let alerts = TickerCommand.alertRules(config, provider: provider, symbols: header.symbols, diagnostics)
    else { return .usage }

    // `--board` on a terminal, as for a live run (every trade; lines elsewhere).
    let stdoutIsTerminal = isTerminal(1)
    let useColor = config.color.resolve(isTerminal: stdoutIsTerminal, environment: environment)
    var diagnostics = diagnostics
    var board: BoardOutput?
    if config.board, stdoutIsTerminal, environment["TERM"] != "dumb" {
      let made = BoardOutput(
        screen: TerminalScreen(fd: 1), provider: provider, venue: provider.displayName + " (replay)",
        symbols: header.symbols, useColor: useColor, limit: config.count)
      diagnostics = Diagnostics(secrets: [], verbose: config.verbose, write: made.diagnostic)
      board = made
    }
    let reports = ReportWriter<ContinuousClock.Instant>(
      diagnostics: diagnostics, provider: provider, now: { ContinuousClock.now }, bell: isTerminal(2))
    let replay: Replay
    do {
      replay = try Replay.open(
        Replay.Settings(
          path: path, speed: config.speed, mode: board == nil ? config.stageMode : .everyTrade,
          alerts: alerts,
          maximumMessageSize: config.maxMessageSize)
      ) { [board] in
        reports.write($0)
        board?.report($0)
      }
    } catch {
      return refuse(error, path: path, diagnostics)
    }
    diagnostics.info(
      "replaying \(path): \(provider.displayName), \(header.symbols.joined(separator: ", ")), "
        + "recorded \(UTCTimestamp.string(milliseconds: header.startedMilliseconds)), speed \(config.speed)")

    let stdout = FileDescriptorWriter(fd: 1)
    let formatter = config.format.makeFormatter(
      FormatContext(
        useColor: useColor, provider: provider.name, timestamps: config.timestamps,
        isTerminal: stdoutIsTerminal, symbols: header.symbols.map(provider.serverSymbol(for:))))
    let signals = SignalWatcher(beforeImmediateExit: { [board] in board?.restore() }) {
      replay.stop(.signal($0))
    }
    defer { signals.cancel() }
    let output =
      board?.start(on: replay)
      ?? StdoutOutput.start(
        on: replay, writer: QuoteWriter(formatter: formatter, writer: stdout, limit: config.count))

    let publishing = config.publish.map { url in
      TickerCommand.startPublishing(
        to: url, config: config, feed: replay, provider: provider, diagnostics: diagnostics)
    }

    let outcome = await replay.run()
    await output.value
    await publishing?.value
    reports.summary()
    if let error = replay.error {
      diagnostics.error("cannot replay all of \(path): \(error)")
      return .refused
    }
    // Played to the end: a normal end, like `--count` reached (exit 0; 1 while `--until` waits).
    return ErrorReport.report(
      outcome == Replay.finishedOutcome ? .stopped(.countReached) : outcome, provider: provider,
      awaitingUntil: !config.until.isEmpty, diagnostics)
  }

  /// `ticker serve --replay FILE`: the recording served as Finnhub's API, every trade, played from
  /// its beginning when the first client asks for a symbol, at `--speed`. Clients get the
  /// recording's trades for the symbols they ask for (others never quote).
  static func serve(path: String, config: TickerConfig, diagnostics: Diagnostics) async -> ExitCode {
    let header: RecordingHeader
    let provider: any Provider
    switch opening(path, config, diagnostics) {
    case .success(let opened): (header, provider) = opened
    case .failure(let code): return code.code
    }
    // The replay is opened (and a bad file refused) before anything listens; its reports go
    // where serve sends the upstream's, once serve has said where.
    let relay = ReportRelay()
    let replay: Replay
    do {
      replay = try Replay.open(
        Replay.Settings(
          path: path, speed: config.speed, mode: .everyTrade, alerts: [],
          maximumMessageSize: config.maxMessageSize)
      ) { relay.forward($0) }
    } catch {
      return refuse(error, path: path, diagnostics)
    }
    diagnostics.info(
      "serving the recording \(path): \(provider.displayName), \(header.symbols.joined(separator: ", ")), "
        + "recorded \(UTCTimestamp.string(milliseconds: header.startedMilliseconds)), speed \(config.speed); "
        + "it plays when the first client subscribes")
    let code = await ServeCommand.run(
      config: config, provider: provider, pinned: [], stdout: FileDescriptorWriter(fd: 1),
      diagnostics: diagnostics
    ) { report in
      relay.target.withLock { $0 = report }
      return DeferredSource(replay)
    }
    if let error = replay.error {
      diagnostics.error("cannot replay all of \(path): \(error)")
      return .refused
    }
    return code
  }

  /// Hands reports on to a target set later.
  private final class ReportRelay: Sendable {
    let target = Mutex<(@Sendable (FeedReport) -> Void)?>(nil)
    func forward(_ report: FeedReport) { target.withLock { $0 }?(report) }
  }

  /// A recording's first line and the venue it names, or the exit code (after saying why).
  private static func opening(
    _ path: String, _ config: TickerConfig, _ diagnostics: Diagnostics
  ) -> Result<(RecordingHeader, any Provider), Refusal> {
    let header: RecordingHeader
    do {
      header = try Replay.header(of: path, maximumLineLength: lineLength(config))
    } catch {
      return .failure(Refusal(code: refuse(error, path: path, diagnostics)))
    }
    guard let provider = ProviderCatalog.provider(named: header.provider) else {
      diagnostics.error("cannot replay \(path): a recording of an unknown venue \"\(header.provider)\"")
      return .failure(Refusal(code: .refused))
    }
    return .success((header, provider))
  }

  private struct Refusal: Error { var code: ExitCode }

  static func lineLength(_ config: TickerConfig) -> Int {
    Replay.Settings.lineLength(forMessageSize: config.maxMessageSize)
  }

  private static func refuse(_ error: RecordingError, path: String, _ diagnostics: Diagnostics) -> ExitCode {
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
