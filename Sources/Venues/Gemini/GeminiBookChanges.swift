import JSON
import WebSocketWire

/// The `changes` of one Gemini `l2_updates` (docs/protocols.md §10), read for the top of book:
/// `{"type":"l2_updates","symbol":"BTCUSD","changes":[["buy","97412.58","0"],["buy","97412.55","0.07626"]]}`.
/// Each change sets the size at a price on a side (`buy` the bids, `sell` the asks), `"0"`
/// removing the level. A subscription's first `l2_updates` carries the whole book; the later ones
/// change it. Prices and sizes are decimal strings, kept exactly. No time: the quotes are timed
/// when they arrive.
enum GeminiBookChanges {
  /// At most this many malformed changes are described (the rest are counted).
  static let describedDrops = 10

  /// Applies the `changes` of `message` to `book` one at a time as the parser meets them (a first
  /// book is hundreds of kilobytes; no tree of it is kept). Malformed changes are left out and
  /// described: at most `describedDrops`, the rest counted.
  static func apply(_ message: WebSocketMessage, to book: inout LocalBook, parser: JSONParser)
    throws(JSONError) -> [String]
  {
    var dropped: [String] = []
    var index = 0
    var malformed = 0
    func visit(_ value: JSONValue?) {
      guard let value else { return }
      defer { index += 1 }
      do throws(ShapeError) {
        let (side, level) = try change(value)
        book.set(side, price: level.price, size: level.size)
      } catch {
        malformed += 1
        if dropped.count < describedDrops { dropped.append("changes[\(index)]: \(error.message)") }
      }
    }
    func parse(_ bytes: UnsafeRawBufferPointer) -> JSONError? {
      do throws(JSONError) {
        _ = try parser.parseStreaming(bytes, arrayUnder: "changes", every: Int.max, visit: visit)
        return nil
      } catch {
        return error
      }
    }
    let failure: JSONError? =
      switch message {
      case .text(var text): text.withUTF8 { parse(UnsafeRawBufferPointer($0)) }
      case .binary(let bytes): bytes.withUnsafeBytes(parse)
      }
    if let failure { throw failure }
    if malformed > dropped.count { dropped.append("and \(malformed - dropped.count) more malformed changes") }
    return dropped
  }

  /// `["buy","97412.58","0.0413"]`: the side, and the level (a size of zero removes it).
  static func change(_ value: JSONValue) throws(ShapeError) -> (LocalBook.Side, LocalBook.Level) {
    guard case .array(let entry) = value, entry.count == 3, case .string(let sideText) = entry[0],
      case .string(let priceText) = entry[1], case .string(let sizeText) = entry[2]
    else { throw ShapeError(#"must be ["buy"|"sell","price","size"], strings"#) }
    let side: LocalBook.Side
    switch sideText {
    case "buy": side = .bid
    case "sell": side = .ask
    default: throw ShapeError("side must be \"buy\" or \"sell\", not \(JSONEscaping.quoted(sideText))")
    }
    guard let price = Price(priceText), price.value > 0 else {
      throw ShapeError("price must be a positive decimal string")
    }
    guard let size = Price(sizeText), size.value >= 0 else {
      throw ShapeError("size must be a decimal string, zero or more")
    }
    return (side, LocalBook.Level(price: price, size: size))
  }

  /// `message`, an `l2_updates` of `symbol`, applied to its book in `context`: the best bid and
  /// ask when the message was the whole book or moved the top (a price or a size of either
  /// best level), and both sides have a level. A change before the symbol's whole book is
  /// ignored; a book for more symbols than `DecodingContext.maximumBooks` is refused.
  static func event(
    _ message: WebSocketMessage, symbol: String, isWholeBook: Bool, context: inout DecodingContext,
    parser: JSONParser
  ) -> ProviderEvent {
    if context.books[symbol] == nil {
      guard isWholeBook else { return .ignored("l2_updates before the symbol's book") }
      guard context.books.count < DecodingContext.maximumBooks else {
        return .malformed("l2_updates: books for more than \(DecodingContext.maximumBooks) symbols")
      }
    }
    var book = context.books.removeValue(forKey: symbol) ?? LocalBook()
    if isWholeBook { book.clear() }
    let top = (book.bids.first, book.asks.first)
    let dropped: [String]
    do throws(JSONError) {
      dropped = try apply(message, to: &book, parser: parser)
    } catch {
      // Read once already: only a parser that answers differently gets here. The book may be
      // half changed: dropped, to be whole again at the next subscription.
      return .malformed("invalid JSON: \(error)")
    }
    context.books[symbol] = book
    let moved = isWholeBook || top != (book.bids.first, book.asks.first)
    let quotes = moved ? book.quote(symbol: symbol, time: 0).map { [$0] } ?? [] : []
    guard !dropped.isEmpty else { return .quotes(quotes) }
    let described = dropped.map { "l2_updates " + $0 }
    return quotes.isEmpty
      ? .malformed(described.joined(separator: "; ")) : .partial(quotes, dropped: described)
  }
}
