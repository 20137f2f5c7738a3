import JSON
import TickerSupport

/// The best bid and ask a Coinbase Exchange `ticker` message carries besides its last trade:
/// `{"type":"ticker","product_id":"BTC-USD","price":"80691.53",…,"best_bid":"80691.52",
/// "best_bid_size":"0.35000000","best_ask":"80691.53","best_ask_size":"0.01200000",…,"time":"…"}`.
/// Prices and sizes are decimal strings, kept exactly; the sizes are missing from older frames
/// (a 2021 capture), then nil. The time is the ticker's, as for trades.
struct CoinbaseBookTicker: Sendable, Equatable {
  var productID: String
  var bid: Price
  var bidSize: Price?
  var ask: Price
  var askSize: Price?
  /// Epoch milliseconds; 0 when the ticker carries no `time`.
  var time: Int64

  init(object: JSONObject) throws(ShapeError) {
    guard case .string(let product)? = object["product_id"], !product.isEmpty else {
      throw ShapeError(#""product_id" must be a non-empty string"#)
    }
    productID = product
    bid = try VenueJSON.decimalString(object, "best_bid")
    ask = try VenueJSON.decimalString(object, "best_ask")
    bidSize = try VenueJSON.optionalDecimalString(object, "best_bid_size")
    askSize = try VenueJSON.optionalDecimalString(object, "best_ask_size")
    time = try Self.time(object)
  }

  private static func time(_ object: JSONObject) throws(ShapeError) -> Int64 {
    switch object["time"] {
    case nil, .null?: return 0
    case .string(let text)?:
      guard let time = RFC3339.milliseconds(text) else {
        throw ShapeError(#""time" is not an RFC 3339 date-time"#)
      }
      return time
    default: throw ShapeError(#""time" must be an RFC 3339 string"#)
    }
  }

  var quote: Quote {
    Quote(symbol: productID, bid: bid, bidSize: bidSize, ask: ask, askSize: askSize, time: time)
  }
}
