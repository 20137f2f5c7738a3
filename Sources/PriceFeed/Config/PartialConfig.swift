import WebSocketClient

/// Settings from one source (flags, environment or config file): nil = not set there.
/// `description` and `dump()` never show the token.
public struct PartialConfig: Sendable, Equatable {
  public var provider: String?
  public var symbols: [String]?
  public var token: String?
  public var url: WebSocketURL?
  public var engine: EngineChoice?
  public var debounce: Duration?
  public var maxWait: Duration?
  public var everyTrade: Bool?
  public var format: OutputFormat?
  public var color: ColorMode?
  public var connectTimeout: Duration?
  public var maxMessageSize: Int?
  public var cacert: String?
  public var count: Int?
  public var verbose: Bool?
  public var maxRetries: Int?
  public var maxBackoff: Duration?
  public var pingInterval: Duration?
  public var pongTimeout: Duration?
  public var silenceTimeout: Duration?

  public init() {}

  /// Overwrites the settings of `config` that this source sets.
  public func apply(to config: inout TickerConfig) {
    if let provider { config.provider = provider }
    if let symbols { config.symbols = symbols }
    if let token { config.token = token }
    if let url { config.url = url }
    if let engine { config.engine = engine }
    if let debounce { config.debounce = debounce }
    if let maxWait { config.maxWait = maxWait }
    if let everyTrade { config.everyTrade = everyTrade }
    if let format { config.format = format }
    if let color { config.color = color }
    if let connectTimeout { config.connectTimeout = connectTimeout }
    if let maxMessageSize { config.maxMessageSize = maxMessageSize }
    if let cacert { config.cacert = cacert }
    if let count { config.count = count }
    if let verbose { config.verbose = verbose }
    if let maxRetries { config.maxRetries = maxRetries }
    if let maxBackoff { config.maxBackoff = maxBackoff }
    if let pingInterval { config.pingInterval = pingInterval }
    if let pongTimeout { config.pongTimeout = pongTimeout }
    if let silenceTimeout { config.silenceTimeout = silenceTimeout }
  }

  /// Whether no setting is set.
  public var isEmpty: Bool { self == PartialConfig() }
}

extension PartialConfig: CustomStringConvertible, CustomReflectable {
  public var description: String {
    var parts: [String] = []
    if let provider { parts.append("provider: \(provider)") }
    if let symbols { parts.append("symbols: \(symbols)") }
    if token != nil { parts.append("token: set (hidden)") }
    if let url { parts.append("url: \(url)") }
    if let engine { parts.append("engine: \(engine.rawValue)") }
    if let debounce { parts.append("debounce: \(debounce)") }
    if let maxWait { parts.append("maxWait: \(maxWait)") }
    if let everyTrade { parts.append("everyTrade: \(everyTrade)") }
    if let format { parts.append("format: \(format.rawValue)") }
    if let color { parts.append("color: \(color.rawValue)") }
    if let connectTimeout { parts.append("connectTimeout: \(connectTimeout)") }
    if let maxMessageSize { parts.append("maxMessageSize: \(maxMessageSize)") }
    if let cacert { parts.append("cacert: \(cacert)") }
    if let count { parts.append("count: \(count)") }
    if let verbose { parts.append("verbose: \(verbose)") }
    if let maxRetries { parts.append("maxRetries: \(maxRetries)") }
    if let maxBackoff { parts.append("maxBackoff: \(maxBackoff)") }
    if let pingInterval { parts.append("pingInterval: \(pingInterval)") }
    if let pongTimeout { parts.append("pongTimeout: \(pongTimeout)") }
    if let silenceTimeout { parts.append("silenceTimeout: \(silenceTimeout)") }
    return "PartialConfig(" + parts.joined(separator: ", ") + ")"
  }

  public var customMirror: Mirror {
    Mirror(self, children: ["description": description])
  }
}
