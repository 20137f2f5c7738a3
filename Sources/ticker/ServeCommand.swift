import CLI
import Dispatch
import FeedRuntime
import Gateway
import Outputs
import Recording
import Synchronization
import TickerSupport
import Venues
import WebSocketClient

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `ticker serve`: one upstream (a live feed, or a recording), every trade, served to local
/// clients as Finnhub's WebSocket API by `ServeHub`. stdout gets one line, the address clients
/// connect to; stderr a status line per client connected, disconnected or dropped (more with
/// `-v`).
enum ServeCommand {
  /// Why the configuration cannot be served, or nil: a non-loopback address needs a token.
  static func refusal(_ config: TickerConfig) -> String? {
    if !ServeAccess.isLoopback(config.bind), config.serveToken == nil {
      return "--bind \(config.bind) would let anyone who can reach this machine use the feed: "
        + "set --serve-token (or TICKER_SERVE_TOKEN) so that clients must pass ?token=, "
        + "or bind 127.0.0.1"
    }
    return nil
  }

  /// `ticker serve`: a live upstream. `serve --record` records it as serve sees it (every trade;
  /// the clients' subscription changes as commands), replayable with `--replay` or `serve --replay`.
  static func live(_ context: RunContext) async -> ExitCode {
    let member: VenuePlan.Member
    switch Upstream.plan(context) {
    case .success(let plan) where plan.isSeveral:
      context.diagnostics.error(
        "ticker serve follows one venue; this run names \(plan.members.map(\.provider.name).joined(separator: ", "))"
      )
      return .usage
    case .success(let plan): member = plan.members[0]
    case .failure(let stop): return stop.code
    }
    let (provider, symbols) = (member.provider, member.symbols)
    let upstream: Upstream
    switch await Upstream.open(context, member, diagnostics: context.diagnostics) {
    case .success(let opened): upstream = opened
    case .failure(let stop): return stop.code
    }
    defer { upstream.close() }
    var settings = upstream.feedSettings(context.config, mode: .everyTrade, diagnostics: context.diagnostics)
    settings.endsWhenEverySymbolRefused = false
    let code = await serve(context, provider: provider, pinned: symbols) { report in
      let feed = Feed(settings, report: report)
      upstream.recording.feed = feed
      return feed
    }
    return upstream.recording.failure != nil ? .ioError : code
  }

  /// `ticker serve --replay FILE`: the recording served as Finnhub's API, every trade, played
  /// from its beginning when the first client asks for a symbol, at `--speed`. Clients get the
  /// recording's trades for the symbols they ask for (others never quote).
  static func replay(_ path: String, _ context: RunContext) async -> ExitCode {
    let config = context.config
    let header: RecordingHeader
    let provider: any Provider
    switch ReplayCommand.opening(path, context) {
    case .success(let opened) where opened.0.isSeveral:
      context.diagnostics.error(
        "cannot serve \(path): a recording of several venues (\(opened.0.providerNames)); "
          + "ticker --replay plays it")
      return .usage
    case .success(let opened): (header, provider) = (opened.0, opened.1[0])
    case .failure(let stop): return stop.code
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
      return ReplayCommand.refuse(error, path: path, context.diagnostics)
    }
    context.diagnostics.info(
      "serving the recording \(ReplayCommand.describe(path, header, [provider], config.speed)); "
        + "it plays when the first client subscribes")
    let code = await serve(context, provider: provider, pinned: []) { report in
      relay.target.withLock { $0 = report }
      return DeferredSource(replay)
    }
    if let error = replay.error {
      context.diagnostics.error("cannot replay all of \(path): \(error)")
      return .refused
    }
    return code
  }

  /// Serves whatever `makeSource` makes (told where its reports go): a live `Feed`, or any other
  /// `QuoteSource` (a recording played back) whose symbols follow `provider`'s rules.
  static func serve(
    _ context: RunContext, provider: any Provider, pinned: [String],
    makeSource: (@escaping @Sendable (FeedReport) -> Void) -> any QuoteSource
  ) async -> ExitCode {
    let (config, diagnostics) = (context.config, context.diagnostics)
    let reports = ReportWriter<ContinuousClock.Instant>(
      diagnostics: diagnostics, provider: provider, now: { ContinuousClock.now }, bell: false)
    let box = HubBox()
    let feed = makeSource { report in
      reports.write(report)
      box.hub?.upstream(report)
    }
    let hub: ServeHub
    do {
      hub = try ServeHub(
        source: feed,
        options: ServeHub.Options(
          host: config.bind, port: config.servePort, token: config.serveToken,
          maximumClients: config.maxClients, pinned: pinned),
        log: { ServeLog.say($0, diagnostics) })
    } catch {
      diagnostics.error("cannot listen on \(config.bind) port \(config.servePort): \(listenFailure(error))")
      return .cannotListen
    }
    box.hub = hub
    announce(hub, context, provider: provider, pinned: pinned)
    hub.start()
    let signals = SignalWatcher { sig in
      hub.shutdown(CloseStatus(code: .goingAway, reason: "ticker serve is stopping"))
      feed.stop(.signal(sig))
    }
    defer { signals.cancel() }
    let outcome = await feed.run()
    // Every quote the upstream gave is handed out before the clients are closed.
    await hub.drained()
    await withCheckedContinuation { done in
      DispatchQueue(label: "serve.shutdown").async {
        // The upstream ended (or a signal, which closed the clients already): what the clients'
        // queues hold goes out first, for at most a few seconds.
        hub.shutdown(CloseStatus(code: .goingAway, reason: "ticker serve is stopping"), waiting: 5)
        done.resume()
      }
    }
    reports.summary()
    return ErrorReport.report(outcome, provider: provider, diagnostics)
  }

  /// The address on stdout (for scripts), and what is served on stderr.
  private static func announce(
    _ hub: ServeHub, _ context: RunContext, provider: any Provider, pinned: [String]
  ) {
    let config = context.config
    let host = config.bind.contains(":") ? "[\(config.bind)]" : config.bind
    try? context.stdout.write("ws://\(host):\(hub.port)/\n")
    context.diagnostics.note(
      "serving \(provider.displayName) on ws://\(host):\(hub.port)/"
        + (config.serveToken == nil ? "" : " (clients must pass ?token=)")
        + (pinned.isEmpty ? "" : "; following \(pinned.joined(separator: ", ")) throughout"))
  }

  /// Why listening failed, in words.
  static func listenFailure(_ error: TransportError) -> String {
    guard case .syscall(let call, let code) = error else { return "\(error)" }
    let words = String(cString: strerror(code))
    switch code {
    case EADDRINUSE: return "\(words) (another ticker serve? pick another --port)"
    case EADDRNOTAVAIL: return "\(words) (--bind must be an address of this machine)"
    case EACCES: return "\(words) (ports below 1024 need privileges)"
    default: return "\(call): \(words)"
    }
  }
}

/// Lets the feed's report closure reach the hub made after it.
private final class HubBox: Sendable {
  private let stored = Mutex<ServeHub?>(nil)
  var hub: ServeHub? {
    get { stored.withLock { $0 } }
    set { stored.withLock { $0 = newValue } }
  }
}

/// Hands reports on to a target set later.
private final class ReportRelay: Sendable {
  let target = Mutex<(@Sendable (FeedReport) -> Void)?>(nil)
  func forward(_ report: FeedReport) { target.withLock { $0 }?(report) }
}
