import JSON
import WebSocketWire

/// A specialised decoder for Upbit's `ticker` messages — nearly all of its traffic, ~800 bytes
/// and ~30 keys each — straight from the UTF-8 bytes: the five fields a `Quote` needs are read,
/// every other member is checked and skipped, and no `JSONValue` tree or `String` per key is built.
///
/// Deliberately narrow: it accepts only a flat object of scalars that it can decode exactly like
/// the model path (`UpbitProvider.decode(json:)`), and gives up (`.undecided`) on anything else —
/// `error` or `status` keys, a field given twice or in both spellings, a null or exponent-form
/// time, escapes or non-ASCII in strings, nested values — leaving those to the model path. Both
/// paths are tested to agree on the fixtures and on mutated and fuzzed input.
enum UpbitFastPath {
  enum Verdict { case ticker, undecided }

  /// Appends a ticker's quote to `quotes` (`.ticker`); `.undecided` leaves `quotes` as it was.
  static func decode(_ bytes: UnsafeRawBufferPointer, appendingTo quotes: inout [Quote]) -> Verdict {
    var scanner = JSONByteScanner(bytes: bytes)
    guard let quote = ticker(&scanner) else { return .undecided }
    quotes.append(quote)
    return .ticker
  }

  /// The fields the model path reads, whichever spelling they came in.
  enum Field: Int {
    case type, code, price, volume, tradeTime, time
  }

  /// What a key means: a field, a key that makes the message something else (`error`,
  /// `status`: `.reject`), or nothing we read (nil).
  enum Key { case field(Field), reject }

  @inline(__always)
  static func key(_ span: JSONByteScanner.Span, in bytes: UnsafeRawBufferPointer) -> Key? {
    switch span.count {
    case 2:
      guard bytes[span.start] == UInt8(ascii: "t") || bytes[span.start] == UInt8(ascii: "c") else {
        return nil
      }
      if span.equals("tp", in: bytes) { return .field(.price) }
      if span.equals("tv", in: bytes) { return .field(.volume) }
      if span.equals("cd", in: bytes) { return .field(.code) }
      if span.equals("ty", in: bytes) { return .field(.type) }
    case 3: if span.equals("tms", in: bytes) { return .field(.time) }
    case 4:
      if span.equals("ttms", in: bytes) { return .field(.tradeTime) }
      if span.equals("code", in: bytes) { return .field(.code) }
      if span.equals("type", in: bytes) { return .field(.type) }
    case 5: if span.equals("error", in: bytes) { return .reject }
    case 6: if span.equals("status", in: bytes) { return .reject }
    case 9: if span.equals("timestamp", in: bytes) { return .field(.time) }
    case 11: if span.equals("trade_price", in: bytes) { return .field(.price) }
    case 12: if span.equals("trade_volume", in: bytes) { return .field(.volume) }
    case 15: if span.equals("trade_timestamp", in: bytes) { return .field(.tradeTime) }
    default: break
    }
    return nil
  }

  static func ticker(_ s: inout JSONByteScanner) -> Quote? {
    let bytes = s.bytes
    var type: JSONByteScanner.Span?
    var code: JSONByteScanner.Span?
    var price: Price?
    var volume: Price?
    var tradeTime: Int64?
    var time: Int64?
    var seen: UInt8 = 0
    s.skipSpace()
    guard s.take(UInt8(ascii: "{")) else { return nil }
    s.skipSpace()
    guard !s.take(UInt8(ascii: "}")) else { return nil }
    repeat {
      s.skipSpace()
      guard let name = s.simpleString() else { return nil }
      s.skipSpace()
      guard s.take(UInt8(ascii: ":")) else { return nil }
      s.skipSpace()
      switch key(name, in: bytes) {
      case nil:
        guard s.skipScalar() else { return nil }
      case .reject?:
        return nil
      case .field(let field)?:
        let bit: UInt8 = 1 << field.rawValue
        guard seen & bit == 0 else { return nil }  // twice, or in both spellings: the model path
        seen |= bit
        switch field {
        case .type, .code:
          guard let value = s.simpleString() else { return nil }
          if field == .type { type = value } else { code = value }
        case .price, .volume:
          guard let value = s.number(), let p = JSONByteScanner.price(value.slice(of: bytes)) else {
            return nil
          }
          if field == .price { price = p } else { volume = p }
        case .tradeTime, .time:
          guard let value = s.number(), let t = JSONByteScanner.integer(value.slice(of: bytes)) else {
            return nil
          }
          if field == .tradeTime { tradeTime = t } else { time = t }
        }
      }
      s.skipSpace()
    } while s.take(UInt8(ascii: ","))
    guard s.take(UInt8(ascii: "}")) else { return nil }
    s.skipSpace()
    guard s.atEnd, let type, type.equals("ticker", in: bytes), let code, code.count > 0, let price,
      let at = tradeTime ?? time
    else { return nil }
    return Quote(symbol: code.string(in: bytes), price: price, volume: volume, time: at)
  }
}
