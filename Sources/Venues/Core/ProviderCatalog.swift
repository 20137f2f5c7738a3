/// The venues the ticker knows, one line each: adding a venue is its folder and its line here.
public enum ProviderCatalog {
  /// Every venue, in the order help lists them.
  public static let all: [any Provider] = [
    FinnhubProvider(), UpbitProvider(), BinanceProvider(), CoinbaseProvider(), KrakenProvider(),
    OKXProvider(),
    HyperliquidProvider(),
    BitstampProvider(),
    BybitProvider(),
    GeminiProvider(),
    BitfinexProvider(),
    BithumbProvider(),
  ]

  /// The provider of a run that names none: the first of `all`.
  public static var defaultProvider: any Provider { all[0] }

  /// The environment variables that hold venues' API keys (the default provider's first): each is
  /// read for its venue, and its value is a secret wherever the ticker writes.
  public static var tokenVariables: [String] { all.compactMap(\.tokenVariable) }

  /// The environment variable of the token setting: the default provider's key.
  public static var tokenVariable: String { defaultProvider.tokenVariable ?? "TICKER_TOKEN" }

  /// Every valid value of the `provider` setting.
  public static var names: [String] { all.map(\.name) }

  public static func provider(named name: String) -> (any Provider)? { all.first { $0.name == name } }

  /// `VENUE/SYMBOL` split at its first `/` when VENUE names a venue (`binance/BTCUSDT`,
  /// `kraken/BTC/USD`); otherwise no venue and the text as it is (`BTC/USD` on its own is a
  /// Kraken symbol of the run's `--provider`).
  public static func qualified(_ text: String) -> (venue: (any Provider)?, symbol: String) {
    guard let slash = text.firstIndex(of: "/"),
      let venue = provider(named: text[..<slash].lowercased())
    else { return (nil, text) }
    return (venue, String(text[text.index(after: slash)...]))
  }
}
