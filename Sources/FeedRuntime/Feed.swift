import Synchronization
import TickerSupport
import Venues
import WebSocketClient
import WebSocketWire

/// One live feed: a venue, a subscription that may change while it runs, and a bus of quotes for
/// any number of outputs. The library's entry point, used by the ticker command:
///
/// ```swift
/// let feed = Feed(settings, report: { writer.write($0) })
/// let stdout = StdoutOutput(writer: quoteWriter).start(on: feed)
/// Task { feed.subscribe(["BINANCE:ETHUSDT"]) }      // from any task, at any time
/// let outcome = await feed.run()                    // until stopped, closed or failed
/// await stdout.value
/// ```
///
/// Subscriptions change at any time, from any task, connected or not; the venue is told at once
/// when connected (paced to its limit), and after every reconnect the *current* set is sent.
public final class Feed: QuoteFeed {
  /// What a feed needs.
  public struct Settings: Sendable {
    public var provider: any Provider
    /// Where the venue's messages come from: its WebSocket endpoint (`WebSocketSource`), or a
    /// NATS server carrying what a publisher published (`--source`).
    public var source: any MessageSource
    public var connectOptions: ConnectOptions
    public var session: SessionConfiguration
    public var mode: PriceStageMode
    /// The starting subscription (canonical for the provider: see `Provider.canonicalSymbol`).
    public var symbols: [String]
    /// Makes venue tickets unique (Upbit); tests pin it.
    public var ticketPrefix: String
    /// How long to wait for the server's close frame when stopping.
    public var closeTimeout: Duration
    /// `--alert` and `--until` rules (symbols canonical for the provider).
    public var alerts: [AlertBook.Rule]
    /// `--record`: where every batch the feed receives is appended (the Recording module's `Recorder`).
    public var recorder: (any FeedRecorder)?
    /// Whether the run ends once every followed symbol was refused one by one (the ticker: nothing
    /// could ever print). `serve` keeps running: its clients come and go.
    public var endsWhenEverySymbolRefused = true
    /// `--stale-after`: report a followed symbol without a price for this long (nil: never).
    public var staleAfter: Duration?
    /// Keep each symbol's last price for `statistics()` (`--metrics`).
    public var tracksSymbols = false

    public init(
      provider: any Provider, source: any MessageSource,
      connectOptions: ConnectOptions = ConnectOptions(),
      session: SessionConfiguration = SessionConfiguration(),
      mode: PriceStageMode = .default, symbols: [String], ticketPrefix: String = "ticker",
      closeTimeout: Duration = .seconds(1), alerts: [AlertBook.Rule] = [], recorder: (any FeedRecorder)? = nil
    ) {
      self.recorder = recorder
      self.alerts = alerts
      self.provider = provider
      self.source = source
      self.connectOptions = connectOptions
      self.session = session
      self.mode = mode
      self.symbols = symbols
      self.ticketPrefix = ticketPrefix
      self.closeTimeout = closeTimeout
    }
  }

  /// Its quotes: its own bus, or one it shares with the other venues of a `FeedGroup`.
  public let bus: QuoteBus
  /// The venue this feed reads.
  public var provider: any Provider { settings.provider }
  /// Which venue of a group its quotes say they are from (`Quote.venue`); 0 alone.
  public let venue: UInt8
  /// Whether `bus` is this feed's own (ended with it) or a group's.
  private let ownsBus: Bool
  private let settings: Settings
  private let session: SourceSession
  private let clock: any Clock<Duration>
  private let report: @Sendable (FeedReport) -> Void
  /// Reads the running shell's figures (set when `run()` starts).
  private let statisticsReader = Mutex<(@Sendable () -> FeedStatistics)?>(nil)

  /// - Parameters:
  ///   - bus: a group's bus to publish on (quotes stamped with `venue`), which the group ends;
  ///     nil for a bus of the feed's own, ended after its last quote.
  ///   - clock: where time comes from (tests pass a manual clock).
  ///   - report: told what happens (called from the feed's task, in order).
  public init(
    _ settings: Settings, bus: QuoteBus? = nil, venue: UInt8 = 0,
    clock: any Clock<Duration> = ContinuousClock(),
    makeRandom: @escaping @Sendable () -> any RandomNumberGenerator = { SystemRandomNumberGenerator() },
    report: @escaping @Sendable (FeedReport) -> Void
  ) {
    self.bus = bus ?? QuoteBus()
    ownsBus = bus == nil
    self.venue = venue
    self.settings = settings
    self.clock = clock
    self.report = report
    // The session asks the feed for each new connection's subscription: the hook posts into the
    // session's own event stream, so it is ordered after the last connection's events.
    let bound = LateBound<SourceSession>()
    session = SourceSession(
      source: settings.source, options: settings.connectOptions,
      configuration: settings.session, clock: clock, makeRandom: makeRandom
    ) { connection throws(WebSocketError) in
      guard let session = bound.value else { throw .notConnected }
      let failure: WebSocketError? = await withCheckedContinuation { continuation in
        let done = OpenedReply(continuation)
        if !session.post(FeedPost.Opened(connection: connection, done: done)) { done.resume(.notConnected) }
      }
      if let failure { throw failure }
    }
    bound.bind(session)
  }

