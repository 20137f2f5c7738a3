import CLI
import FeedRuntime
import Gateway
import Monitoring
import Outputs
import Recording
import Synchronization
import TickerSupport
import Transport
import Venues
import WebSocketWire

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `ticker serve`: upstreams (live feeds, one per venue, or a recording), every trade, served to
/// local clients as Finnhub's WebSocket API by `ServeHub`. stdout gets one line, the address clients
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

  /// `ticker serve`: live upstreams, one per venue (a `FeedGroup` whose venues open when asked):
  /// the venue of unqualified
  /// symbols (`--provider`, or the one venue given) and those given with `--symbol`/`--url
  /// VENUE=URL` open at start, any other venue of the catalog when a client first asks for a
  /// symbol of it (`coinbase/BTC-USD`). `serve --record` records the one venue's upstream as serve
  /// sees it (every trade; the clients' subscription changes as commands), replayable with
  /// `--replay` or `serve --replay`; it serves that venue only.
  static func live(_ context: RunContext) async -> ExitCode {
    let config = context.config
    let plan: VenuePlan
    switch Upstream.plan(context) {
    case .success(let made): plan = made
    case .failure(let stop): return stop.code
    }
    if config.record != nil, plan.isSeveral {
      context.diagnostics.error(
        "serve --record records one venue; this run names \(plan.members.map(\.provider.name).joined(separator: ", "))"
      )
      return .usage
    }
    let (venues, members, diagnostics) = servedVenues(context, plan)
    let upstreams = UpstreamStore()
    defer { upstreams.closeAll() }
    var startWith: [Int: [String]] = [:]
    for index in venues.indices where plan.members.contains(where: { $0.provider.name == venues[index].name })
    {
      switch await Upstream.open(context, members[index], diagnostics: diagnostics[index]) {
      case .success(let opened): upstreams.put(opened, at: index)
      case .failure(let stop): return stop.code
      }
      startWith[index] = members[index].symbols
    }
    let recording = upstreams.recording(of: 0)
    let pinned = venues.indices.flatMap { index in
      (startWith[index] ?? []).map { index == 0 ? $0 : venues[index].name + "/" + $0 }
    }
    let monitor = RunMonitor(venues: venues.map(\.name), onlyStarted: true)
    let code = await serve(
      context, venues: venues, pinned: pinned, diagnostics: diagnostics, monitor: monitor
    ) { report, hub in
      FeedGroup(
        venues: venues, startWith: startWith, opening: .whenAsked,
        opener: opener(context, members, diagnostics, upstreams, monitor: monitor, report: report),
        ended: { index, outcome in
          _ = ErrorReport.report(outcome, provider: venues[index], diagnostics[index])
        },
        unavailable: { index in hub.value?.venueUnavailable(index) })
    }
    return recording?.failure != nil ? .ioError : code
  }

  /// The venues serve can open, by index: the first is the venue of unqualified symbols (the
  /// only one with `--record`), the rest the catalog's; each with its symbols from the settings
  /// and where its messages go (with several venues, each names its venue).
  private static func servedVenues(_ context: RunContext, _ plan: VenuePlan)
    -> (venues: [any Provider], members: [VenuePlan.Member], diagnostics: [Diagnostics])
  {
    let config = context.config
    let first =
      plan.isSeveral
      ? ProviderCatalog.provider(named: config.provider) ?? plan.members[0].provider
      : plan.members[0].provider
    let venues =
      config.record != nil ? [first] : [first] + ProviderCatalog.all.filter { $0.name != first.name }
    let members = venues.map { venue in
      plan.members.first { $0.provider.name == venue.name } ?? VenuePlan.Member(provider: venue, symbols: [])
    }
    let diagnostics = venues.indices.map { index in
      index == 0 && !plan.isSeveral
        ? context.diagnostics : context.diagnostics.about(venues[index].displayName)
    }
    return (venues, members, diagnostics)
  }

  /// Opens a venue's feed for the group: the upstream opened at start if there is one, else a
  /// new one; every trade, kept open when all its symbols are refused (clients may ask again).
  private static func opener(
    _ context: RunContext, _ members: [VenuePlan.Member], _ diagnostics: [Diagnostics],
    _ upstreams: UpstreamStore, monitor: RunMonitor,
    report: @escaping @Sendable (_ venue: Int, FeedReport) -> Void
  ) -> FeedGroup.Opener {
    { index in
      var upstream = upstreams.take(at: index)
      if upstream == nil {
        guard
          case .success(let opened) = await Upstream.open(
            context, members[index], diagnostics: diagnostics[index])
        else { return nil }
        upstreams.keep(opened)
        upstream = opened
      }
      guard let upstream else { return nil }
      var settings = upstream.feedSettings(context.config, mode: .everyTrade, diagnostics: diagnostics[index])
      settings.endsWhenEverySymbolRefused = false
      return { [settings] symbols, bus, venue in
        var settings = settings
        settings.symbols = symbols
        let feed = Feed(settings, bus: bus, venue: venue) { report(index, $0) }
        monitor.attach(feed, venue: index)
        upstream.recording.feed = feed
        return feed
      }
    }
  }

  /// `ticker serve --replay FILE`: the recording served as Finnhub's API, every trade, played
  /// from its beginning when the first client asks for a symbol, at `--speed`. Clients get the
  /// recording's trades for the symbols they ask for (others never quote).
  static func replay(_ path: String, _ context: RunContext) async -> ExitCode {
    let config = context.config
    let header: RecordingHeader
    let providers: [any Provider]
    switch ReplayCommand.opening(path, context) {
    case .success(let opened): (header, providers) = opened
    case .failure(let stop): return stop.code
    }
    if let book = header.venues.first(where: { $0.stream == .topOfBook }) {
      context.diagnostics.error(
        "cannot serve \(path): it records \(book.name)'s best bids and asks, and serve's clients take "
          + "trades (Finnhub's API); replay it with ticker --replay")
      return .usage
    }
    // Of several venues, each venue's reports name it, and clients qualify their symbols.
    let diagnostics = providers.map {
      header.isSeveral ? context.diagnostics.about($0.displayName) : context.diagnostics
    }
    // The replay is opened (and a bad file refused) before anything listens; its reports go
    // where serve sends the upstream's, once serve has said where.
    let relay = LateBound<@Sendable (Int, FeedReport) -> Void>()
    let replay: Replay
    do {
      replay = try Replay.open(
        Replay.Settings(
          path: path, speed: config.speed, mode: .everyTrade, alerts: [],
          maximumMessageSize: config.maxMessageSize),
        venueReport: { relay.value?($0, $1) })
    } catch {
      return ReplayCommand.refuse(error, path: path, context.diagnostics)
    }
    context.diagnostics.info(
      "serving the recording \(ReplayCommand.describe(path, header, providers, config.speed)); "
        + "it plays when the first client subscribes")
    let code = await serve(
      context, venues: providers, pinned: [], diagnostics: diagnostics, monitor: RunMonitor(venues: [])
    ) { report, _ in
      relay.bind(report)
      return DeferredSource(replay)
    }
    if let error = replay.error {
      context.diagnostics.error("cannot replay all of \(path): \(error)")
      return .refused
    }
    return code
  }

  /// Serves whatever `makeSource` makes (told where each venue's reports go, and given the hub
  /// once there is one): live feeds, or any other `QuoteSource` (a recording played back) whose
  /// symbols follow `venues`' rules.
  static func serve(
    _ context: RunContext, venues: [any Provider], pinned: [String],
    diagnostics venueDiagnostics: [Diagnostics], monitor: RunMonitor,
    makeSource: (@escaping @Sendable (_ venue: Int, FeedReport) -> Void, LateBound<ServeHub>) ->
      any QuoteSource
  ) async -> ExitCode {
    await MetricsEndpoint.serving(context, monitor) {
      await serveHub(
        context, venues: venues, pinned: pinned, diagnostics: venueDiagnostics, monitor: monitor,
        makeSource: makeSource)
    }
  }

  private static func serveHub(
    _ context: RunContext, venues: [any Provider], pinned: [String],
    diagnostics venueDiagnostics: [Diagnostics], monitor: RunMonitor,
    makeSource: (@escaping @Sendable (_ venue: Int, FeedReport) -> Void, LateBound<ServeHub>) ->
      any QuoteSource
  ) async -> ExitCode {
    let (config, diagnostics) = (context.config, context.diagnostics)
    let provider = venues[0]
    let reports = venues.indices.map { index in
      ReportWriter<ContinuousClock.Instant>(
        diagnostics: venueDiagnostics[index], provider: venues[index], now: { ContinuousClock.now },
        bell: false)
    }
    // systemd and SIGHUP (docs/service.md).
    let service = ServeSupervision.start(
      context, diagnostics: diagnostics, venues: venues, pinned: pinned, monitor: monitor)
    defer { service.stop() }
    let bound = LateBound<ServeHub>()
    let feed = makeSource(
      { venue, report in
        reports[venue].write(report)
        bound.value?.upstream(report, venue: venue)
        service.report(venue: venue, report)
      }, bound)
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
    bound.bind(hub)
    monitor.watch(hub)
    announce(hub, context, provider: provider, pinned: pinned)
    hub.start()
    service.listening(host: config.bind, port: hub.port)
    let signals = SignalWatcher { sig in
      hub.shutdown(CloseStatus(code: .goingAway, reason: "ticker serve is stopping"))
      feed.stop(.signal(sig))
    }
    defer { signals.cancel() }
    let outcome = await feed.run()
    await closeClients(hub)
    for writer in reports { writer.summary() }
    // Of several venues, the one whose end ended the run says how.
    let ended = (feed as? FeedGroup)?.lastEnded ?? 0
    return ErrorReport.report(outcome, provider: venues[ended], venueDiagnostics[ended])
  }

  /// The upstream ended: every quote it gave is handed out, then the clients are closed.
  private static func closeClients(_ hub: ServeHub) async {
    await hub.drained()
    await withCheckedContinuation { done in
      DedicatedThread.start {
        // The upstream ended (or a signal, which closed the clients already): what the clients'
        // queues hold goes out first, for at most a few seconds.
        hub.shutdown(CloseStatus(code: .goingAway, reason: "ticker serve is stopping"), waiting: 5)
        done.resume()
      }
    }
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
    let words = Errno.text(code)
    switch code {
    case EADDRINUSE: return "\(words) (another ticker serve? pick another --port)"
    case EADDRNOTAVAIL: return "\(words) (--bind must be an address of this machine)"
    case EACCES: return "\(words) (ports below 1024 need privileges)"
    default: return "\(call): \(words)"
    }
  }
}
