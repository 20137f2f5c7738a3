import FeedRuntime
import NATS
import Outputs
import Recording
import Venues
import WebSocketWire

/// Every setting of the ticker, resolved. Built from defaults overridden by each source in turn
/// (flags > environment > config file > defaults) with `resolve(file:environment:flags:)`.
/// `description` and `dump()` never show the token.
public struct TickerConfig: Sendable, Equatable {
  public var provider: String = ProviderCatalog.defaultProvider.name
  public var symbols: [String] = ["BINANCE:BTCUSDT"]
  /// API token; `FINNHUB_TOKEN` is the preferred source.
  public var token: String? = nil
  /// `--url`: endpoints instead of the venues' own, for the run's venue (plain) or one venue each
  /// (`VENUE=URL`).
  public var endpoints: [VenueEndpoint] = []
  /// `--asset`: follow each keyless venue's main market for these assets (`BTC`).
  public var assets: [String] = []
  /// `--venues`: the venues `--asset` follows; empty = every venue it can.
  public var venues: [String] = []
  /// `--spread`: with several venues and `--format json`, the board's computations as records too.
  public var spread: Bool = false
  public var engine: EngineChoice = .auto
  public var debounce: Duration = .milliseconds(500)
  /// nil = the debounce interval.
  public var maxWait: Duration? = nil
  public var everyTrade: Bool = false
  /// `--bid-ask`: each symbol's best bid and ask instead of its trades.
  public var bidAsk: Bool = false
  public var format: OutputFormat = .text
  /// The time column of text, csv and tsv.
  public var timestamps: TimestampChoice = .trade
  public var color: ColorMode = .auto
  public var connectTimeout: Duration = .seconds(10)
  public var maxMessageSize: Int = 16 << 20
  public var compression: CompressionChoice = .on
  /// A PEM file of trusted CA certificates, instead of the system's.
  public var cacert: String? = nil
  /// Exit after printing this many lines; nil = unlimited.
  public var count: Int? = nil
  public var verbose: Bool = false
  /// Reconnects allowed after a transient failure; nil = unlimited, 0 = never reconnect.
  public var maxRetries: Int? = nil
  /// Longest wait between reconnect attempts (the exponential backoff's cap).
  public var maxBackoff: Duration = .seconds(60)
  /// WebSocket ping interval; zero = no pings.
  public var pingInterval: Duration = .seconds(30)
  /// How long a pong may take before the connection counts as dead.
  public var pongTimeout: Duration = .seconds(10)
  /// Silence (no message of any kind) after which the connection counts as dead; zero = off.
  public var silenceTimeout: Duration = .seconds(150)
  /// Trade in a simulated market from a local server speaking the venue's protocol.
  public var demo: Bool = false
  /// Where subscription changes come from while running; nil = nowhere.
  public var control: ControlSource? = nil
  /// A live board on a terminal (one row per symbol, updated in place) instead of lines.
  public var board: Bool = false
  /// `--source`: read the prices another ticker publishes on this NATS server instead of the
  /// venues'.
  public var source: NATSURL? = nil
  /// `--publish`: also send each printed price to this NATS server.
  public var publish: NATSURL? = nil
  /// `--nats-nkey`: a file holding the user NKEY seed for NATS (`--publish`, `--source`).
  public var natsNkey: String? = nil
  /// `--nats-creds`: a NATS credentials file (a user JWT and its seed).
  public var natsCreds: String? = nil
  /// `--publish-stream`: the JetStream stream that keeps each subject's last price.
  public var publishStream: String? = nil
  /// `--publish-buffer`: prices held while NATS is unreachable (the oldest dropped beyond).
  public var publishBuffer: Int = 10_000
  /// `--alert`: a line on stderr each time one of these becomes true.
  public var alerts: [AlertCondition] = []
  /// `--until`: the run ends (exit 0) the first time one of these holds.
  public var until: [AlertCondition] = []
  /// `--on-alert`: a command run through `/bin/sh -c` each time an alert fires.
  public var onAlert: String? = nil
  /// `--record`: append what the feed receives to this file.
  public var record: String? = nil
  /// `--replay`: print this recording instead of connecting.
  public var replay: String? = nil
  /// `--replay`'s pace.
  public var speed: ReplaySpeed = .default
  /// `ticker serve`: the port to listen on (0: any free one).
  public var servePort: Int = 8717
  /// `ticker serve`: the address to listen on.
  public var bind: String = "127.0.0.1"
  /// `ticker serve`: the token clients must pass as `?token=` (required beyond loopback).
  public var serveToken: String? = nil
  /// `ticker serve`: clients beyond this many are refused (HTTP 503).
  public var maxClients: Int = 256
  /// `--metrics`: where Prometheus metrics (`/metrics`) and health (`/healthz`) are served.
  public var metrics: MetricsAddress? = nil
  /// `--metrics-token`: what a scraper must send as `Authorization: Bearer` (needed beyond loopback).
  public var metricsToken: String? = nil
  /// `--stale-after`: a followed symbol with no price for this long, its venue connected and
  /// sending, is reported as stale.
  public var staleAfter: Duration? = nil
  /// `--log-format`: diagnostics on stderr as text or as JSON lines.
  public var logFormat: LogFormat = .text
  /// Which source set each setting that some source set (by `Setting.name`; the last one wins):
  /// what `ConfigConflicts` checks for combinations that make no sense together. Where a value
  /// came from is not part of the configuration's value: two configurations with the same
  /// settings are equal whatever set them.
  public var sources: Provenance = Provenance()

