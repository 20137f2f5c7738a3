import JSON

/// One trade of Bitfinex's `trades` channel on a trading pair: `[ID, MTS, AMOUNT, PRICE]`, JSON
/// numbers whose text is kept exactly (`1.7023900800000002` stays so). AMOUNT is positive when
/// the taker bought and negative when it sold; the size is its absolute value. Fields Bitfinex
/// may append later are ignored (its documentation: never hard-code an array's length).
struct BitfinexTrade: Sendable, Equatable {
  /// ID, the trade's number.
  var id: Int64
  /// MTS, epoch milliseconds.
  var time: Int64
  /// AMOUNT, signed by the taker's side, exact.
  var amount: Price
  /// PRICE, exact.
  var price: Price

  init(id: Int64, time: Int64, amount: Price, price: Price) {
    self.id = id
    self.time = time
    self.amount = amount
    self.price = price
  }

  /// Reads `[ID, MTS, AMOUNT, PRICE, …]`. Numbers may also come as strings (what Bitfinex's
  /// `conf` flags for decimals and times as strings would send; the ticker sets none).
  init(_ value: JSONValue) throws(ShapeError) {
    guard case .array(let fields) = value else {
      throw ShapeError("a trade must be an array, not \(value.kindDescription)")
    }
    guard fields.count >= 4 else {
      throw ShapeError("a trade needs ID, MTS, AMOUNT and PRICE, not \(fields.count) fields")
    }
    guard let id = Self.text(fields[0]).flatMap({ Int64($0) }) else {
      throw ShapeError("the trade's ID must be a whole number")
    }
    guard let time = Self.text(fields[1]).flatMap(VenueJSON.milliseconds), time >= 0 else {
      throw ShapeError("the trade's MTS must be epoch milliseconds")
    }
    guard let amount = Self.text(fields[2]).flatMap({ Price($0) }) else {
      throw ShapeError("the trade's AMOUNT must be a number")
    }
    guard let price = Self.text(fields[3]).flatMap({ Price($0) }) else {
      throw ShapeError("the trade's PRICE must be a number")
    }
    self.init(id: id, time: time, amount: amount, price: price)
  }

  /// A number's text, or a string's contents.
  private static func text(_ value: JSONValue) -> String? {
    switch value {
    case .number(let text), .string(let text): text
    default: nil
    }
  }

  /// The taker's size: AMOUNT without its sign.
  var size: Price {
    guard amount.text.hasPrefix("-") else { return amount }
    return Price(amount.text.dropFirst()) ?? amount
  }

  func quote(symbol: String) -> Quote { Quote(symbol: symbol, price: price, volume: size, time: time) }
}
