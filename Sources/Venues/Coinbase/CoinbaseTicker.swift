import JSON
import TickerSupport

/// One Coinbase Exchange `ticker` message:
/// `{"type":"ticker","product_id":"BTC-USD","price":"80691.53",…,"time":"2026-08-25T03:35:57.198335Z","last_size":"0.00000001"}`.
/// Prices are decimal strings, kept exactly; the time is RFC 3339 with microseconds, truncated
/// to milliseconds. Other keys are ignored.
struct CoinbaseTicker: Sendable, Equatable {
  /// `product_id` (`BTC-USD`).
  var productID: String
  /// `price`, exact.
  var price: Price
  /// `last_size`, the size of the last trade; nil when absent or null.
  var lastSize: Price?
  /// `time`, epoch milliseconds; 0 when the ticker carries none (observed right after
  /// subscribing, on the older feed): the runtime then stamps the time it was received.
  var time: Int64

  /// Why a ticker message cannot become a quote.
  enum Problem: Error, Equatable {
    /// Malformed: a field of the wrong type or spelling.
    case shape(ShapeError)

  }

  init(productID: String, price: Price, lastSize: Price? = nil, time: Int64) {
    self.productID = productID
    self.price = price
    self.lastSize = lastSize
    self.time = time
  }

  init(object: JSONObject) throws(Problem) {
    guard case .string(let product)? = object["product_id"], !product.isEmpty else {
      throw .shape(ShapeError(#""product_id" must be a non-empty string"#))
    }
    guard case .string(let priceText)? = object["price"] else {
      throw .shape(ShapeError(#""price" must be a decimal string"#))
    }
    guard let price = Price(priceText) else { throw .shape(ShapeError(#""price" is not a decimal number"#)) }
    var size: Price? = nil
    switch object["last_size"] {
    case nil, .null?: break
    case .string(let text)?:
      guard let s = Price(text) else { throw .shape(ShapeError(#""last_size" is not a decimal number"#)) }
      size = s
    default: throw .shape(ShapeError(#""last_size" must be a decimal string"#))
    }
    let time: Int64
    switch object["time"] {
    case nil, .null?: time = 0
    case .string(let text)?:
      guard let t = RFC3339.milliseconds(text) else {
        throw .shape(ShapeError(#""time" is not an RFC 3339 date-time"#))
      }
      time = t
    default: throw .shape(ShapeError(#""time" must be an RFC 3339 string"#))
    }
    self.init(productID: product, price: price, lastSize: size, time: time)
  }

  var quote: Quote { Quote(symbol: productID, price: price, volume: lastSize, time: time) }
}
