import FeedServer
import PriceFeed
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
      try? stdout.write(HelpText.version + "\n")
      return .ok
    }

    let config: TickerConfig
    do {
      var file = PartialConfig()
      if let location = ConfigLocation.resolve(explicitPath: command.configPath, environment: environment) {
        file = try ConfigFile.load(location)
        diagnostics = Diagnostics(secrets: [envToken, file.token ?? ""], verbose: false)
        if file.token != nil, let mode = ConfigPermissions.mode(of: location.path),
          let warning = ConfigPermissions.warning(path: location.path, mode: mode)
        {
          diagnostics.warning(warning)
        }
      }
      let env = try EnvironmentConfig.parse(environment)
      config = TickerConfig.resolve(file: file, environment: env, flags: command.config)
    } catch {
      diagnostics.error("\(error)")
      switch error {
      case .fileNotFound, .unreadable: return .noInput
      default: return .config
      }
    }
    diagnostics = Diagnostics(secrets: [envToken, config.token ?? ""], verbose: config.verbose)

    guard let provider = ProviderCatalog.provider(named: config.provider) else {
      diagnostics.error(
        "unknown provider \"\(config.provider)\" (known: \(ProviderCatalog.names.joined(separator: ", ")))")
      return .config
    }

    // Where to connect: the demo's own server, or the provider (with its token).
    var demoServer: FeedServer?
    let url: WebSocketURL
    if command.demo {
      do {
        let server = try FeedServer(
          script: try SessionScript(ndjson: DemoSession.finnhub),
          options: .init(
            maximumDelay: 1, ending: .synthetic(seed: 2026, interval: 0.15),
            awaitSubscriptions: config.symbols.count))
        server.start()
        demoServer = server
        url = provider.endpoint(base: server.url, token: nil)
        diagnostics.info("demo: replaying a recorded Finnhub session from \(server.url)")
      } catch {
        diagnostics.error("cannot start the demo server: \(error)")
        return .software
      }
    } else {
      if provider.requiresToken, (config.token ?? "").isEmpty {
        diagnostics.error(
          "no API token: set FINNHUB_TOKEN (a free key from finnhub.io), or try --demo")
        return .usage
      }
      url = provider.endpoint(base: config.url ?? provider.defaultURL, token: config.token)
    }
    defer { demoServer?.stop() }

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

    let useColor = config.color.resolve(isTerminal: isTerminal(1), environment: environment)
    let runner = TickerRunner(
      provider: provider, engine: selected.engine, url: url, symbols: config.symbols,
      connectOptions: ConnectOptions(
        headers: [("User-Agent", HelpText.version.replacingAll(" ", with: "/"))],
        connectTimeout: config.connectTimeout.seconds,
        maximumMessageSize: config.maxMessageSize, caCertificateFile: config.cacert),
      sessionConfiguration: SessionConfiguration(
        backoff: Backoff(maximumDelay: config.maxBackoff),
        maxRetries: config.maxRetries,
        pingInterval: config.pingInterval == .zero ? nil : config.pingInterval,
        pongTimeout: config.pongTimeout,
        silenceTimeout: config.silenceTimeout == .zero ? nil : config.silenceTimeout),
      stage: PriceStage(mode: config.stageMode),
      sink: QuoteSink(
        formatter: config.format.makeFormatter(useColor: useColor), writer: stdout, limit: config.count),
      diagnostics: diagnostics)
    return report(await runner.run(), diagnostics)
  }

  /// The last word: what ended the run, on stderr, and the exit code.
  static func report(_ outcome: TickerRunner.Outcome, _ diagnostics: Diagnostics) -> ExitCode {
    switch outcome {
    case .countReached:
      return .ok
    case .readerGone:
      return .ok  // `ticker | head -3`: quietly done.
    case .writeFailed(let errno):
      diagnostics.error("cannot write to stdout: \(SystemError.text(errno))")
      return .ioError
    case .signal(let sig):
      return sig == 2 ? .interrupted : .terminated
    case .serverClosed(let status):
      let text = status.map { "\($0)" } ?? "no status"
      if status?.code == .normalClosure {
        diagnostics.note("the server closed the connection (\(text))")
        return .ok
      }
      diagnostics.error("the server closed the connection (\(text))")
      return .unavailable
    case .failed(let error):
      let (code, message) = ErrorReport.describe(error)
      diagnostics.error(message)
      return code
    case .retriesExhausted(let attempts, let last):
      let tries =
        attempts == 0
        ? "no reconnect allowed (--max-retries 0)" : "gave up after \(attempts) reconnect attempt(s)"
      diagnostics.error("\(tries): \(TickerRunner.describe(last))")
      return .retriesExhausted
    }
  }
}

extension Duration {
  var seconds: Double {
    let (s, attoseconds) = components
    return Double(s) + Double(attoseconds) / 1e18
  }
}

extension String {
  func replacingAll(_ target: Character, with replacement: String) -> String {
    split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
  }
}
