/// What one server message meant.
public enum ProviderEvent: Sendable, Equatable {
  /// Prices, in message order (several symbols possible; duplicates passed through).
  case quotes([Quote])
  /// Some entries of a price message were malformed: the valid ones are kept, and `dropped`
  /// describes each entry that was not (e.g. `data[1]: "p" must be a number`).
  case partial([Quote], dropped: [String])
  /// An application-level keepalive (Finnhub's `{"type":"ping"}`): proof the feed is alive.
  case keepalive
  /// An error the server reported on the open socket (the message text, as sent).
  case error(String)
  /// A well-formed message of a type this provider does not use (named).
  case ignored(String)
  /// Not valid JSON, or JSON of the wrong shape: why.
  case malformed(String)

  /// The quotes this event carries (from `.quotes` or `.partial`), else empty.
  public var quotes: [Quote] {
    switch self {
    case .quotes(let q), .partial(let q, _): q
    default: []
    }
  }
}
