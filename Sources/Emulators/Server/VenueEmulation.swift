import Recording
import Venues
import WebSocketWire

/// A venue as FeedServer emulates it: its provider (which the venue's emulator folder makes an
/// `EmulatedVenue`) and the rules in force. Made from any provider of the catalog; nil for one
/// whose folder declares no emulation.
public struct VenueEmulation: Sendable, Hashable, CustomStringConvertible {
  /// The venue.
  public let provider: any Provider
  /// Its rules (the venue's own `EmulatorRules` type).
  public let rules: any EmulatorRules
  private let venue: any EmulatedVenue

  /// The venue's emulation with its own rules.
  public init?(_ provider: any Provider) {
    guard let venue = provider as? any EmulatedVenue else { return nil }
    self.init(venue: venue)
  }

  /// The emulation of the catalog's venue named `name` (as `--provider` spells it).
  public init?(named name: String) {
    guard let provider = ProviderCatalog.provider(named: name.lowercased()) else { return nil }
    self.init(provider)
  }

  /// The venue's emulation under `rules`, which must be its own rules type.
  public init<Rules: EmulatorRules>(_ provider: any Provider, rules: Rules) {
    guard let venue = provider as? any EmulatedVenue else {
      preconditionFailure("\(provider.name) has no emulation")
    }
    self.init(venue: venue, rules: rules)
  }

  private init(venue: any EmulatedVenue, rules: (any EmulatorRules)? = nil) {
    func own<V: EmulatedVenue>(_ venue: V) -> any EmulatorRules {
      guard let rules else { return V.Rules() }
      guard let typed = rules as? V.Rules else {
        preconditionFailure("\(type(of: rules)) are not \(venue.name)'s rules (\(V.Rules.self))")
      }
      return typed
    }
    self.venue = venue
    self.provider = venue
    self.rules = own(venue)
  }

  /// The same venue with every duty and deadline of its rules multiplied by `factor`.
  public func scaled(by factor: Double) -> VenueEmulation {
    VenueEmulation(venue: venue, rules: rules.scaled(by: factor))
  }

  /// The same venue without its deadlines for subscribing or staying busy (`EmulatorRules.patient`).
  public func patient() -> VenueEmulation {
    VenueEmulation(venue: venue, rules: rules.patient())
  }

  public var description: String { provider.name }

  public static func == (a: VenueEmulation, b: VenueEmulation) -> Bool {
    a.provider.name == b.provider.name && a.rules.isEqual(to: b.rules)
  }

  public func hash(into hasher: inout Hasher) { hasher.combine(provider.name) }

  // MARK: What the server asks of the venue

  /// The request target the venue serves its feed on.
  public var path: String { type(of: venue).path }
  /// The recorded session its demo plays.
  public var demoSession: String { type(of: venue).demoSession }
  /// A symbol the venue lists that its demo session never trades (`--symbol` spelling).
  public var untradedSymbol: String { type(of: venue).untradedSymbol }
  /// Whether the venue refuses a symbol it does not list by name (else it accepts it silently).
  public var refusesUnknownSymbols: Bool { type(of: venue).refusesUnknownSymbols }
  /// The first prices the demo trades the example symbol at, as the ticker prints them.
  public var demoPrices: [String] { type(of: venue).demoPrices }
  /// How long a subscribed connection may go without the client keeping it alive, under these
  /// rules, in seconds; nil when nothing ends it.
  public var idleDeadline: Double? {
    func deadline<V: EmulatedVenue>(_: V) -> Double? { V.idleDeadline((rules as? V.Rules) ?? V.Rules()) }
    return deadline(venue)
  }
  /// The venue's fuzz seeds, named.
  public var fuzzSeeds: [(name: String, text: String)] { type(of: venue).fuzzSeeds }
  /// The i-th message of its blast.
  public func blastMessage(_ i: Int) -> String { type(of: venue).blastMessage(i) }
  /// The i-th message of a blast over `symbols` symbols (a trade, or with `book` a top-of-book
  /// update); nil when the venue has no such blast (`feedserve --symbols K [--book]`).
  public func blastMessage(_ i: Int, symbols: Int, book: Bool) -> String? {
    type(of: venue).blastMessage(i, symbols: symbols, book: book)
  }
  /// The frames its blast goes in.
  public var blastOpcode: Opcode { type(of: venue).blastOpcode }

  func emulator(script: SessionScript, ending: ConnectionPlan.Ending, acceptAnySymbol: Bool)
    -> any VenueEmulator
  {
    func make<V: EmulatedVenue>(_: V) -> any VenueEmulator {
      V.emulator(
        script: script, rules: (rules as? V.Rules) ?? V.Rules(), ending: ending,
        acceptAnySymbol: acceptAnySymbol)
    }
    return make(venue)
  }

  var connectionLimit: (count: Int, window: Duration)? {
    func limit<V: EmulatedVenue>(_: V) -> (count: Int, window: Duration)? {
      V.connectionLimit((rules as? V.Rules) ?? V.Rules())
    }
    return limit(venue)
  }
}

extension EmulatorRules {
  fileprivate func isEqual(to other: any EmulatorRules) -> Bool { (other as? Self) == self }
}
