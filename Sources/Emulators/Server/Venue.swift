/// The venues FeedServer can emulate and write load for.
public enum Venue: String, Sendable, Equatable, CaseIterable {
  case finnhub, upbit, binance, coinbase, kraken, okx

  /// The venue of the provider named `name` as the ticker's `--provider` spells it; nil for
  /// any other name.
  public init?(provider name: String) {
    self.init(rawValue: name.lowercased())
  }

  /// What the emulator knows of the venue (its folder's `EmulatedVenue`).
  var emulated: any EmulatedVenue.Type {
    switch self {
    case .finnhub: FinnhubVenue.self
    case .upbit: UpbitVenue.self
    case .binance: BinanceVenue.self
    case .coinbase: CoinbaseVenue.self
    case .kraken: KrakenVenue.self
    case .okx: OKXVenue.self
    }
  }
}

extension FeedServer.Options.Emulation {
  /// The emulation of `venue`.
  public init(_ venue: Venue) { self = .venue(venue) }

  /// The venue emulated; nil for `.verbatim`.
  public var venue: Venue? {
    if case .venue(let venue) = self { return venue }
    return nil
  }
}
