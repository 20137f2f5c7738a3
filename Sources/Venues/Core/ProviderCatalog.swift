/// The providers the ticker knows, by configuration name.
public enum ProviderCatalog {
  /// Every valid value of the `provider` setting.
  public static let names: [String] = ["finnhub", "upbit", "binance", "coinbase"]

  public static func provider(named name: String) -> (any Provider)? {
    switch name {
    case "finnhub": FinnhubProvider()
    case "upbit": UpbitProvider()
    case "binance": BinanceProvider()
    case "coinbase": CoinbaseProvider()
    default: nil
    }
  }
}
