import Outputs
import Venues

/// Every setting of the ticker, each declared once. The argument parser, the environment and
/// config-file readers, `--help`, the option table in docs/options.md, `config.example.json` and the shell
/// completions all come from here (tests hold the last three against it). Adding a setting is one
/// declaration here plus its use (a stored property of `TickerConfig`, whose initial value is the
/// default).
public enum Settings {
  public static let all: [Setting] =
    feed + filtering + output + alerts + recording + connection + reconnect + serve + service + general

  static let feed: [Setting] = [
    .value(
      \.provider, key: "provider", flags: ["--provider"], environment: "TICKER_PROVIDER", group: .feed,
      valueName: "NAME", help: "the venue: " + providerList,
      parser: ValueParsers.provider
    ).scoped(sources: [.venue]),
    .value(
      \.symbols, key: "symbols", flags: ["--symbol", "-s"], environment: "TICKER_SYMBOLS", group: .feed,
      valueName: "SYMBOL",
      help: "symbol to follow, in the venue's notation, or VENUE/SYMBOL for another venue ("
        + qualifiedExamples + "); repeat the flag or separate with commas",
      parser: ValueParsers.symbols,
      defaultText: "the venue's example: "
        + ProviderCatalog.all.map { "\($0.exampleSymbol) on \($0.name)" }.joined(separator: ", "),
      accumulate: { $0 + $1 }
    ).scoped(sources: [.venue]),
    .value(
      \.endpoints, key: "url", flags: ["--url"], environment: "TICKER_URL", group: .feed, valueName: "URL",
      help: "WebSocket endpoint instead of the venue's (\(ProviderCatalog.defaultProvider.displayName) still "
        + "gets its token parameter); "
        + "VENUE=URL for one venue of several; repeatable",
      parser: ValueParsers.endpoints, defaultText: "the venue's", accumulate: { $0 + $1 }
    ).scoped(sources: [.venue]),
    .value(
      \.assets, key: "assets", flags: ["--asset"], environment: "TICKER_ASSETS", group: .feed,
      valueName: "ASSET",
      help: "follow ASSET (BTC) on every venue at once: each keyless venue's main market, and "
        + "\(ProviderCatalog.defaultProvider.displayName)'s with a token or in the demo; repeat the flag or "
        + "separate with commas",
      parser: ValueParsers.assets, defaultText: "none", accumulate: { $0 + $1 }
    ).scoped(sources: [.venue]),
    .value(
      \.venues, key: "venues", flags: ["--venues"], environment: "TICKER_VENUES", group: .feed,
      valueName: "LIST",
      help: "the venues --asset follows, separated by commas", parser: ValueParsers.venueNames,
      defaultText: "every venue"
    ).scoped(sources: [.venue]),
    .value(
      \.source, key: "source", flags: ["--source"], environment: "TICKER_SOURCE", group: .feed,
      valueName: "URL",
      help:
        "read the prices another ticker publishes (--publish) from NATS at nats://HOST:PORT (tls:// for TLS) "
        + "instead of the venues; --symbol, --provider and --asset pick the subjects",
      parser: ValueParsers.natsURL.orNil, defaultText: "the venues"
    ).scoped(sources: [.venue]),
    .toggle(
      \.demo, key: nil, flags: ["--demo"], group: .feed,
      help:
        "trade in a simulated market from a local server, in the venue's own messages: no token, no internet; any symbol trades"
    ).scoped(sources: [.venue]),
    .value(
      \.count, key: "count", flags: ["--count"], environment: "TICKER_COUNT", group: .feed, valueName: "N",
      help: "exit 0 after printing N price lines", parser: ValueParsers.count.orNil, defaultText: "unlimited"
    ).scoped(outputs: [.lines, .board]),
    .value(
      \.control, key: nil, flags: ["--control"], group: .feed, valueName: "stdin",
      help: "change the subscription while running, a line each on stdin: +SYM[,SYM…] add, "
        + "-SYM remove, =A,B replace, ? list (on stderr)",
      parser: ValueParsers.control.orNil, defaultText: "off"
    ).scoped(sources: [.venue], outputs: [.lines, .board]),
  ]

