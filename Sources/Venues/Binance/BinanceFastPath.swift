import JSON

/// A specialised decoder for Binance trades — the firehose — straight from the UTF-8 bytes, in
/// both shapes: wrapped by the combined-stream endpoint
/// (`{"stream":"btcusdt@trade","data":{"e":"trade",…}}`) and bare (`{"e":"trade",…}`).
///
/// Deliberately narrow: it answers only for a trade it can decode exactly like the model path
/// (`BinanceMessage.event(json:)`) and returns nil for anything else — acknowledgements, errors,
/// other events, a wrapper with other members, event keys longer than one letter, a field given
/// twice, a null or non-integer `T`, escapes or non-ASCII in strings, nested values — leaving
/// those to the model path. Both paths are tested to agree on the fixtures and on mutated and
/// fuzzed input.
enum BinanceFastPath {
  /// The trade in `bytes`, or nil when the model path must decide.
  static func trade(_ bytes: UnsafeRawBufferPointer) -> Quote? {
    var inTable = false
    return trade(bytes, table: nil, inTable: &inTable)
  }

  /// `trade(_:)`, its symbol taken from `table` where it is there (`inTable` then true): no new
  /// string, and no second look-up by the subscription filter.
  static func trade(_ bytes: UnsafeRawBufferPointer, table: SymbolTable?, inTable: inout Bool) -> Quote? {
    var s = JSONByteScanner(bytes: bytes)
    var bare = Fields()
    var wrapped: Quote?
    var sawStream = false
    var sawData = false
    s.skipSpace()
    guard s.take(UInt8(ascii: "{")) else { return nil }
    s.skipSpace()
    guard !s.take(UInt8(ascii: "}")) else { return nil }
    repeat {
      s.skipSpace()
      guard let key = s.simpleString() else { return nil }
      s.skipSpace()
      guard s.take(UInt8(ascii: ":")) else { return nil }
      s.skipSpace()
      if key.count == 1 {
        guard bare.read(bytes[key.start], from: &s) else { return nil }
      } else if key.equals("data", in: bytes) {
        guard !sawData, let quote = event(&s, table: table, inTable: &inTable) else { return nil }
        sawData = true
        wrapped = quote
      } else if key.equals("stream", in: bytes) {
        guard !sawStream, s.simpleString() != nil else { return nil }
        sawStream = true
      } else {
        return nil  // "result", "error", "id", anything else: the model path
      }
      s.skipSpace()
    } while s.take(UInt8(ascii: ","))
    guard s.take(UInt8(ascii: "}")) else { return nil }
    s.skipSpace()
    guard s.atEnd else { return nil }
    if sawStream || sawData {
      return sawStream && sawData && bare.seen == 0 ? wrapped : nil
    }
    return bare.quote(in: bytes, table: table, inTable: &inTable)
  }

  /// A bare trade object, `{"e":"trade",…}`.
  static func event(_ s: inout JSONByteScanner, table: SymbolTable?, inTable: inout Bool) -> Quote? {
    var fields = Fields()
    guard s.take(UInt8(ascii: "{")) else { return nil }
    s.skipSpace()
    guard !s.take(UInt8(ascii: "}")) else { return nil }
    repeat {
      s.skipSpace()
      guard let key = s.simpleString(), key.count == 1 else { return nil }
      s.skipSpace()
      guard s.take(UInt8(ascii: ":")) else { return nil }
      s.skipSpace()
      guard fields.read(s.bytes[key.start], from: &s) else { return nil }
      s.skipSpace()
    } while s.take(UInt8(ascii: ","))
    guard s.take(UInt8(ascii: "}")) else { return nil }
    return fields.quote(in: s.bytes, table: table, inTable: &inTable)
  }

  /// The members of a trade event, or of a book ticker (`{"u":…,"s":…,"b":…,"B":…,"a":…,"A":…}`,
  /// no `e`), read so far.
  struct Fields {
    static let type: UInt8 = 1
    static let symbol: UInt8 = 2
    static let price: UInt8 = 4
    static let quantity: UInt8 = 8
    static let time: UInt8 = 16
    static let other: UInt8 = 32

    static let bid: UInt8 = 1
    static let bidSize: UInt8 = 2
    static let ask: UInt8 = 4
    static let askSize: UInt8 = 8

