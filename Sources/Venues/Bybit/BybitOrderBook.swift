import JSON

/// One Bybit `orderbook.1.<symbol>` message, the level-1 book (docs/protocols.md §9):
/// `{"topic":"orderbook.1.BTCUSDT","type":"snapshot","ts":1733450000000,"data":{"s":"BTCUSDT","b":[["97250.00","1.2"]],"a":[["97250.01","0.4"]],"u":123,"seq":456},"cts":1733449999998}`.
/// A `snapshot` replaces the symbol's book (also the one Bybit re-sends when the top has not
/// changed for a while, and the one with `u` 1 after a restart of its service); a `delta`
/// changes it: an empty `b` or `a` leaves that side as it was, a size `"0"` removes the level.
/// Prices and sizes are decimal strings, kept exactly; `ts` is when Bybit made the message.
/// `u`, `seq` and `cts` are not read.
struct BybitOrderBook: Sendable, Equatable {
  /// The prefix of the level-1 book topics.
  static let topic = "orderbook.1."

  var symbol: String
  /// A snapshot (the whole book) rather than a delta.
  var isSnapshot: Bool
  /// `[price, size]` pairs as sent, best first (the order is not relied on).
  var bids: [LocalBook.Level]
  var asks: [LocalBook.Level]
  /// `ts`, epoch milliseconds; 0 when absent (the runtime then stamps the receive time).
  var time: Int64

  /// - Parameter topicSymbol: the symbol of the topic (`orderbook.1.BTCUSDT`), for a `data`
  ///   without `s`.
  init(object: JSONObject, topicSymbol: String) throws(ShapeError) {
    switch object["type"] {
    case .string("snapshot")?: isSnapshot = true
    case .string("delta")?: isSnapshot = false
    default: throw ShapeError(#"orderbook: "type" must be "snapshot" or "delta""#)
    }
    guard case .object(let data)? = object["data"] else {
      throw ShapeError(#"orderbook: "data" must be an object"#)
    }
    switch data["s"] {
    case .string(let text)? where !text.isEmpty: symbol = text
    case nil, .null?:
      guard !topicSymbol.isEmpty else { throw ShapeError(#"orderbook: no symbol"#) }
      symbol = topicSymbol
    default: throw ShapeError(#"orderbook: "s" must be a non-empty string"#)
    }
    bids = try Self.levels(data, "b")
    asks = try Self.levels(data, "a")
    switch object["ts"] {
    case nil, .null?: time = 0
    case .number(let text)?, .string(let text)?:
      guard let t = VenueJSON.milliseconds(text), t >= 0 else {
        throw ShapeError(#"orderbook: "ts" must be epoch milliseconds"#)
      }
      time = t
    default: throw ShapeError(#"orderbook: "ts" must be a number (epoch milliseconds)"#)
    }
  }

  /// `b` or `a`: an array of `[price, size]` decimal strings; absent or null is an empty side.
  private static func levels(_ data: JSONObject, _ key: String) throws(ShapeError) -> [LocalBook.Level] {
    let entries: [JSONValue]
    switch data[key] {
    case nil, .null?: return []
    case .array(let array)?: entries = array
    default: throw ShapeError(#"orderbook: "\#(key)" must be an array"#)
    }
    var levels: [LocalBook.Level] = []
    levels.reserveCapacity(min(entries.count, LocalBook.maximumLevels))
    for (index, entry) in entries.enumerated() {
      guard case .array(let pair) = entry, pair.count >= 2, case .string(let priceText) = pair[0],
        case .string(let sizeText) = pair[1], let price = Price(priceText), let size = Price(sizeText),
        price.value > 0, size.value >= 0
      else {
        throw ShapeError(
          #"orderbook: "\#(key)"[\#(index)] must be ["price","size"], positive decimal strings"#)
      }
      levels.append(LocalBook.Level(price: price, size: size))
    }
    return levels
  }

  /// The message applied to its symbol's book in `context`: the best bid and ask after it, when
  /// both sides have a level. A delta before any snapshot is ignored (Bybit starts every
  /// subscription with one); a book for more symbols than `DecodingContext.maximumBooks` is
  /// refused.
  func event(context: inout DecodingContext) -> ProviderEvent {
    if context.books[symbol] == nil {
      guard isSnapshot else { return .ignored("orderbook delta before its snapshot") }
      guard context.books.count < DecodingContext.maximumBooks else {
        return .malformed("orderbook: books for more than \(DecodingContext.maximumBooks) symbols")
      }
    }
    var book = context.books.removeValue(forKey: symbol) ?? LocalBook()
    if isSnapshot { book.clear() }
    for level in bids { book.set(.bid, price: level.price, size: level.size) }
    for level in asks { book.set(.ask, price: level.price, size: level.size) }
    let quote = book.quote(symbol: symbol, time: time)
    context.books[symbol] = book
    return .quotes(quote.map { [$0] } ?? [])
  }
}