  /// Runs the feed until it is stopped, the server closes with 1000, or a failure ends it; the
  /// outputs' queues end after the last quote. Call once. Cancelling the task that runs it ends
  /// the feed at once, with every task it started: the connection is closed with 1001 (without
  /// waiting for the server), the outputs' queues end without what was pending, and it returns
  /// `.stopped(.signal(2))`.
  public func run() async -> FeedOutcome {
    // The real clock gets the shell and machine compiled for it: opened from the existential,
    // they would run as unspecialized generic code, a metadata lookup for every batch.
    if let continuous = clock as? ContinuousClock { return await run(continuous) }
    return await run(clock)
  }

  private func run<C: Clock>(_ clock: C) async -> FeedOutcome where C.Duration == Duration {
    let machine = FeedMachine<C.Instant>(
      provider: settings.provider, symbols: settings.symbols, mode: settings.mode,
      ticketPrefix: settings.ticketPrefix, alerts: settings.alerts,
      endsWhenEverySymbolRefused: settings.endsWhenEverySymbolRefused, venue: venue,
      activity: FeedActivity(staleAfter: settings.staleAfter, tracksSymbols: settings.tracksSymbols))
    let shell = FeedShell(
      machine: machine, clock: clock, session: session, bus: bus, finishesBus: ownsBus,
      closeTimeout: settings.closeTimeout, recorder: settings.recorder, report: report)
    let silenceLimit = settings.session.silenceTimeout
    statisticsReader.withLock { reader in
      reader = {
        var statistics = shell.statistics()
        statistics.silenceLimit = silenceLimit
        return statistics
      }
    }
    return await shell.run()
  }

  /// The feed's figures now (`--metrics`, `/healthz`); nil before `run()` started. Safe from any
  /// thread; takes the feed's lock briefly.
  public func statistics() -> FeedStatistics? {
    statisticsReader.withLock { $0 }?()
  }

  /// Adds symbols (as typed: each is made canonical for the venue; an invalid one is reported
  /// and changes nothing).
  public func subscribe(_ symbols: [String]) { post(.command(.add(symbols))) }
  /// Removes symbols; a removed symbol's pending price is printed first.
  public func unsubscribe(_ symbols: [String]) { post(.command(.remove(symbols))) }
  /// Makes the subscription exactly `symbols`.
  public func replace(with symbols: [String]) { post(.command(.replace(symbols))) }
  /// A line of the control protocol (`ControlLine`).
  public func control(_ line: String) { post(.controlLine(line)) }
  /// Reports a control line that could not even be read (too long).
  public func reportControlError(_ error: ControlLineError) { post(.controlError(error)) }
  /// Ends the run: unsubscribes, closes with 1000, and `run()` returns `.stopped(reason)`
  /// (the first request wins).
  public func stop(_ reason: StopReason) { post(.stop(reason)) }

  private func post(_ request: FeedPost.Request) {
    session.post(request)
  }
}

extension Feed.Settings {
  /// A feed of a venue's WebSocket endpoint `url` (the token applied if the venue needs one),
  /// opened with `engine`.
  public init(
    provider: any Provider, engine: any WebSocketEngine, url: WebSocketURL,
    connectOptions: ConnectOptions = ConnectOptions(),
    session: SessionConfiguration = SessionConfiguration(),
    mode: PriceStageMode = .default, symbols: [String], ticketPrefix: String = "ticker",
    closeTimeout: Duration = .seconds(1), alerts: [AlertBook.Rule] = [], recorder: (any FeedRecorder)? = nil
  ) {
    self.init(
      provider: provider, source: WebSocketSource(engine: engine, url: url), connectOptions: connectOptions,
      session: session, mode: mode, symbols: symbols, ticketPrefix: ticketPrefix, closeTimeout: closeTimeout,
      alerts: alerts, recorder: recorder)
  }
}
