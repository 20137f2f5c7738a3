import JSON

/// One Gemini trade: a `trade` message, or an entry of the `trades` a symbol's first `l2_updates`
/// folds in (docs/protocols.md §10):
/// `{"type":"trade","symbol":"BTCUSD","event_id":294811706871,"timestamp":1791469265458,"price":"97412.61","quantity":"0.00021","side":"buy"}`.
/// `price` and `quantity` are decimal strings, kept exactly; `timestamp` is epoch milliseconds.
/// `event_id` (`eventid` in the documentation's example), `tid` and `side` (`buy`, `sell`, or
/// `block` for a block trade) are not read.
struct GeminiTrade: Sendable, Equatable {
  /// `symbol` (`BTCUSD`).
  var symbol: String
  /// `price`, exact.
  var price: Price
  /// `quantity`; nil when absent, null or empty.
  var quantity: Price?
  /// `timestamp`, epoch milliseconds.
  var time: Int64

  init(symbol: String, price: Price, quantity: Price? = nil, time: Int64) {
    self.symbol = symbol
    self.price = price
    self.quantity = quantity
    self.time = time
  }

  /// - Parameter symbol: the symbol of the `l2_updates` the entry came in, used when the entry
  ///   names none.
  init(object: JSONObject, symbol bookSymbol: String? = nil) throws(ShapeError) {
    let symbol: String
    switch object["symbol"] {
    case .string(let text)? where !text.isEmpty: symbol = text
    case nil:
      guard let bookSymbol, !bookSymbol.isEmpty else { throw ShapeError(#"trade has no "symbol""#) }
      symbol = bookSymbol
    default: throw ShapeError(#""symbol" must be a non-empty string"#)
    }
    guard let priceText = Self.decimalText(object["price"]) else {
      throw ShapeError(#""price" must be a decimal string"#)
    }
    guard let price = Price(priceText) else { throw ShapeError(#""price" is not a decimal number"#) }
    var quantity: Price? = nil
    switch object["quantity"] {
    case nil, .null?, .string("")?: break
    case let value?:
      guard let text = Self.decimalText(value) else {
        throw ShapeError(#""quantity" must be a decimal string"#)
      }
      guard let q = Price(text) else { throw ShapeError(#""quantity" is not a decimal number"#) }
      quantity = q
    }
    let time: Int64
    switch object["timestamp"] {
    case .number(let text)?, .string(let text)?:
      guard let t = VenueJSON.milliseconds(text), t >= 0 else {
        throw ShapeError(#""timestamp" must be epoch milliseconds"#)
      }
      time = t
    default: throw ShapeError(#"trade has no "timestamp" (epoch milliseconds)"#)
    }
    self.init(symbol: symbol, price: price, quantity: quantity, time: time)
  }

  /// A decimal string's contents, or a number's text (Gemini writes strings; a number is read
  /// the same way rather than refused).
  static func decimalText(_ value: JSONValue?) -> String? {
    switch value {
    case .string(let text)?, .number(let text)?: text
    default: nil
    }
  }

  var quote: Quote { Quote(symbol: symbol, price: price, volume: quantity, time: time) }
}
