/// What one server message meant.
public enum ProviderEvent: Sendable, Equatable {
  /// Prices, in message order (several symbols possible; duplicates passed through).
  case quotes([Quote])
  /// Trades the venue sends as history on subscribing (Bitfinex's snapshot, the trades Gemini
  /// folds into its first book update, Hyperliquid's back-fill): never printed as new trades;
  /// the runtime keeps at most each symbol's newest, once, as its starting price.
  case history([Quote])
  /// Some entries of a price message were malformed: the valid ones are kept, and `dropped`
  /// describes each entry that was not (e.g. `data[1]: "p" must be a number`).
  case partial([Quote], dropped: [String])
  /// An application-level keepalive or status (Finnhub's `{"type":"ping"}`, Upbit's
  /// `{"status":"UP"}`): proof the feed is alive, nothing to print.
  case keepalive
  /// An acknowledgement of a request (Binance `{"result":null,"id":3}`, Coinbase
  /// `subscriptions`): consumed silently; `id` when the venue numbers its requests.
  case acknowledged(id: Int?)
  /// An error the venue reported on the open socket.
  case error(VenueError)
  /// The venue says it is about to close the connection for its own reasons (Binance
  /// `serverShutdown`): reconnect now, as after a transient close.
  case closingSoon(String)
  /// A well-formed message of a type this provider does not use (named).
  case ignored(String)
  /// Not valid JSON, or JSON of the wrong shape: why.
  case malformed(String)

  /// The quotes this event carries (from `.quotes` or `.partial`), else empty. History is not.
  public var quotes: [Quote] {
    switch self {
    case .quotes(let q), .partial(let q, _): q
    default: []
    }
  }
}

/// An error reported by a venue on an open connection.
public struct VenueError: Sendable, Equatable {
  /// The venue's name for the error, when it has one (Upbit `WRONG_FORMAT`, Binance code `2`).
  public var name: String?
  /// Its text, as sent (`Invalid symbol BINANCE:NOPEUSDT`).
  public var message: String
  /// The request it answers, for venues that number requests (Binance).
  public var requestID: Int?
  /// The venue refused the subscription as a whole and will (or should) close: reconnecting
  /// would only repeat it, so the run ends (Upbit's request errors, a Binance request error,
  /// Coinbase's failed subscribe). Not fatal: Finnhub's `Invalid symbol` (the rest still flows).
  public var fatal: Bool
  /// The one symbol it refuses, when the venue says (Finnhub's `Invalid symbol X`), in the
  /// venue's spelling.
  public var symbol: String?

  public init(name: String? = nil, message: String, requestID: Int? = nil, fatal: Bool, symbol: String? = nil)
  {
    self.symbol = symbol
    self.name = name
    self.message = message
    self.requestID = requestID
    self.fatal = fatal
  }
}
