import Venues
import WebSocketWire

extension FeedServer {
  public struct Options: Sendable {
    /// How the server behaves towards each client: as one venue does, or as a plain replay.
    public enum Emulation: Sendable, Equatable {
      /// As the venue does (its emulation, declared in its emulator folder): its subscribe
      /// requests and errors, its wire format, its keepalive and limits, under its rules.
      case venue(VenueEmulation)
      /// Send the script's server messages as they are, ignoring what the client says.
      case verbatim

      /// The emulation of `provider` with the venue's own rules.
      public static func emulating(_ provider: any Provider) -> Emulation {
        guard let emulation = VenueEmulation(provider) else {
          preconditionFailure("\(provider.name) has no emulation")
        }
        return .venue(emulation)
      }

      /// The emulation of `provider` under `rules` (the venue's own rules type).
      public static func emulating<Rules: EmulatorRules>(_ provider: any Provider, rules: Rules) -> Emulation
      {
        .venue(VenueEmulation(provider, rules: rules))
      }

      /// The emulation of the provider named `name` as the ticker's `--provider` spells it; nil
      /// for any other name.
      public init?(provider name: String) {
        guard let emulation = VenueEmulation(named: name) else { return nil }
        self = .venue(emulation)
      }

      /// The venue emulated; nil for `.verbatim`.
      public var venue: VenueEmulation? {
        if case .venue(let venue) = self { return venue }
        return nil
      }

      /// The request target the venue serves its feed on (`FeedServer.url` uses it).
      public var path: String { venue?.path ?? "/" }
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
      emulation: Emulation = .emulating(ProviderCatalog.defaultProvider),
      ending: Ending = .close(CloseStatus(code: .normalClosure, reason: "replay finished")),
      retryAfter: Int? = nil, awaitSubscriptions: Int = 1, plans: [ConnectionPlan] = [],
      acceptAnySymbol: Bool = false,
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
    }
  }
}
