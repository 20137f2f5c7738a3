/// A specialised decoder for the two Finnhub messages that make up nearly all traffic — trade
/// batches and `{"type":"ping"}` — straight from the UTF-8 bytes, without building a `JSONValue`
/// tree or the `APIResponse`/`PriceData` models.
///
/// It is deliberately narrow: it accepts only what it can decode exactly like the model path
/// (`FinnhubProvider.decode(json:)`) and returns nil for anything else — unknown or duplicate keys,
/// escapes or non-ASCII in strings, a malformed entry, any JSON it does not fully understand —
/// so the model path decides those. Both paths are tested to agree on every fixture and on
/// mutated and fuzzed input.
enum FinnhubFastPath {
  /// The event for `bytes`, or nil when the model path must decide.
  static func decode(_ bytes: UnsafeRawBufferPointer) -> ProviderEvent? {
    var quotes: [Quote] = []
    switch decode(bytes, appendingTo: &quotes) {
    case .trades: return .quotes(quotes)
    case .keepalive: return .keepalive
    case .undecided: return nil
    }
  }

  enum Verdict { case trades, keepalive, undecided }

  /// Appends a trade message's quotes to `quotes` (`.trades`); `.undecided` leaves `quotes` as
  /// it was and means the model path must decide.
  /// With `symbols`, a quote for a subscribed symbol takes its symbol string from the table
  /// instead of a new one.
  static func decode(
    _ bytes: UnsafeRawBufferPointer, appendingTo quotes: inout [Quote], symbols: SymbolTable? = nil
  ) -> Verdict {
    let before = quotes.count
    var scanner = Scanner(bytes: bytes)
    scanner.symbols = symbols
    let verdict = scanner.message(into: &quotes)
    if verdict != .trades && quotes.count > before { quotes.removeSubrange(before...) }
    return verdict
  }

  struct Scanner {
    let bytes: UnsafeRawBufferPointer
    var i = 0
    /// Large messages (`FinnhubLargeMessage`): false checks the trades without keeping them,
    /// recording the offset of every `recordEvery`-th one in `starts`.
    var keep = true
    var recordEvery = 0
    var starts: [Int] = []
    var tradeCount = 0
    /// The subscribed symbols, whose strings quotes reuse (see `SymbolTable.symbol(matching:)`).
    var symbols: SymbolTable?

    init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    // MARK: Message

    mutating func message(into quotes: inout [Quote]) -> Verdict {
      skipSpace()
      guard take(UInt8(ascii: "{")) else { return .undecided }
      var type: Span?
      var hasData = false
      skipSpace()
      if !take(UInt8(ascii: "}")) {
        repeat {
          skipSpace()
          guard let key = simpleString() else { return .undecided }
          skipSpace()
          guard take(UInt8(ascii: ":")) else { return .undecided }
          skipSpace()
          if key.equals("type", in: bytes) {
            guard type == nil, let value = simpleString() else { return .undecided }
            type = value
          } else if key.equals("data", in: bytes) {
            guard !hasData, trades(into: &quotes) else { return .undecided }
            hasData = true
          } else {
            return .undecided  // "msg", unknown keys: the model path
          }
          skipSpace()
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "}")) else { return .undecided }
      }
      skipSpace()
      guard i == bytes.count, let type else { return .undecided }
      if type.equals("trade", in: bytes), hasData { return .trades }
      if type.equals("ping", in: bytes), !hasData { return .keepalive }
      return .undecided
    }

    /// `[ {trade}, … ]`, each appended to `quotes`; false when the model path must decide.
    mutating func trades(into quotes: inout [Quote]) -> Bool {
      guard take(UInt8(ascii: "[")) else { return false }
      skipSpace()
      if take(UInt8(ascii: "]")) { return true }
      repeat {
        skipSpace()
        if recordEvery > 0 && tradeCount % recordEvery == 0 { starts.append(i) }
        guard let quote = trade() else { return false }
        if keep { quotes.append(quote) }
        tradeCount += 1
        skipSpace()
      } while take(UInt8(ascii: ","))
      return take(UInt8(ascii: "]"))
    }

    /// `count` trades of an array already checked, the first at offset `i`.
    mutating func trades(count: Int, into quotes: inout [Quote]) -> Bool {
      for n in 0..<count {
        skipSpace()
        guard let quote = trade() else { return false }
        quotes.append(quote)
        skipSpace()
        if n + 1 < count, !take(UInt8(ascii: ",")) { return false }
      }
      return true
    }

