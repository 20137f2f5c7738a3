import Venues

/// A venue's price in another currency, converted to USDT with the same venue's rate (Upbit's
/// `KRW-BTC` through `KRW-USDT`), against the median of the asset's USDT prices: the "kimchi
/// premium" when the currency is KRW.
public struct ConversionPremium: Sendable {
  public var asset: String
  /// The venue (`Quote.venue`) and symbol of the converted price.
  public var venue: UInt8
  public var symbol: String
  /// The converted price's currency (`KRW`).
  public var currency: String
  /// Its last price; of a book (`--bid-ask`), its mid, as are `rate` and the USDT prices.
  public var price: Price
  /// The last price of the rate pair: how many units of `currency` one USDT costs.
  public var rate: Price
  public var rateSymbol: String
  /// When the rate's last quote arrived (its `received`, else its trade time), in milliseconds
  /// since the epoch: its age is measured from there.
  public var rateClock: Int64
  /// `price / rate`, rounded half away from zero to as many decimals as the USDT prices compared
  /// have without their trailing zeros (at least 2, at most 8).
  public var converted: ExactDecimal
  /// The median of the asset's USDT prices (exact: the mean of the middle two for an even count).
  public var reference: ExactDecimal
  /// How many USDT prices the median is of.
  public var referenceVenues: Int
  /// `(price / rate − reference) / reference × 100`, computed exactly and rounded once, half
  /// away from zero, to 2 decimals.
  public var percent: ExactDecimal

  /// The converted currency every premium is against.
  public static let target = "USDT"
}

extension ConversionPremium: Equatable {
  /// Whether what the premium says changed: the rate's age is left out, since it changes with
  /// every quote of anything.
  public static func == (a: ConversionPremium, b: ConversionPremium) -> Bool {
    a.asset == b.asset && a.venue == b.venue && a.symbol == b.symbol && a.price == b.price
      && a.rate == b.rate && a.reference == b.reference && a.referenceVenues == b.referenceVenues
      && a.percent == b.percent && a.converted == b.converted
  }
}
