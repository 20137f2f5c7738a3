/// Settings from environment variables. Empty values count as unset.
///
/// | variable | setting | value |
/// |---|---|---|
/// | `FINNHUB_TOKEN` | token | the API key (preferred over the config file) |
/// | `TICKER_PROVIDER` | provider | `finnhub` |
/// | `TICKER_SYMBOLS` | symbols | comma-separated: `AAPL,BINANCE:BTCUSDT` |
/// | `TICKER_URL` | url | `ws://` or `wss://` URL |
/// | `TICKER_ENGINE` | engine | `auto`, `urlsession`, `native` |
/// | `TICKER_DEBOUNCE` | debounce | seconds ≥ 0 |
/// | `TICKER_MAX_WAIT` | maxWait | seconds ≥ 0 |
/// | `TICKER_EVERY_TRADE` | everyTrade | `1`/`true`/`yes`/`on` or `0`/`false`/`no`/`off` |
/// | `TICKER_FORMAT` | format | `text`, `json` |
/// | `TICKER_COLOR` | color | `auto`, `always`, `never` |
/// | `TICKER_CONNECT_TIMEOUT` | connectTimeout | seconds > 0 |
/// | `TICKER_MAX_MESSAGE_SIZE` | maxMessageSize | bytes |
/// | `TICKER_CACERT` | cacert | PEM file path |
/// | `TICKER_COUNT` | count | whole number ≥ 1 |
/// | `TICKER_VERBOSE` | verbose | boolean as above |
/// | `TICKER_MAX_RETRIES` | maxRetries | whole number ≥ 0 (0 = never reconnect) |
/// | `TICKER_MAX_BACKOFF` | maxBackoff | seconds > 0 |
/// | `TICKER_PING_INTERVAL` | pingInterval | seconds ≥ 0 (0 = no pings) |
/// | `TICKER_PONG_TIMEOUT` | pongTimeout | seconds > 0 |
/// | `TICKER_SILENCE_TIMEOUT` | silenceTimeout | seconds ≥ 0 (0 = no watchdog) |
///
/// `TICKER_CONFIG` (the config file path) is read by `ConfigLocation`; `NO_COLOR` by `ColorMode`.
public enum EnvironmentConfig {
  public static let variables: [String] = [
    "FINNHUB_TOKEN", "TICKER_PROVIDER", "TICKER_SYMBOLS", "TICKER_URL", "TICKER_ENGINE",
    "TICKER_DEBOUNCE", "TICKER_MAX_WAIT", "TICKER_EVERY_TRADE", "TICKER_FORMAT", "TICKER_COLOR",
    "TICKER_CONNECT_TIMEOUT", "TICKER_MAX_MESSAGE_SIZE", "TICKER_CACERT", "TICKER_COUNT",
    "TICKER_MAX_RETRIES", "TICKER_MAX_BACKOFF",
    "TICKER_PING_INTERVAL", "TICKER_PONG_TIMEOUT", "TICKER_SILENCE_TIMEOUT",
    "TICKER_VERBOSE",
  ]

  public static func parse(_ environment: [String: String]) throws(ConfigError) -> PartialConfig {
    var config = PartialConfig()
    func value(_ name: String) -> String? {
      guard let v = environment[name], !v.isEmpty else { return nil }
      return v
    }
    func check<T>(_ name: String, _ parsed: T?, _ requirement: String) throws(ConfigError) -> T {
      guard let parsed else { throw .invalidEnvironment(variable: name, requirement: requirement) }
      return parsed
    }
    config.token = value("FINNHUB_TOKEN")
    if let v = value("TICKER_PROVIDER") {
      config.provider = try check(
        "TICKER_PROVIDER", ProviderCatalog.names.contains(v) ? v : nil, SettingValue.providerRequirement)
    }
    if let v = value("TICKER_SYMBOLS") {
      let list = SettingValue.symbols(v)
      config.symbols = try check("TICKER_SYMBOLS", list.isEmpty ? nil : list, SettingValue.symbolsRequirement)
    }
    if let v = value("TICKER_URL") {
      config.url = try check("TICKER_URL", SettingValue.url(v), SettingValue.urlRequirement(for: v))
    }
    if let v = value("TICKER_ENGINE") {
      config.engine = try check(
        "TICKER_ENGINE", SettingValue.choice(v, as: EngineChoice.self),
        SettingValue.choices(EngineChoice.self))
    }
    if let v = value("TICKER_DEBOUNCE") {
      config.debounce = try check("TICKER_DEBOUNCE", SettingValue.seconds(v), SettingValue.secondsRequirement)
    }
    if let v = value("TICKER_MAX_WAIT") {
      config.maxWait = try check("TICKER_MAX_WAIT", SettingValue.seconds(v), SettingValue.secondsRequirement)
    }
    if let v = value("TICKER_EVERY_TRADE") {
      config.everyTrade = try check(
        "TICKER_EVERY_TRADE", SettingValue.boolean(v), SettingValue.booleanRequirement)
    }
    if let v = value("TICKER_FORMAT") {
      config.format = try check(
        "TICKER_FORMAT", SettingValue.choice(v, as: OutputFormat.self),
        SettingValue.choices(OutputFormat.self))
    }
    if let v = value("TICKER_COLOR") {
      config.color = try check(
        "TICKER_COLOR", SettingValue.choice(v, as: ColorMode.self), SettingValue.choices(ColorMode.self))
    }
    if let v = value("TICKER_CONNECT_TIMEOUT") {
      config.connectTimeout = try check(
        "TICKER_CONNECT_TIMEOUT", SettingValue.seconds(v, allowZero: false),
        SettingValue.positiveSecondsRequirement)
    }
    if let v = value("TICKER_MAX_MESSAGE_SIZE") {
      config.maxMessageSize = try check(
        "TICKER_MAX_MESSAGE_SIZE", SettingValue.messageSize(v), SettingValue.sizeRequirement)
    }
    config.cacert = value("TICKER_CACERT")
    if let v = value("TICKER_COUNT") {
      config.count = try check("TICKER_COUNT", SettingValue.count(v), SettingValue.countRequirement)
    }
    if let v = value("TICKER_MAX_RETRIES") {
      config.maxRetries = try check(
        "TICKER_MAX_RETRIES", SettingValue.retries(v), SettingValue.retriesRequirement)
    }
    if let v = value("TICKER_MAX_BACKOFF") {
      config.maxBackoff = try check(
        "TICKER_MAX_BACKOFF", SettingValue.seconds(v, allowZero: false),
        SettingValue.positiveSecondsRequirement)
    }
    if let v = value("TICKER_PING_INTERVAL") {
      config.pingInterval = try check(
        "TICKER_PING_INTERVAL", SettingValue.seconds(v), SettingValue.secondsRequirement)
    }
    if let v = value("TICKER_PONG_TIMEOUT") {
      config.pongTimeout = try check(
        "TICKER_PONG_TIMEOUT", SettingValue.seconds(v, allowZero: false),
        SettingValue.positiveSecondsRequirement)
    }
    if let v = value("TICKER_SILENCE_TIMEOUT") {
      config.silenceTimeout = try check(
        "TICKER_SILENCE_TIMEOUT", SettingValue.seconds(v), SettingValue.secondsRequirement)
    }
    if let v = value("TICKER_VERBOSE") {
      config.verbose = try check("TICKER_VERBOSE", SettingValue.boolean(v), SettingValue.booleanRequirement)
    }
    return config
  }
}
