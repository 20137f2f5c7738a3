/// The providers the ticker knows, by configuration name.
public enum ProviderCatalog {
  /// Every valid value of the `provider` setting.
  public static let names: [String] = ["finnhub"]

  public static func provider(named name: String) -> (any Provider)? {
    switch name {
    case "finnhub": FinnhubProvider()
    default: nil
    }
  }
}