  static let filtering: [Setting] = [
    .toggle(
      \.bidAsk, key: "bidAsk", flags: ["--bid-ask"], environment: "TICKER_BID_ASK", group: .filtering,
      help: "follow each symbol's best bid and ask instead of its trades, from the venue's own channel "
        + "for them (every venue but \(ProviderCatalog.defaultProvider.displayName))"
    ).scoped(sources: [.venue], outputs: [.lines, .board]),
    .value(
      \.debounce, key: "debounce", flags: ["--debounce"], environment: "TICKER_DEBOUNCE", group: .filtering,
      valueName: "SECONDS",
      help: "per-symbol quiet time before a price prints; 0 prints every distinct price",
      parser: ValueParsers.seconds(allowZero: true)
    ).scoped(outputs: [.lines]),
    .value(
      \.maxWait, key: "maxWait", flags: ["--max-wait"], environment: "TICKER_MAX_WAIT", group: .filtering,
      valueName: "SECONDS", help: "longest a price may wait under a continuous stream",
      parser: ValueParsers.seconds(allowZero: true).orNil, defaultText: "the debounce interval"
    ).scoped(outputs: [.lines]),
    .toggle(
      \.everyTrade, key: "everyTrade", flags: ["--every-trade"], environment: "TICKER_EVERY_TRADE",
      group: .filtering, help: "print every trade, unfiltered (no debounce, no dedupe)"
    ).scoped(outputs: [.lines]),
  ]

  static let output: [Setting] = [
    .value(
      \.format, key: "format", flags: ["--format"], environment: "TICKER_FORMAT", group: .output,
      valueName: "FORMAT",
      help: "text: TIME<TAB>SYMBOL<TAB>PRICE (aligned, with arrows and change on a terminal); "
        + "json: one object per line; csv, tsv: a header, then rows; price: the bare number",
      parser: ValueParsers.choice(OutputFormat.self)
    ).scoped(outputs: [.lines]),
    .value(
      \.timestamps, key: "timestamps", flags: ["--timestamps"], environment: "TICKER_TIMESTAMPS",
      group: .output, valueName: "WHICH",
      help: "the time column of text, csv and tsv: the trade's, when it was received, or none",
      parser: ValueParsers.choice(TimestampChoice.self)
    ).scoped(outputs: [.lines]),
    .value(
      \.color, key: "color", flags: ["--color"], environment: "TICKER_COLOR", group: .output,
      valueName: "WHEN",
      help: "colour prices by direction (auto: only on a terminal, never when NO_COLOR is set)",
      parser: ValueParsers.choice(ColorMode.self)
    ).scoped(outputs: [.lines, .board]),
    .alias("--no-color", for: \.color, value: .never, group: .output, help: "same as --color never").scoped(
      outputs: [.lines, .board]),
    .toggle(
      \.board, key: "board", flags: ["--board"], environment: "TICKER_BOARD", group: .output,
      help: "on a terminal, one row per symbol updated in place: price, change, sparkline, "
        + "trade time, trades per second; with several venues, grouped by asset with the spreads "
        + "(lines when stdout is not a terminal)"
    ).scoped(outputs: [.lines, .board]),
    .toggle(
      \.spread, key: "spread", flags: ["--spread"], environment: "TICKER_SPREAD", group: .output,
      help: "with several venues and --format json, also a JSON record of each spread and premium "
        + "the board shows, after the price that changed it"
    ).scoped(sources: [.venue], outputs: [.lines]),
    .value(
      \.publish, key: "publish", flags: ["--publish"], environment: "TICKER_PUBLISH", group: .output,
      valueName: "URL",
      help: "also send each printed price to NATS at nats://HOST:PORT (tls:// for TLS): subject "
        + "ticker.<provider>.<symbol>, payload the JSON line",
      parser: ValueParsers.natsURL.orNil, defaultText: "off"
    ).scoped(outputs: [.lines, .board]),
    .value(
      \.publishBuffer, key: "publishBuffer", flags: ["--publish-buffer"],
      environment: "TICKER_PUBLISH_BUFFER",
      group: .output, valueName: "N",
      help: "prices held for --publish while NATS is unreachable; beyond that the oldest are dropped",
      parser: ValueParsers.count
    ).scoped(outputs: [.lines, .board]),
    .value(
      \.publishStream, key: "publishStream", flags: ["--publish-stream"],
      environment: "TICKER_PUBLISH_STREAM", group: .output, valueName: "NAME",
      help: "keep the last price of every subject in JetStream stream NAME (made if missing), so "
        + "that a --source started later begins with every symbol's last price",
      parser: ValueParsers.streamName.orNil, defaultText: "none"
    ).scoped(outputs: [.lines, .board]),
    .value(
      \.natsNkey, key: "natsNkey", flags: ["--nats-nkey"], environment: "TICKER_NATS_NKEY", group: .output,
      valueName: "FILE",
      help: "sign in to NATS (--publish, --source) with the user NKEY seed (SU...) in FILE",
      parser: ValueParsers.path.orNil, defaultText: "none"
    ),
    .value(
      \.natsCreds, key: "natsCreds", flags: ["--nats-creds"], environment: "TICKER_NATS_CREDS",
      group: .output,
      valueName: "FILE",
      help: "sign in to NATS (--publish, --source) with the credentials file FILE (a user JWT and its seed)",
      parser: ValueParsers.path.orNil, defaultText: "none"
    ),
  ]

