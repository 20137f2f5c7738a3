import Emulators
import Venues

/// The catalog's venues as FeedServer emulates them, for tests that run over every venue, and
/// the ones venue-specific tests name.
extension VenueEmulation {
  /// Every venue of the catalog, in its order, with its own rules.
  public static var catalog: [VenueEmulation] { ProviderCatalog.all.compactMap(VenueEmulation.init) }

  public static var finnhub: VenueEmulation { VenueEmulation(FinnhubProvider())! }
  public static var upbit: VenueEmulation { VenueEmulation(UpbitProvider())! }
  public static var binance: VenueEmulation { VenueEmulation(BinanceProvider())! }
  public static var coinbase: VenueEmulation { VenueEmulation(CoinbaseProvider())! }
  public static var kraken: VenueEmulation { VenueEmulation(KrakenProvider())! }
  public static var okx: VenueEmulation { VenueEmulation(OKXProvider())! }

  /// The venue's name, as `--provider` spells it.
  public var name: String { provider.name }
}
