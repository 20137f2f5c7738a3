import Venues
import WebSocketWire

/// The venues a run follows, each with its symbols and endpoint, from the settings — pure.
///
/// A symbol may name its venue (`binance/BTCUSDT`, `ProviderCatalog.qualified`); one that does
/// not belongs to `--provider`. `--asset BTC` adds each venue's main market for the asset (a
/// venue that needs a key only with a token, `--demo` or `--source`), `--venues` narrows which; a
/// market added that way in a currency its venue converts (Upbit's KRW) brings the venue's
/// conversion pair (`KRW-USDT`). `--url VENUE=URL` replaces one
/// venue's endpoint; a plain `--url` is the one venue's, and is refused with several.
public struct VenuePlan: Sendable {
  public struct Member: Sendable {
    public var provider: any Provider
    /// Canonical for the venue, in the order given.
    public var symbols: [String]
    /// nil: the venue's own.
    public var endpoint: WebSocketURL?

    public init(provider: any Provider, symbols: [String], endpoint: WebSocketURL? = nil) {
      self.provider = provider
      self.symbols = symbols
      self.endpoint = endpoint
    }
  }

  public var members: [Member]

  public init(members: [Member]) { self.members = members }

  /// More than one venue: quotes say which venue they come from.
  public var isSeveral: Bool { members.count > 1 }

  /// - Parameter serving: `ticker serve`, which follows what its clients ask for: symbols nobody
  ///   gave are not followed.
  public static func make(_ config: TickerConfig, serving: Bool = false) -> Result<VenuePlan, VenuePlanError>
  {
    guard let base = ProviderCatalog.provider(named: config.provider) else {
      return .failure(.unknownProvider(config.provider))
    }
    var plan = VenuePlan(members: [])
    let symbolsGiven = config.sources["--symbol"] != nil
    let given = (serving || !config.assets.isEmpty) && !symbolsGiven ? [] : config.symbols
    for text in given {
      let (named, symbol) = ProviderCatalog.qualified(text)
      let venue = named ?? base
      switch venue.canonicalSymbol(symbol) {
      case .success(let canonical): plan.add(canonical, to: venue)
      case .failure(let error):
        return .failure(.invalidSymbol(symbol: text, venue: venue.displayName, why: error.message))
      }
    }
    if let failure = plan.addAssets(config, serving: serving) { return .failure(failure) }
    if plan.members.isEmpty { plan.members.append(Member(provider: base, symbols: [], endpoint: nil)) }
    // serve's clients speak Finnhub's trade frames: it follows trades (and warns of --bid-ask).
    if config.bidAsk, !serving, let failure = plan.followTopOfBook() { return .failure(failure) }
    if let failure = plan.applyEndpoints(config.endpoints, serving: serving) { return .failure(failure) }
    return .success(plan)
  }

  /// Each venue's top-of-book variant (`--bid-ask`); a venue without one is refused.
  private mutating func followTopOfBook() -> VenuePlanError? {
    for index in members.indices {
      guard let book = members[index].provider.topOfBook else {
        return .noTopOfBook(members[index].provider.displayName)
      }
      members[index].provider = book
    }
    return nil
  }

  /// The symbols of each venue's main market for `config.assets`.
  private mutating func addAssets(_ config: TickerConfig, serving: Bool) -> VenuePlanError? {
    let named = config.venues.compactMap(ProviderCatalog.provider(named:))
    let venues = named.isEmpty ? ProviderCatalog.all : named
    // The demo's venues and the prices another ticker published need no key.
    let hasToken = config.demo || config.source != nil || !(config.token ?? "").isEmpty
    for asset in config.assets {
      for venue in venues {
        // --bid-ask --asset follows the venues that have a top of book; naming one that has none is refused.
        if config.bidAsk && !serving && venue.topOfBook == nil && named.isEmpty { continue }
        if venue.requiresToken && !hasToken {
          if !named.isEmpty { return .needsToken(venue.displayName, variable: venue.tokenVariable) }
          continue
        }
        guard let symbol = venue.mainMarket(for: asset),
          case .success(let canonical) = venue.canonicalSymbol(symbol)
        else {
          if !named.isEmpty { return .noMarket(asset: asset, venue: venue.displayName) }
          continue
        }
        add(canonical, to: venue)
        if let rate = Self.conversionPair(for: canonical, on: venue) { add(rate, to: venue) }
      }
    }
    return nil
  }

