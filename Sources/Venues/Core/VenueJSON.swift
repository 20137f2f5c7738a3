import JSON
import WebSocketWire

/// Small pieces the venues' model paths share: reading a message as JSON, and the numbers and
/// symbols every venue spells a little differently.
enum VenueJSON {
  /// The message's JSON (text frames and binary frames holding UTF-8 JSON alike), or why not.
  static func parse(_ message: WebSocketMessage, with parser: JSONParser) -> Result<JSONValue, JSONError> {
    do throws(JSONError) {
      switch message {
      case .text(let text): return .success(try parser.parse(text))
      case .binary(let bytes): return .success(try parser.parse(bytes))
      }
    } catch {
      return .failure(error)
    }
  }

  /// Epoch milliseconds from a JSON number text: an integer (`1771247814642`), or an exponent or
  /// fraction form whose value is a whole number (`1.771247814642E12`, `1771247814642.0` — what a
  /// server that prints every number as a double sends). nil for fractions and out-of-range values.
  static func milliseconds(_ text: String) -> Int64? {
    if let value = Int64(text) { return value }
    guard let parts = DecimalText(text) else { return nil }
    let plain = parts.plainText(original: text)
    guard let point = plain.utf8.firstIndex(of: UInt8(ascii: ".")) else { return Int64(plain) }
    let fraction = plain.utf8[plain.utf8.index(after: point)...]
    guard fraction.allSatisfy({ $0 == UInt8(ascii: "0") }) else { return nil }
    let whole = String(decoding: plain.utf8[..<point], as: UTF8.self)
    // "-0.0" → "-0"; Int64 reads that as 0.
    return Int64(whole)
  }

  /// `symbol` in upper case when it is made of ASCII letters and digits in `parts` groups joined
  /// by single `separator`s (`parts` 1: `BTCUSDT`; 2: `KRW-BTC`, or Kraken's `BTC/USD`); nil
  /// otherwise.
  static func upperCaseSymbol(_ symbol: String, parts: Int, separator: UInt8 = UInt8(ascii: "-")) -> String? {
    var out: [UInt8] = []
    out.reserveCapacity(symbol.utf8.count)
    var groups = 1
    var groupLength = 0
    for b in symbol.utf8 {
      switch b {
      case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
        out.append(b)
        groupLength += 1
      case UInt8(ascii: "a")...UInt8(ascii: "z"):
        out.append(b - 0x20)
        groupLength += 1
      case separator:
        guard groupLength > 0 else { return nil }
        out.append(b)
        groups += 1
        groupLength = 0
      default:
        return nil
      }
    }
    guard groupLength > 0, groups == parts else { return nil }
    return String(decoding: out, as: UTF8.self)
  }

  /// `"a"`, `"a","b"`: the strings as JSON array elements, escaped.
  static func appendQuotedList(_ items: [String], to out: inout [UInt8]) {
    for (n, item) in items.enumerated() {
      if n > 0 { out.append(UInt8(ascii: ",")) }
      JSONEscaping.appendQuoted(item, to: &out)
    }
  }

  /// The items of `list` that are not in `other`, in order, each once.
  static func missing(from other: [String], in list: [String]) -> [String] {
    var skip = Set(other)
    var out: [String] = []
    for item in list where !skip.contains(item) {
      out.append(item)
      skip.insert(item)
    }
    return out
  }

  /// The member `key` of `object`, a decimal string (`"97250.01000000"`), exactly.
  static func decimalString(_ object: JSONObject, _ key: String) throws(ShapeError) -> Price {
    guard case .string(let text)? = object[key], let price = Price(text) else {
      throw ShapeError(#""\#(key)" must be a decimal string"#)
    }
    return price
  }

  /// `decimalString` of a member that may be absent or null (a size the venue may leave out).
  static func optionalDecimalString(_ object: JSONObject, _ key: String) throws(ShapeError) -> Price? {
    switch object[key] {
    case nil, .null?: return nil
    case .string(let text)?:
      guard let size = Price(text) else { throw ShapeError(#""\#(key)" is not a decimal number"#) }
      return size
    default: throw ShapeError(#""\#(key)" must be a decimal string"#)
    }
  }
}

extension JSONByteScanner {
  /// The price of a JSON number or of a decimal string's contents: plain decimals straight from
  /// the bytes; exponent forms through the general `Price` initialiser (what the model path
  /// gives for the same text).
  static func price(_ text: UnsafeRawBufferPointer) -> Price? {
    Price.plain(bytes: text) ?? Price(String(decoding: text, as: UTF8.self))
  }
}