    var seen: UInt8 = 0
    /// The book ticker's members seen (`bid`, `bidSize`, `ask`, `askSize`).
    var bookSeen: UInt8 = 0
    var symbolSpan = JSONByteScanner.Span(start: 0, end: 0)
    var price: Price?
    var quantity: Price?
    var time: Int64 = 0
    var bid: Price?
    var bidSize: Price?
    var ask: Price?
    var askSize: Price?

    /// Reads the value of the one-letter key `key`; false when the model path must decide.
    mutating func read(_ key: UInt8, from s: inout JSONByteScanner) -> Bool {
      let bit: UInt8
      switch key {
      case UInt8(ascii: "e"):
        bit = Self.type
        guard let value = s.simpleString(), value.equals("trade", in: s.bytes) else { return false }
      case UInt8(ascii: "s"):
        bit = Self.symbol
        guard let value = s.simpleString(), value.count > 0 else { return false }
        symbolSpan = value
      case UInt8(ascii: "p"):
        bit = Self.price
        guard let value = s.simpleString(), let p = JSONByteScanner.price(value.slice(of: s.bytes)) else {
          return false
        }
        price = p
      case UInt8(ascii: "q"):
        bit = Self.quantity
        guard let value = s.simpleString(), let q = JSONByteScanner.price(value.slice(of: s.bytes)) else {
          return false
        }
        quantity = q
      case UInt8(ascii: "T"):
        bit = Self.time
        guard let value = s.number(), let t = JSONByteScanner.integer(value.slice(of: s.bytes)) else {
          return false
        }
        time = t
      case UInt8(ascii: "b"), UInt8(ascii: "B"), UInt8(ascii: "a"), UInt8(ascii: "A"):
        // A book ticker's decimal strings; in a trade, older streams' order ids (numbers).
        if s.peek(UInt8(ascii: "\"")) { return readBook(key, from: &s) }
        seen |= Self.other
        return s.skipScalar()
      default:
        // E, t, m, M, u and any other one-letter member: a scalar the model path does not read
        // (E only when T is missing, and then this path gives up).
        seen |= Self.other
        return s.skipScalar()
      }
      guard seen & bit == 0 else { return false }  // a duplicate: the model path
      seen |= bit
      return true
    }

    /// One of a book ticker's decimal strings.
    private mutating func readBook(_ key: UInt8, from s: inout JSONByteScanner) -> Bool {
      guard let value = s.simpleString(), let number = JSONByteScanner.price(value.slice(of: s.bytes)) else {
        return false
      }
      let bit: UInt8
      switch key {
      case UInt8(ascii: "b"): (bit, bid) = (Self.bid, number)
      case UInt8(ascii: "B"): (bit, bidSize) = (Self.bidSize, number)
      case UInt8(ascii: "a"): (bit, ask) = (Self.ask, number)
      default: (bit, askSize) = (Self.askSize, number)
      }
      guard bookSeen & bit == 0 else { return false }
      bookSeen |= bit
      return true
    }

    func quote(in bytes: UnsafeRawBufferPointer, table: SymbolTable?, inTable: inout Bool) -> Quote? {
      if bookSeen != 0 {
        // A book ticker has no `e`, and its prices are `b` and `a`.
        guard seen & (Self.type | Self.price | Self.quantity | Self.time) == 0, seen & Self.symbol != 0,
          let bid, let ask
        else { return nil }
        let symbol = symbol(in: bytes, table: table, inTable: &inTable)
        return Quote(symbol: symbol, bid: bid, bidSize: bidSize, ask: ask, askSize: askSize, time: 0)
      }
      let needed = Self.type | Self.symbol | Self.price | Self.time
      guard seen & needed == needed, let price else { return nil }
      let symbol = symbol(in: bytes, table: table, inTable: &inTable)
      return Quote(symbol: symbol, price: price, volume: quantity, time: time)
    }

    /// The table's own string for the symbol where it is there; else a new one.
    private func symbol(in bytes: UnsafeRawBufferPointer, table: SymbolTable?, inTable: inout Bool) -> String
    {
      if let known = table?.symbol(matching: symbolSpan.slice(of: bytes)) {
        inTable = true
        return known
      }
      inTable = false
      return symbolSpan.string(in: bytes)
    }
  }
}
