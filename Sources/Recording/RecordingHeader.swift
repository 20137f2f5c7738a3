import Venues

/// The first line of a run section: the venues the run followed and when it started.
///
/// A run of one venue is format 1 (`provider`, `symbols`), as every recording before several
/// venues could be recorded. A run of several is format 2: `venues` lists them, and each step
/// line names its venue by index into that list (`RecordedStep.venue`).
public struct RecordingHeader: Sendable, Equatable {
  /// One venue of the run and its starting symbols (canonical for it).
  public struct Venue: Sendable, Equatable {
    public var provider: String
    public var symbols: [String]
    /// What the run followed: trades, or the best bid and ask (`"stream":"top-of-book"`; absent
    /// for trades, so that a trade recording is what it always was).
    public var stream: MarketStream

    public init(provider: String, symbols: [String], stream: MarketStream = .trades) {
      self.provider = provider
      self.symbols = symbols
      self.stream = stream
    }

    /// The provider that decodes this venue's frames: the catalog's, or its top-of-book variant
    /// (Kraken's and Coinbase's tickers are read as trades or as quotes by what the run
    /// followed); nil for a venue the catalog does not know.
    public var decoder: (any Provider)? {
      guard let named = ProviderCatalog.provider(named: provider) else { return nil }
      return stream == .trades ? named : named.topOfBook
    }

    /// The venue as messages name it: `binance`, or `binance (top of book)`.
    public var name: String { stream == .trades ? provider : provider + " (top of book)" }
  }

  /// The format of a run of one venue.
  public static let currentFormat = 1
  /// The format of a run of several venues.
  public static let severalVenuesFormat = 2
  /// The most venues a run follows (`Quote.venue` is a byte).
  public static let maximumVenues = 256

  public var format: Int
  /// At least one.
  public var venues: [Venue]
  /// The wall-clock time the run started (ms since the epoch).
  public var startedMilliseconds: Int64

  /// The first venue's name: the only one of a format 1 section.
  public var provider: String { venues[0].provider }
  /// The first venue's starting symbols.
  public var symbols: [String] { venues[0].symbols }
  /// Whether the section is of several venues (its steps name theirs).
  public var isSeveral: Bool { venues.count > 1 }
  /// The venues' names, in order ("binance, coinbase").
  public var providerNames: String { venues.map(\.name).joined(separator: ", ") }

  public init(
    format: Int = Self.currentFormat, provider: String, symbols: [String], stream: MarketStream = .trades,
    startedMilliseconds: Int64
  ) {
    self.format = format
    self.venues = [Venue(provider: provider, symbols: symbols, stream: stream)]
    self.startedMilliseconds = startedMilliseconds
  }

  /// A run of `venues` (format 2 when there are several, else format 1).
  public init(venues: [Venue], startedMilliseconds: Int64) {
    precondition(!venues.isEmpty && venues.count <= Self.maximumVenues, "1 to 256 venues")
    self.format = venues.count > 1 ? Self.severalVenuesFormat : Self.currentFormat
    self.venues = venues
    self.startedMilliseconds = startedMilliseconds
  }
}