  public init() {}

  /// Defaults, then the file, the environment and the flags, each overriding the one before.
  public static func resolve(
    file: PartialConfig = PartialConfig(),
    environment: PartialConfig = PartialConfig(),
    flags: PartialConfig = PartialConfig()
  ) -> TickerConfig {
    var config = TickerConfig()
    for (layer, source) in [(file, SettingSource.file), (environment, .environment), (flags, .commandLine)] {
      layer.apply(to: &config)
      for name in layer.names { config.sources[name] = source }
    }
    // Symbols nobody gave: the chosen venue's example symbol.
    if ![file, environment, flags].contains(where: { $0.sets("--symbol") }),
      let provider = ProviderCatalog.provider(named: config.provider)
    {
      config.symbols = [provider.exampleSymbol]
    }
    return config
  }

  /// The plain `--url` (the last one given), nil = the provider's default URL.
  public var url: WebSocketURL? { endpoints.last { $0.venue == nil }?.url }

  /// `maxWait`, defaulting to the debounce interval.
  public var effectiveMaxWait: Duration { maxWait ?? debounce }

  /// The pipeline mode these settings ask for.
  public var stageMode: PriceStageMode {
    PriceStageMode(debounce: debounce, maxWait: effectiveMaxWait, everyTrade: everyTrade)
  }
}

extension TickerConfig: CustomStringConvertible, CustomReflectable {
  public var description: String {
    var parts = ["provider: \(provider)", "symbols: \(symbols)"]
    parts.append("token: \(token == nil ? "none" : "set (hidden)")")
    parts.append("url: \(url.map(\.description) ?? "provider default")")
    parts.append("engine: \(engine.rawValue)")
    parts.append("debounce: \(debounce)")
    parts.append("maxWait: \(effectiveMaxWait)")
    parts.append("everyTrade: \(everyTrade)")
    parts.append("format: \(format.rawValue)")
    parts.append("timestamps: \(timestamps.rawValue)")
    parts.append("color: \(color.rawValue)")
    parts.append("connectTimeout: \(connectTimeout)")
    parts.append("maxMessageSize: \(maxMessageSize)")
    parts.append("compression: \(compression.rawValue)")
    parts.append("cacert: \(cacert ?? "system")")
    parts.append("count: \(count.map(String.init) ?? "unlimited")")
    parts.append("verbose: \(verbose)")
    parts.append("maxRetries: \(maxRetries.map(String.init) ?? "unlimited")")
    parts.append("maxBackoff: \(maxBackoff)")
    parts.append("pingInterval: \(pingInterval)")
    parts.append("pongTimeout: \(pongTimeout)")
    parts.append("silenceTimeout: \(silenceTimeout)")
    parts.append("source: \(source.map(\.description) ?? "the venues")")
    parts.append("publish: \(publish.map(\.description) ?? "off")")
    parts.append("publishBuffer: \(publishBuffer)")
    parts.append("publishStream: \(publishStream ?? "none")")
    parts.append("natsNkey: \(natsNkey ?? "none")")
    parts.append("natsCreds: \(natsCreds ?? "none")")
    parts.append("alerts: \(alerts.map(\.description))")
    parts.append("until: \(until.map(\.description))")
    parts.append("servePort: \(servePort)")
    parts.append("bind: \(bind)")
    parts.append("serveToken: \(serveToken == nil ? "none" : "set (hidden)")")
    parts.append("maxClients: \(maxClients)")
    return parts.joined(separator: ", ")
  }

  public var customMirror: Mirror {
    Mirror(self, children: ["description": description])
  }
}

/// Where a setting's value came from.
public enum SettingSource: String, Sendable, Equatable {
  case file = "the config file"
  case environment = "the environment"
  case commandLine = "the command line"
}

/// `TickerConfig.sources`: setting name → the source that set it. Always equal to another, so
/// that it never makes two configurations differ.
public struct Provenance: Sendable, Equatable {
  private var map: [String: SettingSource] = [:]

  public init() {}

  public subscript(name: String) -> SettingSource? {
    get { map[name] }
    set { map[name] = newValue }
  }

  public static func == (_: Provenance, _: Provenance) -> Bool { true }
}