  static let alerts: [Setting] = [
    .value(
      \.alerts, key: "alerts", flags: ["--alert"], environment: "TICKER_ALERT", group: .alerts,
      valueName: "COND",
      help: "a line on stderr (and the bell on a terminal) when COND becomes true: SYM>PRICE, "
        + "SYM<=PRICE, SYM±2% (a move from the first price); repeatable",
      parser: ValueParsers.conditions, defaultText: "none", accumulate: { $0 + $1 }
    ).scoped(outputs: [.lines, .board]),
    .value(
      \.until, key: "until", flags: ["--until"], environment: "TICKER_UNTIL", group: .alerts,
      valueName: "COND",
      help: "exit 0 the first time COND holds (as --alert); exit 1 if the run ends before; repeatable",
      parser: ValueParsers.conditions, defaultText: "none", accumulate: { $0 + $1 }
    ).scoped(outputs: [.lines, .board]),
    .value(
      \.onAlert, key: "onAlert", flags: ["--on-alert"], environment: "TICKER_ON_ALERT", group: .alerts,
      valueName: "CMD",
      help: "run CMD with /bin/sh -c each time an --alert or --until fires, the alert in its environment "
        + "(TICKER_ALERT, TICKER_PROVIDER, TICKER_SYMBOL, TICKER_PRICE, TICKER_TIME); its output on stderr",
      parser: ValueParsers.command.orNil, defaultText: "none"
    ).scoped(outputs: [.lines, .board]),
  ]

  static let recording: [Setting] = [
    .value(
      \.record, key: nil, flags: ["--record"], group: .recording, valueName: "FILE",
      help: "append every frame received, with its time, to FILE (NDJSON; a new run section if it "
        + "is a recording already)",
      parser: ValueParsers.path.orNil, defaultText: "off"
    ).scoped(sources: [.venue]),
    .value(
      \.replay, key: nil, flags: ["--replay"], group: .recording, valueName: "FILE",
      help: "print a recording instead of connecting (venue and symbols from the file): the lines "
        + "the live run printed with the same settings",
      parser: ValueParsers.path.orNil, defaultText: "off"
    ).scoped(sources: [.recording]),
    .value(
      \.speed, key: nil, flags: ["--speed"], group: .recording, valueName: "X|max",
      help: "--replay's pace: 1 as recorded, 2 twice as fast, max without waiting",
      parser: ValueParsers.speed
    ).scoped(sources: [.recording]),
  ]

