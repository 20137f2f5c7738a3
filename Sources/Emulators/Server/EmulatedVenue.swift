import Recording
import Venues
import WebSocketWire

/// One venue's timings and limits as its emulation enforces them, in seconds: `init()` gives the
/// venue's own (docs/protocols.md), tests shorten the durations with `scaled(by:)` or set them
/// one by one. Each venue's emulator folder declares its own.
public protocol EmulatorRules: Sendable, Equatable {
  /// The venue's own rules.
  init()
  /// The same rules with every duty and deadline multiplied by `factor`. Rate windows are left
  /// alone: a shorter window would make the limits easier to meet, not harder.
  func scaled(by factor: Double) -> Self
  /// The same rules without the deadlines that end a connection for subscribing late or for
  /// going quiet (Coinbase's subscribe deadline, OKX's quiet close): the demo's and a gateway's
  /// clients may come much later than the venue would wait.
  func patient() -> Self
}

extension EmulatorRules {
  public func patient() -> Self { self }
}

/// What the emulator knows of one venue, declared in that venue's emulator folder as a
/// conformance of its provider (`extension BinanceProvider: EmulatedVenue`): where it serves,
/// the session its demo plays, its rules, the state machine of its connections and the load it
/// writes. The venue's catalog line (`ProviderCatalog`) is all that names it: FeedServer finds
/// a provider's emulation by this conformance (`VenueEmulation`).
protocol EmulatedVenue: Provider {
  associatedtype Rules: EmulatorRules
  /// The request target the venue serves its feed on (`FeedServer.url` uses it).
  static var path: String { get }
  /// The recorded session `ticker --demo` plays for the venue.
  static var demoSession: String { get }
  /// A symbol the venue lists that its demo session never trades, as `--symbol` takes it: the
  /// demo walks it from a start of its own, and tests subscribe to it while a run goes on.
  static var untradedSymbol: String { get }
  /// Whether the venue answers a subscription to a symbol it does not list with an error naming
  /// it (Finnhub, Coinbase, Kraken, OKX), rather than accepting it and sending nothing (Upbit,
  /// Binance).
  static var refusesUnknownSymbols: Bool { get }
  /// The first prices the demo session trades the venue's example symbol at, as the ticker prints
  /// them (the digits the venue sent): the conformance suite's exact-price check.
  static var demoPrices: [String] { get }
  /// The longest the emulation under `rules` lets a subscribed connection go without the client
  /// keeping it alive before it ends it (Binance: its ping and the pong's timeout; Kraken: its
  /// idle timeout; OKX: its quiet close), in seconds; nil when nothing ends it.
  static func idleDeadline(_ rules: Rules) -> Double?
  /// Seeds for the fuzz harness over the catalog: edge cases of the venue's message shapes and
  /// symbol lists, named (Fuzz/make-corpus.py adds every message of the demo session).
  static var fuzzSeeds: [(name: String, text: String)] { get }
  /// The venue's behaviour towards one connection that gets `script`, then `ending`.
  static func emulator(
    script: SessionScript, rules: Rules, ending: ConnectionPlan.Ending, acceptAnySymbol: Bool
  ) -> any VenueEmulator
  /// The i-th message of the venue's blast: distinct prices and times, one market.
  static func blastMessage(_ i: Int) -> String
  /// The i-th message of a blast over `symbols` symbols, each moving at every message of it: a
  /// trade, or with `book` a top-of-book update (W10); nil where the venue has none.
  static func blastMessage(_ i: Int, symbols: Int, book: Bool) -> String?
  /// The frames the blast goes in (Upbit's are binary).
  static var blastOpcode: Opcode { get }
  /// Upgrade requests the venue accepts from one address in any `window` under `rules` (OKX: 3
  /// a second); nil: no limit emulated. The server enforces it: an emulator sees one connection.
  static func connectionLimit(_ rules: Rules) -> (count: Int, window: Duration)?
}

extension EmulatedVenue {
  static func blastMessage(_ i: Int, symbols: Int, book: Bool) -> String? { nil }
  static func connectionLimit(_ rules: Rules) -> (count: Int, window: Duration)? { nil }
  static func idleDeadline(_ rules: Rules) -> Double? { nil }
}

/// A venue without timings of its own to emulate (Finnhub).
public struct NoRules: EmulatorRules {
  public init() {}
  public func scaled(by factor: Double) -> NoRules { self }
}
