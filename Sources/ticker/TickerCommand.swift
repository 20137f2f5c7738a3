import CLI
import Emulators
import FeedRuntime
import Gateway
import NATS
import Outputs
import Recording
import Synchronization
import TickerSupport
import Venues
import WebSocketClient

/// The command: arguments → configuration → provider, engine and pipeline → run → exit code.
enum TickerCommand {
  static func run(arguments: [String], environment: [String: String]) async -> ExitCode {
    let envToken = environment["FINNHUB_TOKEN"] ?? ""
    var diagnostics = Diagnostics(secrets: [envToken], verbose: false)
    let stdout = FileDescriptorWriter(fd: 1)

    let command: ParsedCommand
    do {
      command = try ArgumentParser.parse(arguments)
    } catch {
      diagnostics.error("\(error)")
      return .usage
    }
    if command.help {
      try? stdout.write(HelpText.usage)
      return .ok
    }
    if command.version {
      // Linked in, OpenSSL's security updates need a new build: say which one is inside.
      let openSSL = OpenSSLLinkage.linkedVersion.map { "\($0), linked in\n" } ?? ""
      try? stdout.write(HelpText.version + "\n" + openSSL)
      return .ok
    }
    if let shell = command.completions {
      try? stdout.write(CompletionScript.script(for: shell))
      return .ok
    }

    let config: TickerConfig
    // Said after the companion's turn (below), so that it is said once.
    var permissionWarning: String?
    do {
      var file = PartialConfig()
      if let location = ConfigLocation.resolve(explicitPath: command.configPath, environment: environment) {
        file = try ConfigFile.load(location)
        let fileToken = file.resolved.token
        diagnostics = Diagnostics(secrets: [envToken, fileToken ?? ""], verbose: false)
        if fileToken != nil, let mode = ConfigPermissions.mode(of: location.path) {
          permissionWarning = ConfigPermissions.warning(path: location.path, mode: mode)
        }
      }
      let env = try EnvironmentConfig.parse(environment)
      config = TickerConfig.resolve(file: file, environment: env, flags: command.config)
    } catch {
      if let permissionWarning { diagnostics.warning(permissionWarning) }
      diagnostics.error("\(error)")
      switch error {
      case .fileNotFound, .unreadable: return .noInput
      default: return .config
      }
    }
    // The token and any NATS password or token are removed from everything said on stderr.
    let secrets = [envToken, config.token ?? ""] + (config.publish?.secrets ?? [])
    diagnostics = Diagnostics(secrets: secrets, verbose: config.verbose)
    if let code = URLSessionAccess.runCompanionIfWanted(config, arguments: arguments, diagnostics) {
      return code
    }
    if let permissionWarning { diagnostics.warning(permissionWarning) }
    // OpenSSL reads the CA file at connect time; a FIFO there would hang every connection.
    if let cacert = config.cacert, let problem = FileKind.problemReadingRegularFile(cacert) {
      diagnostics.error("cannot use the CA file \(cacert): \(problem)")
      return .noInput
    }

    for conflict in ConfigConflicts.check(config) {
      if conflict.fatal {
        diagnostics.error("\(conflict)")
        return .usage
      }
      diagnostics.warning("\(conflict)")
    }

    if command.serve, let refusal = ServeCommand.refusal(config) {
      diagnostics.error(refusal)
      return .usage
    }
    let unused = ServeCommand.unused(config, serving: command.serve)
    if !unused.isEmpty {
      diagnostics.warning(
        "\(unused.joined(separator: ", ")) "
          + (command.serve
            ? "apply only when printing prices, not to ticker serve" : "apply only to ticker serve"))
    }
    if let path = config.replay, command.serve {
      return await ReplayCommand.serve(path: path, config: config, diagnostics: diagnostics)
    }
    if let path = config.replay {
      return await ReplayCommand.run(
        path: path, config: config, environment: environment, diagnostics: diagnostics)
    }

    guard let provider = ProviderCatalog.provider(named: config.provider) else {
      diagnostics.error(
        "unknown provider \"\(config.provider)\" (known: \(ProviderCatalog.names.joined(separator: ", ")))")
      return .config
    }
    var symbols: [String] = []
    // `serve` follows what its clients ask for, plus the symbols given (none by default).
    let given = command.serve && config.sources["--symbol"] == nil ? [] : config.symbols
    for symbol in given {
      switch provider.canonicalSymbol(symbol) {
      case .success(let canonical): if !symbols.contains(canonical) { symbols.append(canonical) }
      case .failure(let error):
        diagnostics.error("\"\(symbol)\" is not a \(provider.displayName) symbol: \(error)")
        return .usage
      }
    }

    guard let alerts = Self.alertRules(config, provider: provider, symbols: symbols, diagnostics) else {
      return .usage
    }

    // Where to connect: the demo's own server, or the venue (with its token).
    var demoServer: FeedServer?
    let url: WebSocketURL
    if config.demo {
      do {
        // The venue's recorded session in its own wire format, then a seeded random walk; any
        // other symbol the venue could list is accepted and walks from a start of its own.
        guard let venue = Venue(provider: provider.name) else {
          diagnostics.error("no demo session for \(provider.displayName)")
          return .software
        }
        let server = try FeedServer(
          script: try SessionScript(ndjson: DemoSession.script(for: venue)),
          options: ServeCommand.demoOptions(
            .init(
              maximumDelay: 1, emulation: .init(venue), ending: .synthetic(seed: 2026, interval: 0.15),
              awaitSubscriptions: symbols.count, acceptAnySymbol: true,
              // Compressed, as most venues' servers do when asked: the demo exercises the path.
              compression: .init()), serving: command.serve))
        server.start()
        demoServer = server
        url = provider.endpoint(base: server.url, token: nil)
        let recorded = DemoSession.recordedSymbols(for: venue).joined(separator: ", ")
        diagnostics.info(
          "demo: replaying a recorded \(provider.displayName) session (\(recorded)) from \(server.url); "
            + "other symbols get a simulated walk")
      } catch {
        diagnostics.error("cannot start the demo server: \(error)")
        return .software
      }
    } else {
      if provider.requiresToken, (config.token ?? "").isEmpty {
        let variable = provider.tokenVariable ?? "the API token"
        diagnostics.error("no API token: set \(variable) (a free key from finnhub.io), or try --demo")
        return .usage
      }
      url = provider.endpoint(base: config.url ?? provider.defaultURL, token: config.token)
    }
    defer { demoServer?.stop() }

    let recording = RecordingTarget()
    var recorder: Recorder?
    if let path = config.record {
      do {
        recorder = try Recorder.open(
          path: path,
          header: RecordingHeader(
            provider: provider.name, symbols: symbols, startedMilliseconds: WallClock.epochMilliseconds()),
          onFailure: { [diagnostics] code in
            diagnostics.error("cannot write the recording \(path): \(FailureText.systemError(code))")
            recording.failed(code)
          })
      } catch {
        diagnostics.error("\(error)")
        return .cannotCreate
      }
      diagnostics.info("recording to \(path)")
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
      return .unavailable
    }
    diagnostics.info("engine \(selected.engine.name): \(selected.reason)")
    diagnostics.info("connecting to \(url) with the \(selected.engine.name) engine")
    if command.serve {
      // `serve --record`: the upstream as serve sees it (every trade; the clients' subscription
      // changes as commands), replayable with `--replay` or `serve --replay`.
      var settings = feedSettings(
        config, provider: provider,
        engine: NegotiationReportingEngine(selected.engine, diagnostics: diagnostics),
        url: url, symbols: symbols)
      settings.recorder = recorder
      let code = await ServeCommand.run(
        config: config, settings: settings, stdout: stdout, diagnostics: diagnostics)
      return recording.failure != nil ? .ioError : code
    }

    let useColor = config.color.resolve(isTerminal: isTerminal(1), environment: environment)
    // For eyes on a terminal:
    // - `--board` draws only when stdout is a terminal that can place the cursor; otherwise it
    //   falls back to lines (never an escape byte into a pipe or a file). The board takes every
    //   trade (it redraws at most 10 times a second itself, and counts trades per second), and
    //   holds stderr's lines while it is up (the latest in its status line, all of them written
    //   once the terminal is restored).
    // - `--format text` on a terminal: aligned columns, an arrow and the change since the start
    //   (`TerminalLineFormatter`); in a pipe or a file the tab-separated lines as before.
    let stdoutIsTerminal = isTerminal(1)
    var board: BoardOutput?
    if config.board, stdoutIsTerminal, environment["TERM"] != "dumb" {
      // What the board does not use while it draws (it applies again when stdout is not a terminal).
      let unused = ["--debounce", "--max-wait", "--every-trade", "--format", "--timestamps"]
        .filter { config.sources[$0] != nil }
      if !unused.isEmpty {
        diagnostics.warning(
          "--board shows every trade as a board on this terminal: \(unused.joined(separator: ", ")) "
            + "apply only when stdout is not a terminal")
      }
      let made = BoardOutput(
        screen: TerminalScreen(fd: 1), provider: provider,
        venue: provider.displayName + (config.demo ? " (demo)" : ""), symbols: symbols, useColor: useColor,
        limit: config.count)
      diagnostics = Diagnostics(secrets: secrets, verbose: config.verbose, write: made.diagnostic)
      board = made
    }
    let formatter = config.format.makeFormatter(
      FormatContext(
        useColor: useColor, provider: provider.name, timestamps: config.timestamps,
        isTerminal: stdoutIsTerminal,
        symbols: symbols.map(provider.serverSymbol(for:))))
    var settings = feedSettings(
      config, provider: provider,
      engine: NegotiationReportingEngine(selected.engine, diagnostics: diagnostics),
      url: url, symbols: symbols, alerts: alerts)
    settings.mode = board == nil ? config.stageMode : .everyTrade
    settings.recorder = recorder
    let reports = ReportWriter<ContinuousClock.Instant>(
      diagnostics: diagnostics, provider: provider, now: { ContinuousClock.now }, bell: isTerminal(2))
    let feed = Feed(settings) { [board] in
      reports.write($0)
      board?.report($0)
    }
    recording.feed = feed
    // Signals are caught before the board takes the terminal: a Ctrl-C then always restores it.
    let signals = SignalWatcher(beforeImmediateExit: { [board] in board?.restore() }) {
      feed.stop(.signal($0))
    }
    defer { signals.cancel() }
    let output =
      board?.start(on: feed)
      ?? StdoutOutput.start(
        on: feed, writer: QuoteWriter(formatter: formatter, writer: stdout, limit: config.count))
    if config.control == .stdin { ControlReader.start(fd: 0, feed: feed) }
    let publishing = config.publish.map { url in
      Self.startPublishing(to: url, config: config, feed: feed, provider: provider, diagnostics: diagnostics)
    }

    let outcome = await feed.run()
    await output.value
    await publishing?.value
    reports.summary()
    if recording.failure != nil { return .ioError }
    return ErrorReport.report(outcome, provider: provider, awaitingUntil: !config.until.isEmpty, diagnostics)
  }

