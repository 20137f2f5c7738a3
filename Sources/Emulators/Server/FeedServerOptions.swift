import WebSocketClient

extension FeedServer {
  public struct Options: Sendable {
    /// How the server behaves towards each client: as one venue does, or as a plain replay.
    public enum Emulation: Sendable, Equatable {
      /// As the venue does (its emulator, `Venue.emulated`): its subscribe requests and errors,
      /// its wire format, its keepalive and limits.
      case venue(Venue)
      /// Send the script's server messages as they are, ignoring what the client says.
      case verbatim

      public static var finnhub: Emulation { .venue(.finnhub) }
      public static var upbit: Emulation { .venue(.upbit) }
      public static var binance: Emulation { .venue(.binance) }
      public static var coinbase: Emulation { .venue(.coinbase) }

      /// The emulation of the provider named `name` as the ticker's `--provider` spells it
      /// (`finnhub`, `upbit`, `binance`, `coinbase`); nil for any other name.
      public init?(provider name: String) {
        guard let venue = Venue(provider: name) else { return nil }
        self.init(venue)
      }

      /// The request target the venue serves its feed on (`FeedServer.url` uses it).
      public var path: String { venue?.emulated.path ?? "/" }
    }
    public typealias Ending = ConnectionPlan.Ending

    public var host: String
    public var port: Int
    /// Factor applied to every `after_ms` (0 = as fast as possible).
    public var timeScale: Double
    /// Upper bound for one step's delay, in seconds, after scaling.
    public var maximumDelay: Double?
    public var emulation: Emulation
    public var ending: Ending
    /// `Retry-After` seconds to send with a non-101 handshake answer.
    public var retryAfter: Int?
    /// The replay starts once this many subscription requests (valid or not) have arrived, or
    /// (Upbit, Binance, Coinbase) this many symbols are subscribed, so a client that subscribes
    /// to several symbols gets all of their trades however fast the replay runs.
    public var awaitSubscriptions: Int
    /// Per-connection plans (the nth connection gets the nth, the last repeats); empty = every
    /// connection gets the script's handshake, the script, and `ending`.
    public var plans: [ConnectionPlan]
    /// `.blast` endings mix `BlastFrames.hostile` into every batch of 1000 messages (soak runs).
    public var hostileBlast = false
    /// The venues' timings and limits (real values by default; `VenueRules.scaled(by:)` for
    /// fast tests).
    public var rules: VenueRules
    /// The demo's leniency: every well-formed symbol of the venue is accepted (Finnhub answers no
    /// `Invalid symbol`, Coinbase no "not a valid product"), and a `.synthetic` ending walks each
    /// subscribed symbol the script never traded from a start price picked by the seed and the
    /// symbol (`WalkStart`). Off, the emulations refuse or starve unknown symbols as the venues
    /// do (Upbit and Binance accept them and send nothing).
    public var acceptAnySymbol: Bool
    /// permessage-deflate (RFC 7692): nil (the default), the extension is never agreed; else a
    /// client's offer is answered under this policy (`PerMessageDeflate.serverAgreement`), and
    /// with an agreement every data message the server sends goes out compressed when that makes
    /// it smaller (blasts too: see `BlastFrames.compressed`), and the client's compressed
    /// messages are inflated. `Record.deflateAgreements` keeps what was agreed.
    public var compression: PerMessageDeflate.ServerPolicy?

    public init(
      host: String = "127.0.0.1", port: Int = 0, timeScale: Double = 1, maximumDelay: Double? = nil,
      emulation: Emulation = .finnhub,
      ending: Ending = .close(CloseStatus(code: .normalClosure, reason: "replay finished")),
      retryAfter: Int? = nil, awaitSubscriptions: Int = 1, plans: [ConnectionPlan] = [],
      rules: VenueRules = VenueRules(), acceptAnySymbol: Bool = false,
      compression: PerMessageDeflate.ServerPolicy? = nil
    ) {
      self.acceptAnySymbol = acceptAnySymbol
      self.compression = compression
      self.awaitSubscriptions = awaitSubscriptions
      self.plans = plans
      self.host = host
      self.port = port
      self.timeScale = timeScale
      self.maximumDelay = maximumDelay
      self.emulation = emulation
      self.ending = ending
      self.retryAfter = retryAfter
      self.rules = rules
    }
  }
}

