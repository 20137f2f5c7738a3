import Recording
import WebSocketClient

/// What the emulator knows of one venue, declared in that venue's folder (`Venue.emulated` names
/// each): where it serves, the session its demo plays, the state machine of its connections,
/// and the load it writes. Adding a venue is a folder with one of these and a `Venue` case.
protocol EmulatedVenue {
  /// The request target the venue serves its feed on (`FeedServer.url` uses it).
  static var path: String { get }
  /// The recorded session `ticker --demo` plays for the venue.
  static var demoSession: String { get }
  /// The venue's behaviour towards one connection that gets `script`, then `ending`.
  static func emulator(
    script: SessionScript, rules: VenueRules, ending: ConnectionPlan.Ending, acceptAnySymbol: Bool
  ) -> any VenueEmulator
  /// The i-th message of the venue's blast: distinct prices and times, one market.
  static func blastMessage(_ i: Int) -> String
  /// The frames the blast goes in (Upbit's are binary).
  static var blastOpcode: Opcode { get }
  /// Upgrade requests the venue accepts from one address in any `window` under `rules` (OKX: 3
  /// a second); nil: no limit emulated. The server enforces it: an emulator sees one connection.
  static func connectionLimit(_ rules: VenueRules) -> (count: Int, window: Duration)?
}

extension EmulatedVenue {
  static func connectionLimit(_ rules: VenueRules) -> (count: Int, window: Duration)? { nil }
}