  /// `--alert` and `--until` rules: their symbols in the venue's notation, and among those
  /// followed; nil (after saying why) when one is not.
  static func alertRules(
    _ config: TickerConfig, provider: any Provider, symbols: [String], _ diagnostics: Diagnostics
  ) -> [AlertBook.Rule]? {
    var alerts: [AlertBook.Rule] = []
    for (conditions, ends, flag) in [(config.alerts, false, "--alert"), (config.until, true, "--until")] {
      for var condition in conditions {
        guard case .success(let canonical) = provider.canonicalSymbol(condition.symbol) else {
          diagnostics.error(
            "\(flag) \(condition): \"\(condition.symbol)\" is not a \(provider.displayName) symbol")
          return nil
        }
        guard symbols.contains(canonical) else {
          diagnostics.error(
            "\(flag) \(condition): \(canonical) is not followed (add --symbol \(canonical)); "
              + "following \(symbols.joined(separator: ", "))")
          return nil
        }
        condition.symbol = canonical
        alerts.append(AlertBook.Rule(condition: condition, ends: ends))
      }
    }
    return alerts
  }

  /// The upstream feed the settings describe (`mode` is the configured one; callers adjust it).
  static func feedSettings(
    _ config: TickerConfig, provider: any Provider, engine: any WebSocketEngine, url: WebSocketURL,
    symbols: [String], alerts: [AlertBook.Rule] = []
  ) -> Feed.Settings {
    Feed.Settings(
      provider: provider, engine: engine, url: url,
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
        silenceTimeout: config.silenceTimeout == .zero ? nil : config.silenceTimeout),
      mode: config.stageMode, symbols: symbols, ticketPrefix: Self.ticketPrefix(), alerts: alerts)
  }

  /// `--publish`: every price the feed prints also goes to NATS; nothing there ever stops or
  /// slows the feed (docs/nats.md).
  static func startPublishing(
    to url: NATSURL, config: TickerConfig, feed: any QuoteFeed, provider: any Provider,
    diagnostics: Diagnostics
  ) -> Task<Void, Never> {
    let reports = NATSReportWriter(diagnostics: diagnostics, url: url)
    let publisher = NATSPublisher(
      .init(
        url: url, version: String(HelpText.version.split(separator: " ").last ?? ""),
        bufferCapacity: config.publishBuffer),
      report: { reports.write($0) })
    return PublishOutput.start(
      on: feed, publisher: publisher, provider: provider.name, limit: config.count,
      tooLong: { [diagnostics] symbol in
        diagnostics.warning("not publishing \(symbol): its NATS subject would be too long")
      })
  }

  /// A prefix that makes this run's venue tickets unique (Upbit): "ticker-" and 8 hex digits.
  static func ticketPrefix() -> String {
    var random = SystemRandomNumberGenerator()
    let digits = String(random.next() & 0xFFFF_FFFF, radix: 16)
    return "ticker-" + String(repeating: "0", count: 8 - digits.count) + digits
  }
}

extension String {
  func replacingAll(_ target: Character, with replacement: String) -> String {
    split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
  }
}

/// Where a failed `--record` write reports to: the run stops (exit 74).
final class RecordingTarget: Sendable {
  private let state = Mutex<(feed: Feed?, failure: Int32?)>((nil, nil))

  var feed: Feed? {
    get { state.withLock { $0.feed } }
    set { state.withLock { $0.feed = newValue } }
  }

  var failure: Int32? { state.withLock { $0.failure } }

  func failed(_ code: Int32) {
    let feed = state.withLock { state -> Feed? in
      state.failure = code
      return state.feed
    }
    feed?.stop(.writeFailed(code))
  }
}
