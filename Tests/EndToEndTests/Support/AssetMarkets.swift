import Venues

/// What `--asset BTC --demo` follows, from the catalog: each venue's main market and its
/// conversion pairs, and the currency each main market is quoted in. The tests of
/// the cross-venue board read their expectations here, so that a venue added to the catalog is
/// expected without editing them.
enum AssetMarkets {
  struct Member {
    var provider: any Provider
    /// The main market, as the venue's quotes name it.
    var main: String
    /// Its quote currency (`USDT`, `USD`, `KRW`…).
    var quote: String
    /// The venue's conversion pairs for that currency (Upbit's `KRW-USDT`).
    var pairs: [String]
  }

  /// The venues' markets of `asset`, in the catalog's order: every venue's in a demo (which needs
  /// no key), else the keyless venues'.
  static func members(_ asset: String = "BTC", demo: Bool = true) -> [Member] {
    ProviderCatalog.all.compactMap { provider in
      guard demo || !provider.requiresToken, let symbol = provider.mainMarket(for: asset),
        let market = provider.market(of: symbol)
      else { return nil }
      let pairs = provider.conversionPair(for: market.quote).map { [provider.serverSymbol(for: $0)] } ?? []
      return Member(
        provider: provider, main: provider.serverSymbol(for: symbol), quote: market.quote, pairs: pairs)
    }
  }

  /// Every symbol the run follows: the main markets and the conversion pairs.
  static var symbolCount: Int { members().reduce(0) { $0 + 1 + $1.pairs.count } }

  /// The venues' display names quoted in `currency`, sorted.
  static func venues(quotedIn currency: String) -> [String] {
    members().filter { $0.quote == currency }.map(\.provider.displayName).sorted()
  }
}