  static let connection: [Setting] = [
    .value(
      \.engine, key: "engine", flags: ["--engine"], environment: "TICKER_ENGINE", group: .connection,
      valueName: "ENGINE",
      help: "WebSocket engine (auto: URLSession where it handles WebSockets correctly, else native)",
      parser: ValueParsers.choice(EngineChoice.self)
    ).scoped(sources: [.venue]),
    .value(
      \.cacert, key: "cacert", flags: ["--cacert"], environment: "TICKER_CACERT", group: .connection,
      valueName: "FILE",
      help: "also trust the CA certificates in this PEM file (wss://, and tls:// for NATS)",
      parser: ValueParsers.path.orNil,
      defaultText: "the system store only"
    ).scoped(sources: [.venue]),
    .value(
      \.connectTimeout, key: "connectTimeout", flags: ["--connect-timeout"],
      environment: "TICKER_CONNECT_TIMEOUT",
      group: .connection, valueName: "SECONDS", help: "limit for name lookup + TCP + TLS + upgrade",
      parser: ValueParsers.seconds(allowZero: false)
    ).scoped(sources: [.venue]),
    .value(
      \.maxMessageSize, key: "maxMessageSize", flags: ["--max-message-size"],
      environment: "TICKER_MAX_MESSAGE_SIZE", group: .connection, valueName: "BYTES",
      help: "largest message accepted, after decompression (bigger: close 1009)", parser: ValueParsers.bytes),
    .value(
      \.compression, key: "compression", flags: ["--compression"], environment: "TICKER_COMPRESSION",
      group: .connection, valueName: "COMPRESSION",
      help: "offer permessage-deflate, which the server may take (off: never offer it)",
      parser: ValueParsers.choice(CompressionChoice.self)
    ).scoped(sources: [.venue]),
  ]

  static let reconnect: [Setting] = [
    .value(
      \.maxRetries, key: "maxRetries", flags: ["--max-retries"], environment: "TICKER_MAX_RETRIES",
      group: .reconnect, valueName: "N",
      help: "reconnects allowed in a row after transient failures; 0 = never",
      parser: ValueParsers.retries.orNil, defaultText: "unlimited"
    ).scoped(sources: [.venue]),
    .value(
      \.maxBackoff, key: "maxBackoff", flags: ["--max-backoff"], environment: "TICKER_MAX_BACKOFF",
      group: .reconnect, valueName: "SECONDS", help: "longest wait between reconnects",
      parser: ValueParsers.seconds(allowZero: false)
    ).scoped(sources: [.venue]),
    .value(
      \.pingInterval, key: "pingInterval", flags: ["--ping-interval"], environment: "TICKER_PING_INTERVAL",
      group: .reconnect, valueName: "SECONDS", help: "WebSocket ping interval; 0 = no pings",
      parser: ValueParsers.secondsOrOff
    ).scoped(sources: [.venue]),
    .value(
      \.pongTimeout, key: "pongTimeout", flags: ["--pong-timeout"], environment: "TICKER_PONG_TIMEOUT",
      group: .reconnect, valueName: "SECONDS", help: "a pong later than this means the connection is dead",
      parser: ValueParsers.seconds(allowZero: false)
    ).scoped(sources: [.venue]),
    .value(
      \.silenceTimeout, key: "silenceTimeout", flags: ["--silence-timeout"],
      environment: "TICKER_SILENCE_TIMEOUT", group: .reconnect, valueName: "SECONDS",
      help: "no message at all for this long means the connection is dead; 0 = off",
      parser: ValueParsers.secondsOrOff
    ).scoped(sources: [.venue]),
  ]

  static let serve: [Setting] = [
    .value(
      \.servePort, key: "servePort", flags: ["--port"], environment: "TICKER_SERVE_PORT", group: .serve,
      valueName: "PORT", help: "ticker serve: the port to listen on (0: any free port)",
      parser: ValueParsers.port
    ).scoped(outputs: [.serve]),
    .value(
      \.bind, key: "bind", flags: ["--bind"], environment: "TICKER_SERVE_BIND", group: .serve,
      valueName: "ADDRESS",
      help: "ticker serve: the address to listen on; anything but loopback needs --serve-token",
      parser: ValueParsers.address
    ).scoped(outputs: [.serve]),
    .value(
      \.serveToken, key: "serveToken", flags: ["--serve-token"], environment: "TICKER_SERVE_TOKEN",
      group: .serve, valueName: "TOKEN",
      help: "ticker serve: clients must pass it as ?token= (never the upstream's token)",
      parser: ValueParsers.token.orNil, defaultText: "none"
    ).scoped(outputs: [.serve]),
    .value(
      \.maxClients, key: "maxClients", flags: ["--max-clients"], environment: "TICKER_MAX_CLIENTS",
      group: .serve, valueName: "N", help: "ticker serve: more clients are refused with HTTP 503",
      parser: ValueParsers.clients
    ).scoped(outputs: [.serve]),
  ]

