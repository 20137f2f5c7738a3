import TickerSupport

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
    var unmatched = 0
    return decode(bytes, appendingTo: &quotes, symbols: symbols, unmatched: &unmatched)
  }

  /// `decode(_:appendingTo:symbols:)`, counting in `unmatched` the quotes whose symbol is not
  /// in `symbols` (all of them without a table).
  static func decode(
    _ bytes: UnsafeRawBufferPointer, appendingTo quotes: inout [Quote], symbols: SymbolTable?,
    unmatched: inout Int
  ) -> Verdict {
    let before = quotes.count
    var scanner = Scanner(bytes: bytes)
    let verdict = scanner.message(into: &quotes, symbols: symbols)
    if verdict != .trades && quotes.count > before { quotes.removeSubrange(before...) }
    unmatched = scanner.unmatched
    return verdict
  }

  /// Where every `every`-th trade of a large message starts (`Scanner.starts`).
  final class TradeStarts {
    let every: Int
    var offsets: [Int] = []
    init(every: Int) { self.every = max(1, every) }
  }

  struct Scanner {
    let bytes: UnsafeRawBufferPointer
    /// `bytes` as typed bytes, and its count. Every read is guarded in the function that reads:
    /// by `k < n` for one byte, `k + width <= n` for a word. An empty buffer may have no base
    /// address; then `n` is 0 and `p` is never read.
    let p: UnsafePointer<UInt8>
    let n: Int
    var i = 0
    /// Large messages (`FinnhubLargeMessage`): false checks the trades without keeping them,
    /// recording the offset of every `starts.every`-th one in `starts` (a class: a scanner without
    /// one, every message's, has no array to release).
    var keep = true
    var starts: TradeStarts?
    var tradeCount = 0
    /// How many quotes had a symbol not in the `symbols` table they were scanned with (see
    /// `trade(into:symbols:)`).
    var unmatched = 0

    init(bytes: UnsafeRawBufferPointer) {
      self.bytes = bytes
      n = bytes.count
      // Never read when there is no base address (`n` is 0).
      p = bytes.baseAddress.map { $0.assumingMemoryBound(to: UInt8.self) } ?? UnsafePointer(bitPattern: 0x10)!
    }

    // MARK: Message

    /// The message; `symbols`, the subscribed symbols whose strings quotes reuse, is a parameter
    /// rather than a property: borrowed, it costs no retain and release per message.
    mutating func message(into quotes: inout [Quote], symbols: SymbolTable? = nil) -> Verdict {
      var type: Span?
      var hasData = false
      if word64(at: 0) == Self.dataOpening {
        // The usual opening as one word: what the members below read as `{` and the key "data".
        i = 8
        skipSpace()
        guard trades(into: &quotes, symbols: symbols) else { return .undecided }
        hasData = true
        // The usual ending, `,"type":"trade"}` and nothing after it, as two words.
        if n - i == 16 && word64(at: i) == Self.typeMember && word64(at: i + 8) == Self.tradeEnd {
          i = n
          return .trades
        }
        skipSpace()
        if take(UInt8(ascii: ",")) {
          guard members(type: &type, hasData: &hasData, into: &quotes, symbols: symbols) else {
            return .undecided
          }
        } else {
          guard take(UInt8(ascii: "}")) else { return .undecided }
        }
      } else {
        skipSpace()
        guard take(UInt8(ascii: "{")) else { return .undecided }
        skipSpace()
        if !take(UInt8(ascii: "}")) {
          guard members(type: &type, hasData: &hasData, into: &quotes, symbols: symbols) else {
            return .undecided
          }
        }
      }
      skipSpace()
      guard i == n, let type else { return .undecided }
      if type.count == 5, type.end <= n, word(at: type.start) == Self.tradWord,
        p[type.start + 4] == UInt8(ascii: "e"),
        hasData
      {
        return .trades
      }
      if type.count == 4 && word(at: type.start) == Self.pingWord, !hasData { return .keepalive }
      return .undecided
    }

    /// The members of the message object from the next key to the closing brace; false when the
    /// model path must decide.
    mutating func members(
      type: inout Span?, hasData: inout Bool, into quotes: inout [Quote], symbols: SymbolTable?
    ) -> Bool {
      repeat {
        skipSpace()
        guard let key = simpleString() else { return false }
        skipSpace()
        guard take(UInt8(ascii: ":")) else { return false }
        skipSpace()
        if key.count == 4 && word(at: key.start) == Self.typeWord {
          guard type == nil, let value = simpleString() else { return false }
          type = value
        } else if key.count == 4 && word(at: key.start) == Self.dataWord {
          guard !hasData, trades(into: &quotes, symbols: symbols) else { return false }
          hasData = true
        } else {
          return false  // "msg", unknown keys: the model path
        }
        skipSpace()
      } while take(UInt8(ascii: ","))
      return take(UInt8(ascii: "}"))
    }

    /// `[ {trade}, … ]`, each appended to `quotes`; false when the model path must decide.
    mutating func trades(into quotes: inout [Quote], symbols: SymbolTable?) -> Bool {
      guard take(UInt8(ascii: "[")) else { return false }
      skipSpace()
      if take(UInt8(ascii: "]")) { return true }
      repeat {
        skipSpace()
        if let starts, tradeCount % starts.every == 0 { starts.offsets.append(i) }
        guard trade(into: &quotes, symbols: symbols) else { return false }
        tradeCount += 1
        skipSpace()
      } while take(UInt8(ascii: ","))
      return take(UInt8(ascii: "]"))
    }

    /// `count` trades of an array already checked, the first at offset `i`.
    mutating func trades(count: Int, into quotes: inout [Quote]) -> Bool {
      for k in 0..<count {
        skipSpace()
        guard trade(into: &quotes) else { return false }
        skipSpace()
        if k + 1 < count, !take(UInt8(ascii: ",")) { return false }
      }
      return true
    }

    /// `{"c":…,"p":…,"s":…,"t":…,"v":…}` in any order, nothing else: its quote appended to
    /// `quotes` (unless `keep` is false), built in place rather than returned and copied; false
    /// (nothing appended) when the model path must decide.
    mutating func trade(into quotes: inout [Quote], symbols: SymbolTable? = nil) -> Bool {
      // The usual entry first, as Finnhub writes it. Anything else, from the first byte that
      // differs, goes through the members one by one, from the entry's start.
      let start = i
      if usualTrade(into: &quotes, symbols: symbols) { return true }
      i = start
      return tradeMemberwise(into: &quotes, symbols: symbols)
    }

    /// The usual entry, `{"c":null,"p":…,"s":"…","t":…,"v":…}`: its keys in this order, no space,
    /// no conditions. False (nothing appended, `i` anywhere in the entry) at the first byte that
    /// differs.
    @inline(__always)
    mutating func usualTrade(into quotes: inout [Quote], symbols: SymbolTable?) -> Bool {
      guard word64(at: i) == Self.conditionsNull && word64(at: i + 6) == Self.nullPrice else { return false }
      i += 14
      guard let price = self.price(), member(Self.symbolKey), let symbol = simpleString(), symbol.count > 0,
        member(Self.timeKey), let time = integer(), member(Self.volumeKey), let volume = self.volume(),
        take(UInt8(ascii: "}"))
      else { return false }
      append(symbol: symbol, price: price, volume: volume, time: time, into: &quotes, symbols: symbols)
      return true
    }

    /// A trade entry read one member at a time, in any order and spacing, each of the five keys
    /// at most once.
    @inline(__always)
    mutating func tradeMemberwise(into quotes: inout [Quote], symbols: SymbolTable?) -> Bool {
      guard take(UInt8(ascii: "{")) else { return false }
      var price: Price?
      var symbol: Span?
      var time: Int64?
      var volume: Price?
      var seen: UInt8 = 0
      skipSpace()
      if take(UInt8(ascii: "}")) { return false }
      repeat {
        skipSpace()
        guard let key = tradeKey() else { return false }
        skipSpace()
        let bit: UInt8
        switch key {
        case UInt8(ascii: "p"):
          bit = 1
          guard let value = self.price() else { return false }
          price = value
        case UInt8(ascii: "s"):
          bit = 2
          guard let value = simpleString(), value.count > 0 else { return false }
          symbol = value
        case UInt8(ascii: "t"):
          bit = 4
          guard let value = integer() else { return false }
          time = value
        case UInt8(ascii: "v"):
          bit = 8
          guard let value = self.volume() else { return false }
          volume = value
        case UInt8(ascii: "c"):
          bit = 16
          guard conditions() else { return false }
        default:
          return false
        }
        guard seen & bit == 0 else { return false }  // a duplicate key: the model path
        seen |= bit
        skipSpace()
      } while take(UInt8(ascii: ","))
      guard take(UInt8(ascii: "}")), let symbol, let time else { return false }
      // The texts move into the quote (`consume`): no copy of them, and no release of the locals.
      guard let price = consume price else { return false }
      append(
        symbol: symbol, price: price, volume: consume volume, time: time, into: &quotes, symbols: symbols)
      return true
    }

    /// A trade member's key and its colon: the key's one letter (`"x"` read as three bytes). Any
    /// other key (longer, empty, an escape, a control byte) gives nil or a byte that is none of
    /// the five letters, so the model path decides, as it would after reading the whole key.
    @inline(__always)
    mutating func tradeKey() -> UInt8? {
      let w = word(at: i)
      if w & 0xFFFF_00FF == Self.compactKey {
        // `"x":`, the usual spelling, as one word.
        i += 4
        return UInt8(truncatingIfNeeded: w >> 8)
      }
      guard i + 3 <= n, p[i] == UInt8(ascii: "\""), p[i + 2] == UInt8(ascii: "\"") else { return nil }
      let key = p[i + 1]
      i += 3
      skipSpace()
      guard take(UInt8(ascii: ":")) else { return nil }
      return key
    }

    /// A trade's quote appended to `quotes` (unless `keep` is false), its symbol's string from
    /// `symbols` when the table has it.
    @inline(__always)
    mutating func append(
      symbol: Span, price: consuming Price, volume: consuming Price?, time: Int64, into quotes: inout [Quote],
      symbols: SymbolTable?
    ) {
      let name = UnsafeRawBufferPointer(start: p + symbol.start, count: symbol.count)
      let interned = symbols?.symbol(matching: name)
      if interned == nil { unmatched += 1 }
      if keep {
        quotes.append(
          Quote(
            symbol: interned ?? String(decoding: name, as: UTF8.self), price: price, volume: volume,
            time: time))
      }
    }

    /// A volume: `null` (`.some(nil)`) or a number; nil when it is neither.
    mutating func volume() -> Price?? {
      if takeNull() { return .some(nil) }
      guard let value = self.price() else { return nil }
      return .some(value)
    }

    /// The five bytes at `i` are `key` (a member's comma, key and colon, as `memberKey` spells
    /// it): read past them.
    @inline(__always) mutating func member(_ key: UInt64) -> Bool {
      guard word64(at: i) & 0xFF_FFFF_FFFF == key else { return false }
      i += 5
      return true
    }

    /// `null`, or an array of simple strings (the conditions are not part of a `Quote`).
    mutating func conditions() -> Bool {
      if takeNull() { return true }
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
    }

    /// The four bytes at `k` as a little-endian word; 0 (no key or value spells it) when fewer
    /// than four bytes are left.
    @inline(__always) func word(at k: Int) -> UInt32 {
      guard k >= 0, k + 4 <= n else { return 0 }
      return UInt32(littleEndian: UnsafeRawPointer(p + k).loadUnaligned(as: UInt32.self))
    }

    /// The eight bytes at `k` as a little-endian word; 0 (no constant below) when fewer are left.
    @inline(__always) func word64(at k: Int) -> UInt64 {
      guard k >= 0, k + 8 <= n else { return 0 }
      return UInt64(littleEndian: UnsafeRawPointer(p + k).loadUnaligned(as: UInt64.self))
    }

    /// `{"data":`, `,"type":` and `"trade"}` as `word64(at:)` reads them.
    static var dataOpening: UInt64 { 0x3A22_6174_6164_227B }
    static var typeMember: UInt64 { 0x3A22_6570_7974_222C }
    static var tradeEnd: UInt64 { 0x7D22_6564_6172_7422 }
    /// The usual trade entry's opening `{"c":null,"p":` as two overlapping words (`{"c":nul` at
    /// its start, `ull,"p":` six bytes on).
    static var conditionsNull: UInt64 { 0x6C75_6E3A_2263_227B }
    static var nullPrice: UInt64 { 0x3A22_7022_2C6C_6C75 }
    /// `,"s":`, `,"t":` and `,"v":`: the five bytes `member(_:)` compares.
    static var symbolKey: UInt64 { memberKey("s") }
    static var timeKey: UInt64 { memberKey("t") }
    static var volumeKey: UInt64 { memberKey("v") }

    /// `,"x":` as the low five bytes of `word64(at:)`.
    @inline(__always) static func memberKey(_ letter: Unicode.Scalar) -> UInt64 {
      0x3A_2200_222C | UInt64(letter.value) << 16
    }

    /// Four letters as the word `word(at:)` reads where they are spelled.
    @inline(__always) static func word(
      _ a: Unicode.Scalar, _ b: Unicode.Scalar, _ c: Unicode.Scalar, _ d: Unicode.Scalar
    )
      -> UInt32
    {
      UInt32(a.value) | UInt32(b.value) << 8 | UInt32(c.value) << 16 | UInt32(d.value) << 24
    }

    static var typeWord: UInt32 { word("t", "y", "p", "e") }
    static var dataWord: UInt32 { word("d", "a", "t", "a") }
    static var tradWord: UInt32 { word("t", "r", "a", "d") }
    static var pingWord: UInt32 { word("p", "i", "n", "g") }
    static var nullWord: UInt32 { word("n", "u", "l", "l") }
    /// `"x":` with any `x` (masked out by `0xFFFF_00FF`).
    static var compactKey: UInt32 { word("\"", "\0", "\"", ":") }

    /// A string of printable ASCII without escapes; nil (model path) for anything else.
    mutating func simpleString() -> Span? {
      var k = i
      guard k < n, p[k] == UInt8(ascii: "\"") else { return nil }
      k += 1
      let start = k
      // Eight bytes a step: the first quote ends the string, unless anything but a plain byte
      // comes before it (then the model path decides). The last few bytes one by one.
      while k + 8 <= n {
        let w = UInt64(littleEndian: UnsafeRawPointer(p + k).loadUnaligned(as: UInt64.self))
        let quotes = ASCIIWord.bytes(equalTo: UInt8(ascii: "\""), in: w)
        let unplain = ASCIIWord.unplain(w)
        if quotes | unplain == 0 {
          k += 8
          continue
        }
        guard quotes.trailingZeroBitCount < unplain.trailingZeroBitCount else { return nil }
        k += quotes.trailingZeroBitCount / 8
        i = k + 1
        return Span(start: start, end: k)
      }
      while k < n {
        let b = p[k]
        if b == UInt8(ascii: "\"") {
          i = k + 1
          return Span(start: start, end: k)
        }
        // Printable ASCII (0x20–0x7E) but the backslash.
        guard b &- 0x20 < 0x5F, b != UInt8(ascii: "\\") else { return nil }
        k += 1
      }
      return nil
    }

    /// A JSON number (RFC 8259 grammar); its span.
    mutating func number() -> Span? {
      let start = i
      if peek(UInt8(ascii: "-")) { i += 1 }
      guard i < n, isDigit(p[i]) else { return nil }
      if p[i] == UInt8(ascii: "0") {
        i += 1
      } else {
        while i < n, isDigit(p[i]) { i += 1 }
      }
      if peek(UInt8(ascii: ".")) {
        i += 1
        guard i < n, isDigit(p[i]) else { return nil }
        while i < n, isDigit(p[i]) { i += 1 }
      }
      if i < n, p[i] | 0x20 == UInt8(ascii: "e") {
        i += 1
        if i < n, p[i] == UInt8(ascii: "+") || p[i] == UInt8(ascii: "-") { i += 1 }
        guard i < n, isDigit(p[i]) else { return nil }
        while i < n, isDigit(p[i]) { i += 1 }
      }
      return Span(start: start, end: i)
    }

    /// A JSON number as a `Price`, in one pass: a plain decimal straight from its digits (what
    /// `Price.plain(bytes:)` gives for the same bytes); an exponent form through the general
    /// `Price` initialiser. nil when the bytes are not a JSON number.
    mutating func price() -> Price? {
      let start = i
      var k = i
      let negative = k < n && p[k] == UInt8(ascii: "-")
      if negative { k += 1 }
      guard k < n, p[k] &- 0x30 < 10 else { return nil }
      var mantissa: UInt64 = 0
      // Digits from the first non-zero one on (the integer part has no leading zeros).
      var significant = 0
      if p[k] == UInt8(ascii: "0") {
        k += 1
      } else {
        let intStart = k
        while k < n, p[k] &- 0x30 < 10 {
          mantissa = mantissa &* 10 &+ UInt64(p[k] &- 0x30)
          k += 1
        }
        significant = k - intStart
      }
      var fractionDigits = 0
      if k < n, p[k] == UInt8(ascii: ".") {
        k += 1
        let fracStart = k
        // After a zero integer part, the fraction's leading zeros are not significant (and
        // leave the mantissa 0); every digit after them is.
        if significant == 0 {
          while k < n, p[k] == UInt8(ascii: "0") { k += 1 }
        }
        let leadingZeros = k - fracStart
        while k < n, p[k] &- 0x30 < 10 {
          mantissa = mantissa &* 10 &+ UInt64(p[k] &- 0x30)
          k += 1
        }
        guard k > fracStart else { return nil }
        fractionDigits = k - fracStart
        significant += fractionDigits - leadingZeros
      }
      if k < n, p[k] | 0x20 == UInt8(ascii: "e") {
        // Rare: the grammar, then the general path.
        guard let span = number() else { return nil }
        return Price(String(decoding: span.slice(of: bytes), as: UTF8.self))
      }
      i = k
      let text = Price.text(ofDigits: UnsafeRawBufferPointer(start: p + start, count: k - start))
      return Price(
        plainText: text, mantissa: mantissa, significantDigits: significant, fractionDigits: fractionDigits,
        negative: negative)
    }

    /// A JSON integer of plain digits that fits an Int64 (at most 18 digits; what `Int64(text)`
    /// accepts for a JSON integer without a sign), in one pass; nil for anything else, leaving
    /// signs, fractions, exponents and malformed numbers to the model path.
    mutating func integer() -> Int64? {
      var k = i
      guard k < n, p[k] &- 0x30 < 10 else { return nil }
      var value: Int64 = 0
      if p[k] == UInt8(ascii: "0") {
        k += 1
      } else {
        let start = k
        // Eight digits in one step when there are (a millisecond time has 13).
        if k + 8 <= n {
          let w = UInt64(littleEndian: UnsafeRawPointer(p + k).loadUnaligned(as: UInt64.self))
          if Self.isEightDigits(w) {
            value = Int64(Self.eightDigits(w))
            k += 8
          }
        }
        while k < n, p[k] &- 0x30 < 10 {
          guard k - start < 18 else { return nil }
          value = value * 10 + Int64(p[k] &- 0x30)
          k += 1
        }
      }
      if k < n, p[k] == UInt8(ascii: ".") || p[k] | 0x20 == UInt8(ascii: "e") { return nil }
      i = k
      return value
    }

    /// Whether all eight bytes of `w` are ASCII digits: each high nibble is 3, and stays 3 when
    /// 6 is added (0x3A…0x3F would carry into it; no byte can carry into the next).
    @inline(__always) static func isEightDigits(_ w: UInt64) -> Bool {
      w & 0xF0F0_F0F0_F0F0_F0F0 == 0x3030_3030_3030_3030
        && (w &+ 0x0606_0606_0606_0606) & 0xF0F0_F0F0_F0F0_F0F0 == 0x3030_3030_3030_3030
    }

    /// The value of eight ASCII digits read as a little-endian word (the first digit in the
    /// lowest byte): pairs, then fours, then all eight, by multiplications.
    @inline(__always) static func eightDigits(_ w: UInt64) -> UInt64 {
      var v = w &- 0x3030_3030_3030_3030
      v = (v &* 10) &+ (v >> 8)
      let low = (v & 0x0000_00FF_0000_00FF) &* (100 &+ (1_000_000 << 32))
      let high = ((v >> 16) & 0x0000_00FF_0000_00FF) &* (1 &+ (10_000 << 32))
      return (low &+ high) >> 32
    }

    /// The literal `null`, not running into more letters (`nullx`).
    mutating func takeNull() -> Bool {
      guard word(at: i) == Self.nullWord else { return false }
      if i + 4 < n, isLetter(p[i + 4]) { return false }
      i += 4
      return true
    }

    @inline(__always) func isDigit(_ b: UInt8) -> Bool { b &- 0x30 < 10 }
    @inline(__always) func isLetter(_ b: UInt8) -> Bool { (b | 0x20) &- 0x61 < 26 }
    @inline(__always) func peek(_ b: UInt8) -> Bool { i < n && p[i] == b }

    @inline(__always) mutating func take(_ b: UInt8) -> Bool {
      guard i < n, p[i] == b else { return false }
      i += 1
      return true
    }

    @inline(__always) mutating func skipSpace() {
      while i < n {
        switch p[i] {
        case 0x20, 0x09, 0x0A, 0x0D: i += 1
        default: return
        }
      }
    }
  }
}