  /// The pair that converts a market's quote currency to USDT on the same venue, where the venue
  /// has one that matters (its `conversionPair(for:)`: Upbit's `KRW-USDT` for its KRW markets).
  static func conversionPair(for symbol: String, on venue: any Provider) -> String? {
    guard let market = venue.market(of: symbol), let pair = venue.conversionPair(for: market.quote),
      pair != symbol
    else { return nil }
    return pair
  }

  private mutating func add(_ symbol: String, to venue: any Provider) {
    if let index = members.firstIndex(where: { $0.provider.name == venue.name }) {
      if !members[index].symbols.contains(symbol) { members[index].symbols.append(symbol) }
    } else {
      members.append(Member(provider: venue, symbols: [symbol], endpoint: nil))
    }
  }

  /// - Parameter serving: `ticker serve` follows any venue its clients ask for: `--url VENUE=URL`
  ///   of a venue without symbols adds it (opened at start, at that endpoint).
  private mutating func applyEndpoints(_ endpoints: [VenueEndpoint], serving: Bool) -> VenuePlanError? {
    for endpoint in endpoints {
      if let venue = endpoint.venue {
        if serving, !members.contains(where: { $0.provider.name == venue }),
          let provider = ProviderCatalog.provider(named: venue)
        {
          members.append(Member(provider: provider, symbols: [], endpoint: nil))
        }
        guard let index = members.firstIndex(where: { $0.provider.name == venue }) else {
          return .endpointForVenueNotFollowed(venue, following: members.map(\.provider.name))
        }
        members[index].endpoint = endpoint.url
      } else {
        guard members.count == 1 else {
          return .plainURLWithSeveral(following: members.map(\.provider.name))
        }
        members[0].endpoint = endpoint.url
      }
    }
    return nil
  }
}

/// Why the settings name no run that can be followed.
public enum VenuePlanError: Error, Sendable, Equatable, CustomStringConvertible {
  case unknownProvider(String)
  case invalidSymbol(symbol: String, venue: String, why: String)
  /// `--venues` names a venue that needs a key, and there is no token.
  case needsToken(String, variable: String?)
  /// `--venues` names a venue without a market for the asset.
  case noMarket(asset: String, venue: String)
  case endpointForVenueNotFollowed(String, following: [String])
  case plainURLWithSeveral(following: [String])
  /// `--bid-ask` with a venue that sends no best bid and ask.
  case noTopOfBook(String)

  public var description: String {
    switch self {
    case .unknownProvider(let name):
      "unknown provider \"\(name)\" (known: \(ProviderCatalog.names.joined(separator: ", ")))"
    case .invalidSymbol(let symbol, let venue, let why): "\"\(symbol)\" is not a \(venue) symbol: \(why)"
    case .needsToken(let venue, let variable):
      "--venues names \(venue), which needs an API token: set \(variable ?? "the API token")"
    case .noMarket(let asset, let venue): "--asset \(asset): \(venue) has no market for \(asset)"
    case .endpointForVenueNotFollowed(let venue, let following):
      "--url \(venue)=…: this run does not follow \(venue) (it follows \(following.joined(separator: ", ")))"
    case .plainURLWithSeveral(let following):
      "a plain --url cannot say which of the run's venues it replaces (\(following.joined(separator: ", "))); "
        + "write --url VENUE=URL"
    case .noTopOfBook(let venue):
      "--bid-ask: \(venue) sends trades only, no best bid and ask; follow a venue that does "
        + "(" + ProviderCatalog.all.filter { $0.topOfBook != nil }.map(\.name).joined(separator: ", ") + ")"
    }
  }

  /// `unknownProvider` is a setting's value (exit 78, as before); the rest are usage (64).
  public var isConfiguration: Bool {
    if case .unknownProvider = self { return true }
    return false
  }
}