  static let service: [Setting] = [
    .value(
      \.metrics, key: "metrics", flags: ["--metrics"], environment: "TICKER_METRICS", group: .service,
      valueName: "HOST:PORT",
      help: "serve Prometheus metrics at /metrics and health at /healthz over HTTP on HOST:PORT (a port "
        + "alone: 127.0.0.1); anything but loopback needs --metrics-token",
      parser: ValueParsers.metricsAddress.orNil, defaultText: "off"),
    .value(
      \.metricsToken, key: "metricsToken", flags: ["--metrics-token"], environment: "TICKER_METRICS_TOKEN",
      group: .service, valueName: "TOKEN",
      help: "--metrics: scrapers must send it as Authorization: Bearer TOKEN",
      parser: ValueParsers.token.orNil, defaultText: "none"),
    .value(
      \.staleAfter, key: "staleAfter", flags: ["--stale-after"], environment: "TICKER_STALE_AFTER",
      group: .service, valueName: "SECONDS",
      help: "report a followed symbol without a price for this long, its venue connected and sending "
        + "(stderr, the board, metrics, /healthz)",
      parser: ValueParsers.seconds(allowZero: false).orNil, defaultText: "off"
    ).scoped(sources: [.venue]),
    .value(
      \.logFormat, key: "logFormat", flags: ["--log-format"], environment: "TICKER_LOG_FORMAT",
      group: .service, valueName: "FORMAT",
      help: "diagnostics on stderr: text for people, json for one object a line (journald, Loki, jq)",
      parser: ValueParsers.choice(LogFormat.self)),
  ]

  static let general: [Setting] = [
    .toggle(
      \.verbose, key: "verbose", flags: ["--verbose", "-v"], environment: "TICKER_VERBOSE", group: .general,
      help: "say what happens on stderr (engine choice, connection, what was dropped)"),
    .value(
      \.token, key: "token", environment: ProviderCatalog.tokenVariable, group: .general, valueName: "TOKEN",
      help:
        "the \(ProviderCatalog.defaultProvider.displayName) API key (never printed; there is no --token flag)",
      parser: ValueParsers.token.orNil,
      defaultText: "none", listed: false),
  ]

  /// `VENUE/SYMBOL` for two keyless venues of the catalog (`upbit/KRW-BTC, binance/BTCUSDT`).
  static var qualifiedExamples: String {
    ProviderCatalog.all.filter { !$0.requiresToken }.prefix(2).map { "\($0.name)/\($0.exampleSymbol)" }
      .joined(separator: ", ")
  }

  /// The venues for help, each with the variable of its key where it needs one:
  /// `finnhub (needs FINNHUB_TOKEN), upbit, binance or coinbase`.
  static var providerList: String {
    let names = ProviderCatalog.all.map { provider in
      provider.name + (provider.requiresToken ? " (needs \(provider.tokenVariable ?? "a token"))" : "")
    }
    return names.dropLast().joined(separator: ", ") + (names.count > 1 ? " or " : "") + (names.last ?? "")
  }

  /// The setting a flag names (`--max-wait`, `-s`), if any.
  public static func setting(forFlag flag: String) -> Setting? {
    all.first { $0.flags.contains(flag) }
  }

  /// The setting a config-file key names, if any.
  public static func setting(forKey key: String) -> Setting? {
    all.first { $0.key == key }
  }

  /// Every config-file key, in declaration order.
  public static var keys: [String] { all.compactMap(\.key) }

  /// Every flag, long and short, including the command flags.
  public static var flags: [String] { all.flatMap(\.flags) + CommandFlag.allCases.flatMap(\.flags) }
}

/// Flags that are not settings: they pick what the command does.
public enum CommandFlag: String, Sendable, CaseIterable {
  case config, help, version

  public var flags: [String] {
    switch self {
    case .config: ["--config"]
    case .help: ["--help", "-h"]
    case .version: ["--version"]
    }
  }

  public var valueName: String? { self == .config ? "FILE" : nil }

  public var help: String {
    switch self {
    case .config: "settings file (JSON; see config.example.json); also $TICKER_CONFIG"
    case .help: "show this help"
    case .version: "show the version"
    }
  }
}
