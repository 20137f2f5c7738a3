import CLI
import Emulators
import FeedRuntime
import NATS
import NATSBridge
import Outputs
import Recording
import TickerSupport
import Transport
import Venues
import WebSocketClient
import WebSocketWire

/// What a live run (printing or serving) connects to: the venue and its symbols, where its
/// messages come from, the recorder.
struct Upstream: Sendable {
  var provider: any Provider
  /// Canonical for the provider.
  var symbols: [String]
  var origin: Origin
  var demo: FeedServer?
  /// `--record`'s recorder (in a run of several venues, this venue's share of the one file).
  var recorder: (any FeedRecorder)?
  /// Where a failed `--record` write stops the run.
  var recording: RecordingTarget

  /// Where the venue's messages come from.
  enum Origin: Sendable {
    /// Its WebSocket endpoint (the demo's local server, or the venue's with its token), opened
    /// with the engine chosen.
    case webSocket(engine: any WebSocketEngine, url: WebSocketURL)
    /// A NATS server carrying another ticker's published prices (`--source`).
    case nats(NATSSource)
  }

  /// The venues and their symbols as the settings name them (`VenuePlan`). `serve` follows what
  /// its clients ask for, plus the symbols given (none by default).
  static func plan(_ context: RunContext) -> Result<VenuePlan, Stop> {
    switch VenuePlan.make(context.config, serving: context.serving) {
    case .success(let plan): return .success(plan)
    case .failure(let error):
      context.diagnostics.error("\(error)")
      return .failure(Stop(code: error.isConfiguration ? .config : .usage))
    }
  }

  /// The endpoint, the recorder and the engine for one venue of the run and its symbols.
  /// - Parameters:
  ///   - diagnostics: where what is said goes (in a run of several, about that venue).
  ///   - records: whether to open `--record`'s file (a run of several opens one for all).
  static func open(
    _ context: RunContext, _ member: VenuePlan.Member, diagnostics: Diagnostics, records: Bool = true
  ) async
    -> Result<Upstream, Stop>
  {
    let config = context.config
    let (provider, symbols) = (member.provider, member.symbols)
    if let source = config.source {
      return .success(sourced(from: source, key: context.natsKey, member, diagnostics))
    }
    var demo: FeedServer?
    let url: WebSocketURL
    if config.demo {
      guard
        let server = DemoServer.start(
          provider, symbols: symbols, market: context.demoMarket, serving: context.serving, diagnostics)
      else { return .failure(Stop(code: .software)) }
      demo = server
      url = provider.endpoint(base: server.url, token: nil)
    } else {
      if provider.requiresToken, (config.token ?? "").isEmpty {
        let variable = provider.tokenVariable ?? "the API token"
        diagnostics.error("no API token: set \(variable) (a free key from finnhub.io), or try --demo")
        return .failure(Stop(code: .usage))
      }
      url = provider.endpoint(base: member.endpoint ?? provider.defaultURL, token: config.token)
    }
    let recording = RecordingTarget()
    let recorder: Recorder?
    let venue = RecordingHeader.Venue(provider: provider.name, symbols: symbols, stream: provider.stream)
    switch RecordingTarget.open(records ? config.record : nil, venues: [venue], recording, diagnostics) {
    case .success(let opened): recorder = opened
    case .failure(let stop):
      demo?.stop()
      return .failure(stop)
    }
    let selected: EngineSelection.Selected
    do {
      selected = try await EngineSelection.select(
        config.engine, needsCustomCA: config.cacert != nil, warn: { [diagnostics] in diagnostics.warning($0) }
      )
    } catch {
      switch error {
      case .urlSessionUnsupported(let why):
        diagnostics.error("--engine urlsession cannot work here: \(why); use --engine auto or native")
      }
      demo?.stop()
      return .failure(Stop(code: .unavailable))
    }
    diagnostics.info("engine \(selected.engine.name): \(selected.reason)")
    diagnostics.info("connecting to \(url) with the \(selected.engine.name) engine")
    return .success(
      Upstream(
        provider: provider, symbols: symbols, origin: .webSocket(engine: selected.engine, url: url),
        demo: demo,
        recorder: recorder, recording: recording))
  }

  /// `--source`: the venue's prices as another ticker published them on NATS.
  static func sourced(
    from source: NATSURL, key: NATSKeyAuth?, _ member: VenuePlan.Member, _ diagnostics: Diagnostics
  ) -> Upstream {
    let nats = NATSSource(
      url: source, version: String(HelpText.version.split(separator: " ").last ?? ""), key: key)
    diagnostics.info(
      "reading \(member.provider.displayName)'s prices from \(source), as another ticker publishes them")
    return Upstream(
      provider: PublishedVenue(member.provider), symbols: member.symbols, origin: .nats(nats), demo: nil,
      recorder: nil, recording: RecordingTarget())
  }

  /// The feed's source; a WebSocket one reports its handshake's negotiation to `diagnostics`.
  private func source(_ diagnostics: Diagnostics) -> any MessageSource {
    switch origin {
    case .webSocket(let engine, let url):
      WebSocketSource(engine: NegotiationReportingEngine(engine, diagnostics: diagnostics), url: url)
    case .nats(let source): source
    }
  }

  /// The feed the settings describe, its handshake negotiation reported to `diagnostics`.
  func feedSettings(
    _ config: TickerConfig, mode: PriceStageMode, alerts: [AlertBook.Rule] = [], diagnostics: Diagnostics
  ) -> Feed.Settings {
    var settings = Feed.Settings(
      provider: provider, source: source(diagnostics),
      connectOptions: ConnectOptions(
        headers: [("User-Agent", HelpText.version.replacingAll(" ", with: "/"))]
          + provider.handshakeHeaders.map { ($0.name, $0.value) },
        connectTimeout: config.connectTimeout.seconds,
        maximumMessageSize: config.maxMessageSize, caCertificateFile: config.cacert,
        compression: config.compression == .on),
      session: SessionConfiguration(
        backoff: Backoff(maximumDelay: config.maxBackoff),
        maxRetries: config.maxRetries,
        pingInterval: config.pingInterval == .zero ? nil : config.pingInterval,
        pongTimeout: config.pongTimeout,
        silenceTimeout: Self.silenceTimeout(config)),
      mode: mode, symbols: symbols, ticketPrefix: Self.ticketPrefix(), alerts: alerts, recorder: recorder)
    settings.staleAfter = config.staleAfter
    settings.tracksSymbols = config.metrics != nil
    return settings
  }

  /// A venue that stops sending is dead; a bus may be quiet for as long as the publisher's
  /// symbols are (its liveness is the pings), so `--source` has none unless one is given.
  static func silenceTimeout(_ config: TickerConfig) -> Duration? {
    if config.silenceTimeout == .zero { return nil }
    if config.source != nil, config.sources["--silence-timeout"] == nil { return nil }
    return config.silenceTimeout
  }

  /// The demo's server stops with the run.
  func close() { demo?.stop() }

  /// A prefix that makes this run's venue tickets unique (Upbit): "ticker-" and 8 hex digits.
  static func ticketPrefix() -> String {
    var random = SystemRandomNumberGenerator()
    return "ticker-" + Hex.string(random.next() & 0xFFFF_FFFF, digits: 8)
  }
}

extension String {
  func replacingAll(_ target: Character, with replacement: String) -> String {
    split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
  }
}
