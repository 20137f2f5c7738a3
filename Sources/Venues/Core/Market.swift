/// What a symbol trades: the asset (`BTC`) and the currency it is quoted in (`USDT`), as the
/// venue names them, upper case. USD and USDT are different currencies: a `Market` never says
/// one for the other.
public struct Market: Sendable, Hashable, CustomStringConvertible {
  public var base: String
  public var quote: String

  public init(base: String, quote: String) {
    self.base = base
    self.quote = quote
  }

  public var description: String { "\(base)/\(quote)" }

  /// The quote currencies Binance's run-together symbols end in (`BTCUSDT`, `ETHBTC`), longest
  /// first so that `USDT` is found before a shorter currency it ends with. From Binance's spot
  /// markets; Finnhub's crypto symbols (`BINANCE:BTCUSDT`) use the same notation.
  public static let runTogetherQuotes = [
    "FDUSD", "USDT", "USDC", "TUSD", "BUSD", "USDP", "DAI", "BTC", "ETH", "BNB", "EUR", "GBP", "TRY", "BRL",
    "JPY", "AUD", "ARS", "MXN", "PLN", "RON", "UAH", "ZAR", "IDR", "COP", "CZK", "XRP", "DOGE", "SOL", "TRX",
  ].sorted { $0.count > $1.count }

  /// `BTCUSDT` → BTC/USDT: the longest known quote currency it ends in, with something before.
  public static func splittingRunTogether(_ symbol: String) -> Market? {
    for quote in runTogetherQuotes where symbol.hasSuffix(quote) && symbol.count > quote.count {
      return Market(base: String(symbol.dropLast(quote.count)), quote: quote)
    }
    return nil
  }

  /// `BTC-USD` (or `BTC/USD` with `separator` "/") → BTC/USD; nil unless exactly two parts.
  public static func splitting(_ symbol: String, at separator: Character, quoteFirst: Bool = false) -> Market?
  {
    let parts = symbol.split(separator: separator, omittingEmptySubsequences: false)
    guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return nil }
    return quoteFirst
      ? Market(base: String(parts[1]), quote: String(parts[0]))
      : Market(base: String(parts[0]), quote: String(parts[1]))
  }
}