/// Timings and limits the emulations enforce, in seconds. The defaults are the venues' own
/// (docs/protocols.md); tests shorten the durations with `scaled(by:)` or set them one by one.
public struct VenueRules: Sendable, Equatable {
  /// Binance: a ping frame every this many seconds; nil = never.
  public var pingInterval: Double? = 20
  /// Binance: a ping not answered by a pong echoing its payload within this many seconds gets
  /// the connection dropped.
  public var pongTimeout: Double = 60
  /// Binance: client frames allowed per `rateWindow` (text, binary, ping and pong alike); one
  /// more closes with 1008. Upbit: requests allowed per `rateWindow` (every text or binary
  /// message, `PING` included). Kraken: requests allowed per `rateWindow`; one more is refused
  /// with `Exceeded msg rate`.
  public var messagesPerWindow: Int = 5
  /// The sliding window of `messagesPerWindow`, in seconds.
  public var rateWindow: Double = 1
  /// Upbit: requests allowed per minute (sliding), besides the per-second limit.
  public var requestsPerMinute: Int = 100
  /// Coinbase: seconds after the upgrade by which a successful subscribe must have arrived.
  public var subscribeDeadline: Double? = 5
  /// Upbit: seconds between an error message and the close (1000) that follows it.
  public var errorCloseDelay: Double = 0.15
  /// Upbit: after the client's first `PING`, `{"status":"UP"}` again every this many seconds;
  /// nil = only in answer to each `PING`.
  public var statusInterval: Double? = 10
  /// Upbit: refuse an upgrade request that carries an `Origin` header with 429 (the venue
  /// allows such requests once per 10 s; refusing every one makes the mistake visible).
  public var refuseOrigin = true
  /// Kraken: while something is subscribed, `{"channel":"heartbeat"}` after this many seconds
  /// without another channel message; nil = never.
  public var heartbeatInterval: Double? = 1
  /// Kraken: a connection whose client sent no request for this many seconds is closed; nil =
  /// never.
  public var idleTimeout: Double? = 60
  /// OKX: a connection without a subscription this many seconds after the upgrade, or pushed
  /// nothing for this long after one, is closed with 4004; nil = never.
  public var quietTimeout: Double? = 30
  /// OKX: subscribe, unsubscribe and login requests allowed per connection in any hour; more are
  /// answered with error 60014.
  public var requestsPerHour: Int = 480
  /// OKX: upgrade requests accepted in any `connectionWindow` (the venue counts per address;
  /// every client of the test server has the same one); more are refused with 429.
  public var connectionsPerSecond: Int = 3
  /// The sliding window of `connectionsPerSecond`, in seconds (a test lengthens it, so that a
  /// burst of connections counts as one however slowly the machine makes them).
  public var connectionWindow: Double = 1

  public init() {}

  /// The same rules with every duty and deadline multiplied by `factor` (pings, pong and
  /// subscribe deadlines, the error close, the status repeats, Kraken's heartbeats and idle
  /// timeout, OKX's quiet close). The rate windows are left alone: a shorter window would make the
  /// limits easier to meet, not harder.
  public func scaled(by factor: Double) -> VenueRules {
    var rules = self
    rules.pingInterval = pingInterval.map { $0 * factor }
    rules.pongTimeout = pongTimeout * factor
    rules.subscribeDeadline = subscribeDeadline.map { $0 * factor }
    rules.errorCloseDelay = errorCloseDelay * factor
    rules.statusInterval = statusInterval.map { $0 * factor }
    rules.heartbeatInterval = heartbeatInterval.map { $0 * factor }
    rules.idleTimeout = idleTimeout.map { $0 * factor }
    rules.quietTimeout = quietTimeout.map { $0 * factor }
    return rules
  }
}