    /// `{"c":…,"p":…,"s":…,"t":…,"v":…}` in any order, nothing else.
    mutating func trade() -> Quote? {
      guard take(UInt8(ascii: "{")) else { return nil }
      var price: Price?
      var symbol: Span?
      var time: Int64?
      var volume: Price?
      var seen: UInt8 = 0
      skipSpace()
      if take(UInt8(ascii: "}")) { return nil }
      repeat {
        skipSpace()
        guard let key = simpleString(), key.count == 1 else { return nil }
        skipSpace()
        guard take(UInt8(ascii: ":")) else { return nil }
        skipSpace()
        let bit: UInt8
        switch bytes[key.start] {
        case UInt8(ascii: "p"):
          bit = 1
          guard let value = number(), let p = Self.price(value.slice(of: bytes)) else { return nil }
          price = p
        case UInt8(ascii: "s"):
          bit = 2
          guard let value = simpleString(), value.count > 0 else { return nil }
          symbol = value
        case UInt8(ascii: "t"):
          bit = 4
          guard let value = number(), let t = Self.integer(value.slice(of: bytes)) else { return nil }
          time = t
        case UInt8(ascii: "v"):
          bit = 8
          if takeLiteral("null") {
            volume = nil
          } else {
            guard let value = number(), let v = Self.price(value.slice(of: bytes)) else { return nil }
            volume = v
          }
        case UInt8(ascii: "c"):
          bit = 16
          guard conditions() else { return nil }
        default:
          return nil
        }
        guard seen & bit == 0 else { return nil }  // a duplicate key: the model path
        seen |= bit
        skipSpace()
      } while take(UInt8(ascii: ","))
      guard take(UInt8(ascii: "}")), let price, let symbol, let time else { return nil }
      let name = symbol.slice(of: bytes)
      return Quote(
        symbol: symbols?.symbol(matching: name) ?? String(decoding: name, as: UTF8.self), price: price,
        volume: volume, time: time)
    }

    /// `null`, or an array of simple strings (the conditions are not part of a `Quote`).
    mutating func conditions() -> Bool {
      if takeLiteral("null") { return true }
      guard take(UInt8(ascii: "[")) else { return false }
      skipSpace()
      if take(UInt8(ascii: "]")) { return true }
      repeat {
        skipSpace()
        guard simpleString() != nil else { return false }
        skipSpace()
      } while take(UInt8(ascii: ","))
      return take(UInt8(ascii: "]"))
    }

    // MARK: Tokens

    struct Span {
      var start: Int
      var end: Int
      var count: Int { end - start }

      func slice(of bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[start..<end])
      }

      func equals(_ text: StaticString, in bytes: UnsafeRawBufferPointer) -> Bool {
        guard text.utf8CodeUnitCount == count else { return false }
        let p = text.utf8Start
        for k in 0..<count where bytes[start + k] != p[k] { return false }
        return true
      }
    }

    /// A string of printable ASCII without escapes; nil (model path) for anything else.
    mutating func simpleString() -> Span? {
      guard take(UInt8(ascii: "\"")) else { return nil }
      let start = i
      while i < bytes.count {
        let b = bytes[i]
        if b == UInt8(ascii: "\"") {
          defer { i += 1 }
          return Span(start: start, end: i)
        }
        guard b >= 0x20, b < 0x7F, b != UInt8(ascii: "\\") else { return nil }
        i += 1
      }
      return nil
    }

    /// A JSON number (RFC 8259 grammar); its span.
    mutating func number() -> Span? {
      let start = i
      if peek(UInt8(ascii: "-")) { i += 1 }
      guard i < bytes.count, isDigit(bytes[i]) else { return nil }
      if bytes[i] == UInt8(ascii: "0") {
        i += 1
      } else {
        while i < bytes.count, isDigit(bytes[i]) { i += 1 }
      }
      if peek(UInt8(ascii: ".")) {
        i += 1
        guard i < bytes.count, isDigit(bytes[i]) else { return nil }
        while i < bytes.count, isDigit(bytes[i]) { i += 1 }
      }
      if i < bytes.count, bytes[i] | 0x20 == UInt8(ascii: "e") {
        i += 1
        if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
        guard i < bytes.count, isDigit(bytes[i]) else { return nil }
        while i < bytes.count, isDigit(bytes[i]) { i += 1 }
      }
      return Span(start: start, end: i)
    }

    /// The price of a JSON number: plain decimals straight from the bytes; exponent forms
    /// through the general `Price` initialiser.
    static func price(_ number: UnsafeRawBufferPointer) -> Price? {
      Price.plain(bytes: number) ?? Price(String(decoding: number, as: UTF8.self))
    }

    /// Plain digits that fit an Int64 (what `Int64(text)` accepts for a JSON integer without a
    /// sign); nil otherwise, leaving signs, fractions and exponents to the model path.
    static func integer(_ digits: UnsafeRawBufferPointer) -> Int64? {
      guard !digits.isEmpty, digits.count <= 18 else { return nil }
      var value: Int64 = 0
      for b in digits {
        guard b >= 0x30, b <= 0x39 else { return nil }
        value = value * 10 + Int64(b - 0x30)
      }
      return value
    }

    mutating func takeLiteral(_ literal: StaticString) -> Bool {
      let n = literal.utf8CodeUnitCount
      guard i + n <= bytes.count else { return false }
      let p = literal.utf8Start
      for k in 0..<n where bytes[i + k] != p[k] { return false }
      // A literal must not run into more letters ("nullx").
      if i + n < bytes.count, isLetter(bytes[i + n]) { return false }
      i += n
      return true
    }

    @inline(__always) func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
    @inline(__always) func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A }
    @inline(__always) func peek(_ b: UInt8) -> Bool { i < bytes.count && bytes[i] == b }

    @inline(__always) mutating func take(_ b: UInt8) -> Bool {
      guard i < bytes.count, bytes[i] == b else { return false }
      i += 1
      return true
    }

    @inline(__always) mutating func skipSpace() {
      while i < bytes.count {
        switch bytes[i] {
        case 0x20, 0x09, 0x0A, 0x0D: i += 1
        default: return
        }
      }
    }
  }
}
