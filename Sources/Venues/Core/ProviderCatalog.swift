/// The venues the ticker knows, one line each: adding a venue is its folder and its line here.
public enum ProviderCatalog {
  /// Every venue, in the order help lists them.
  public static let all: [any Provider] = [
    FinnhubProvider(), UpbitProvider(), BinanceProvider(), CoinbaseProvider(), KrakenProvider(),
    OKXProvider(),
  ]

  /// Every valid value of the `provider` setting.
  public static var names: [String] { all.map(\.name) }

  public static func provider(named name: String) -> (any Provider)? { all.first { $0.name == name } }
}
