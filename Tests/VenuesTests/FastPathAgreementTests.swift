import TestSupport
import Testing

@testable import TestSupport
@testable import TickerSupport
@testable import Venues
@testable import WebSocketWire

/// The specialised decoders must agree with the reference paths wherever they answer.
@Suite(.ownThread) struct FastPathAgreementTests {
  /// A small deterministic generator (SplitMix64) so failures reproduce.
  struct Random: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  /// A plain decimal: an optional minus, 1–20 integer digits (no leading zero unless alone) and
  /// 0–24 fraction digits.
  static func randomDecimal(_ rng: inout Random) -> String {
    let intDigits = Int(rng.next() % 20) + 1
    let fracDigits = Int(rng.next() % 25)
    var text = rng.next() % 4 == 0 ? "-" : ""
    for k in 0..<intDigits {
      text += String(k == 0 && intDigits > 1 ? 1 + rng.next() % 9 : rng.next() % 10)
    }
    if fracDigits > 0 {
      text += "."
      for _ in 0..<fracDigits { text += String(rng.next() % 10) }
    }
    return text
  }

  func expectSame(_ fast: Price, _ reference: Price, _ text: String) {
    #expect(fast.text == reference.text, "\(text)")
    #expect(
      fast.value.bitPattern == reference.value.bitPattern, "\(text): \(fast.value) vs \(reference.value)")
    #expect(fast == reference, "\(text)")
    #expect(fast.hashValue == reference.hashValue, "\(text)")
  }

  @Test(
    "Price: the one-pass path agrees with the general one",
    arguments: [
      "0", "-0", "0.0", "-0.000", "7", "95372.09", "95372.10", "95380", "95380.0", "0.00063", "122.1",
      "-12.5", "123456789012345", "1234567890123456", "12345678901234567890.5", "0.0000000000000000000001",
      "0.00000000000000000000001", "9007199254740993", "1.7976931348623157", "00", "01", "1.", ".5", "-",
      "1e5", "1.5E-3", "", "1.2.3", "+1", " 1", "1 ", "0x10", "١٢",
    ])
  func priceExamples(text: String) {
    let fast = Price.plain(text)
    let reference = Price.general(text)
    if let fast {
      guard let reference else {
        Issue.record("\(text): fast path accepted what the general path rejects")
        return
      }
      expectSame(fast, reference, text)
    }
    // Whatever the fast path declines, the public initialiser still decides like the reference.
    #expect((Price(text) == nil) == (reference == nil), "\(text)")
  }

  @Test("Price: random decimals", arguments: 0..<4)
  func priceRandom(seed: UInt64) {
    var rng = Random(state: seed)
    for _ in 0..<5000 {
      let text = Self.randomDecimal(&rng)
      guard let reference = Price.general(text) else {
        #expect(Price.plain(text) == nil, "\(text)")
        continue
      }
      guard let fast = Price.plain(text) else {
        Issue.record("\(text): the fast path declined a plain decimal")
        continue
      }
      expectSame(fast, reference, text)
    }
  }

  /// Every server text of every fixture, then mutations of them: wherever the fast decoder
  /// answers, the answer equals the model path's, price texts included.
  @Test("Finnhub: fast decoder agrees with the APIResponse/PriceData path")
  func finnhubAgreement() throws {
    let provider = FinnhubProvider()
    var inputs: [String] = [
      #"{"type":"ping"}"#, #"{"data":[],"type":"trade"}"#, #" { "type" : "trade" , "data" : [ ] } "#,
      #"{"data":[{"p":1,"s":"A","t":1}],"type":"trade"}"#,
      #"{"data":[{"c":["1","12"],"p":1.50,"s":"IC MARKETS:1","t":0,"v":null}],"type":"trade"}"#,
      #"{"data":[{"p":1,"s":"A","t":1,"x":2}],"type":"trade"}"#,
      #"{"data":[{"p":1,"p":2,"s":"A","t":1}],"type":"trade"}"#,
      #"{"data":[{"p":-1,"s":"A","t":-1}],"type":"trade"}"#,
      #"{"data":[{"p":1e2,"s":"A","t":1.0}],"type":"trade"}"#,
      #"{"data":[{"p":1,"s":"\u0041","t":1}],"type":"trade"}"#,
      #"{"type":"trade"}"#, #"{"type":"ping","data":[]}"#, #"{"type":"error","msg":"x"}"#,
      // Around the opening and ending read as words.
      #"{"data":[{"p":1,"s":"A","t":1}],"type":"trade"} "#,
      #"{"data":[{"p":1,"s":"A","t":1}],"type":"trade"}}"#,
      #"{"data":[{"p":1,"s":"A","t":1}],"type":"ping"}"#, #"{"data":[{"p":1,"s":"A","t":1}]}"#,
      #"{"data":[{"p":1,"s":"A","t":1}],"type":"trade","type":"trade"}"#,
      #"{"data":[{"p":1,"s":"A","t":1}],"data":[],"type":"trade"}"#,
      #"{"data": [{"p":1,"s":"A","t":1}] , "type":"trade"}"#, #"{"data":[],"type":"trade"}"#,
      #"{"data":[{"p":1,"s":"A","t":1}],"type":"trades"}"#,
      #"{"data":[{"p":1,"s":"A","t":1}],"type":"trad"}"#,
      #"{"data":[{"p":1,"s":"A","t":1}],"type":"trade" }"#,
      #"{"data":[{"p":1,"s":"A","t":1}],"type":"trade""#,
      #"{"data":[{"p":1,"s":"A","t":1}],"msg":"x","type":"trade"}"#, #"{"data":"#, #"{"data":[]"#,
    ]
    for name in [
      "finnhub-session.ndjson", "upbit-session.ndjson", "binance-session.ndjson", "coinbase-session.ndjson",
      "kraken-session.ndjson",
      "okx-session.ndjson",
    ] {
      inputs += try Fixture.session(name).filter {
        $0.direction == "S>" && ($0.kind == "text" || $0.kind == "binary")
      }.map(\.body)
    }
    var rng = Random(state: 42)
    var mutated: [String] = []
    for input in inputs {
      let bytes = Array(input.utf8)
      for _ in 0..<300 {
        var copy = bytes
        switch rng.next() % 4 {
        case 0 where !copy.isEmpty:
          copy[Int(rng.next() % UInt64(copy.count))] = UInt8(truncatingIfNeeded: rng.next())
        case 1 where !copy.isEmpty: copy.remove(at: Int(rng.next() % UInt64(copy.count)))
        case 2:
          let alphabet = Array(#" ,:{}[]"0-.e9"#.utf8)
          copy.insert(
            alphabet[Int(rng.next() % UInt64(alphabet.count))], at: Int(rng.next() % UInt64(copy.count + 1)))
        default:
          if let i = copy.firstIndex(of: UInt8(ascii: "9")) {
            copy[i] = UInt8(ascii: "0") + UInt8(rng.next() % 10)
          }
        }
        mutated.append(String(decoding: copy, as: UTF8.self))
      }
    }
    var answered = 0
    var allInTableCount = 0
    let earlier = Quote(symbol: "EARLIER", price: Price("1")!, time: 1)
    let table = SymbolTable(["A", "BINANCE:BTCUSDT", "IC MARKETS:1", "AAPL", "BINANCE:ETHUSDT", "B"])
    for input in inputs + mutated {
      for message in [WebSocketMessage.text(input), .binary(Array(input.utf8))] {
        // The appending entry point: quotes join the caller's array (nothing else does, even
        // when the fast path gives up halfway through a message), everything else is returned.
        var batch = [earlier]
        let returned = provider.decode(message, appendingQuotesTo: &batch)
        let reference = provider.decode(message)
        // Given the subscribed symbols, the hot path takes matching symbols' strings from the
        // table: the same quotes, byte for byte, whether a symbol is in the table or not.
        var interned = [earlier]
        #expect(
          provider.decode(message, appendingQuotesTo: &interned, symbols: table) == returned, "\(input)")
        #expect(interned == batch, "\(input)")
        // Saying every quote is the table's lets the caller skip its filter: never wrongly.
        var told = [earlier]
        var allInTable = false
        #expect(
          provider.decode(message, appendingQuotesTo: &told, symbols: table, allInTable: &allInTable)
            == returned,
          "\(input)")
        #expect(told == batch, "\(input)")
        if allInTable {
          allInTableCount += 1
          #expect(told.dropFirst().allSatisfy { table.contains($0.symbol) }, "\(input)")
        } else if returned == nil, told.count > 1, told.dropFirst().allSatisfy({ table.contains($0.symbol) })
        {
          // Only the model path's quotes are not vouched for.
          #expect(provider.fastDecode(message) == nil, "\(input)")
        }
        #expect(interned.map { Array($0.symbol.utf8) } == batch.map { Array($0.symbol.utf8) }, "\(input)")
        if case .quotes(let quotes) = reference {
          #expect(returned == nil, "\(input)")
          #expect(batch == [earlier] + quotes, "\(input)")
          #expect(batch.map(\.price.text) == [earlier.price.text] + quotes.map(\.price.text), "\(input)")
        } else {
          #expect(returned == reference, "\(input)")
          #expect(batch == [earlier], "\(input)")
        }
        guard let fast = provider.fastDecode(message) else { continue }
        answered += 1
        let model = provider.decodeThroughModel(message)
        #expect(fast == model, "\(input)")
        #expect(fast.quotes.map(\.price.text) == model.quotes.map(\.price.text), "\(input)")
        #expect(fast.quotes.map { $0.volume?.text } == model.quotes.map { $0.volume?.text }, "\(input)")
      }
    }
    // The fast path must actually cover the common messages, or this test proves nothing.
    #expect(answered > 1000)
    #expect(allInTableCount > 100)
  }

  /// The Finnhub scanner reads prices and times in one pass over the message (no span, then a
  /// second parse): for every number spelling, inside a trade and alone, the fast answer (when
  /// there is one) is the model path's, to the `Double`'s bits, and what follows the number is
  /// where the scanner stops.
  @Test("Finnhub: one-pass numbers agree with Price and the model path")
  func finnhubNumbers() {
    let provider = FinnhubProvider()
    var rng = Random(state: 7)
    var numbers = [
      "0", "-0", "0.0", "-0.000", "7", "95372.09", "95372.10", "95380", "95380.0", "0.00063", "122.1",
      "-12.5", "123456789012345", "1234567890123456", "12345678901234567890.5", "0.0000000000000000000001",
      "0.00000000000000000000001", "9007199254740993", "1.7976931348623157", "00", "01", "1.", ".5", "-",
      "1e5", "1.5E-3", "1E+2", "1e", "1e+", "-1.5e400", "1.2.3", "+1", "0x10", "1_000", "--1", "-.5",
      "999999999999999999", "1000000000000000000", "9223372036854775807", "0.1e1", "12a", "1 ", "1,",
    ]
    for _ in 0..<3000 {
      var text = Self.randomDecimal(&rng)
      if rng.next() % 8 == 0 { text += "e\(Int(rng.next() % 40) - 20)" }
      numbers.append(text)
    }
    var answered = 0
    for number in numbers {
      // The scanner alone, with something after the number.
      for tail in ["", ",", "}", " ", "x", "."] {
        let bytes = Array((number + tail).utf8)
        bytes.withUnsafeBytes { raw in
          var scanner = FinnhubFastPath.Scanner(bytes: raw)
          let scanned = scanner.price()
          var reference = FinnhubFastPath.Scanner(bytes: raw)
          if let span = reference.number() {
            let text = String(decoding: span.slice(of: raw), as: UTF8.self)
            if let price = Price(text) {
              guard let scanned else {
                Issue.record("\(number + tail): the scanner declined a JSON number Price accepts")
                return
              }
              expectSame(scanned, price, number + tail)
              #expect(scanner.i == reference.i, "\(number + tail)")
            } else {
              #expect(scanned == nil, "\(number + tail)")
            }
          } else {
            #expect(scanned == nil, "\(number + tail)")
          }
        }
      }
      // Inside a message, as price, volume and time.
      for message in [
        #"{"data":[{"p":\#(number),"s":"A","t":1,"v":1}],"type":"trade"}"#,
        #"{"data":[{"p":1,"s":"A","t":1,"v":\#(number)}],"type":"trade"}"#,
        #"{"data":[{"p":1,"s":"A","t":\#(number)}],"type":"trade"}"#,
      ] {
        guard let fast = provider.fastDecode(.text(message)) else { continue }
        answered += 1
        let model = provider.decodeThroughModel(.text(message))
        #expect(fast == model, "\(message)")
        for (f, m) in zip(fast.quotes, model.quotes) {
          expectSame(f.price, m.price, message)
          if let fv = f.volume, let mv = m.volume { expectSame(fv, mv, message) }
          #expect((f.volume == nil) == (m.volume == nil), "\(message)")
        }
      }
    }
    #expect(answered > 3000)
  }

  /// The words the scanner compares the usual message's opening and ending with are those texts.
  @Test func finnhubWords() {
    func word(_ text: String) -> UInt64 {
      Array(text.utf8).withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
    }
    #expect(FinnhubFastPath.Scanner.dataOpening == word(#"{"data":"#))
    #expect(FinnhubFastPath.Scanner.typeMember == word(#","type":"#))
    #expect(FinnhubFastPath.Scanner.tradeEnd == word(#""trade"}"#))
    #expect(FinnhubFastPath.Scanner.conditionsNull == word(#"{"c":nul"#))
    #expect(FinnhubFastPath.Scanner.nullPrice == word(#"ull,"p":"#))
    for (key, letter) in [
      (FinnhubFastPath.Scanner.symbolKey, "s"), (FinnhubFastPath.Scanner.timeKey, "t"),
      (FinnhubFastPath.Scanner.volumeKey, "v"),
    ] {
      #expect(key == word(#","\#(letter)":   "#) & 0xFF_FFFF_FFFF)
    }
  }

  /// The usual trade entry (`{"c":null,"p":…,"s":…,"t":…,"v":…}`) is read in one straight line;
  /// anything else falls back to the members one by one. Every entry one byte away from the
  /// usual one (each byte removed, replaced by each of a set, or a byte inserted) decodes as the
  /// model path decodes it, and the usual ones do take the fast path.
  @Test("Finnhub: the usual trade entry and every entry one byte away agree with the model path")
  func finnhubUsualEntry() {
    let provider = FinnhubProvider()
    let table = SymbolTable(["BINANCE:BTCUSDT", "A"])
    let usual = [
      #"{"data":[{"c":null,"p":95372.09,"s":"BINANCE:BTCUSDT","t":1768655932976,"v":0.00063}],"type":"trade"}"#,
      #"{"data":[{"c":null,"p":1,"s":"A","t":0,"v":null},{"c":null,"p":2.5,"s":"B","t":7,"v":1}],"type":"trade"}"#,
    ]
    var fastCount = 0
    for text in usual {
      let bytes = Array(text.utf8)
      var variants: [[UInt8]] = [bytes]
      for position in bytes.indices {
        var removed = bytes
        removed.remove(at: position)
        variants.append(removed)
        for byte in Array(#" ,:{}[]"0-.e9nx"#.utf8) + [0x5C, 0x80] {
          var replaced = bytes
          replaced[position] = byte
          variants.append(replaced)
        }
        var inserted = bytes
        inserted.insert(UInt8(ascii: " "), at: position)
        variants.append(inserted)
      }
      for variant in variants {
        let message = WebSocketMessage.binary(variant)
        let input = String(decoding: variant, as: UTF8.self)
        var batch: [Quote] = []
        let returned = provider.decode(message, appendingQuotesTo: &batch, symbols: table)
        let reference = provider.decodeThroughModel(message)
        if case .quotes(let quotes) = reference {
          #expect(returned == nil, "\(input)")
          #expect(batch == quotes, "\(input)")
          #expect(batch.map(\.price.text) == quotes.map(\.price.text), "\(input)")
          #expect(batch.map { $0.volume?.text } == quotes.map { $0.volume?.text }, "\(input)")
        } else {
          #expect(returned == reference, "\(input)")
          #expect(batch.isEmpty, "\(input)")
        }
        guard let fast = provider.fastDecode(message) else { continue }
        fastCount += 1
        #expect(fast == provider.decodeThroughModel(message), "\(input)")
      }
      #expect(provider.fastDecode(.binary(bytes)) != nil, "\(text)")
    }
    #expect(fastCount > 100)
  }

  /// The scanner's word-at-a-time steps: eight digits at once, and eight plain string bytes at
  /// once, against byte-by-byte references, with every byte value at every position.
  @Test func finnhubWordSteps() {
    func word(_ bytes: [UInt8]) -> UInt64 {
      bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
    }
    var rng = Random(state: 11)
    for _ in 0..<200 {
      let digits = (0..<8).map { _ in UInt8(ascii: "0") + UInt8(rng.next() % 10) }
      let plain = (0..<8).map { _ in UInt8(0x20 + rng.next() % 0x5F) }.map {
        $0 == 0x22 || $0 == 0x5C ? 0x41 : $0
      }
      #expect(FinnhubFastPath.Scanner.isEightDigits(word(digits)))
      #expect(
        FinnhubFastPath.Scanner.eightDigits(word(digits)) == UInt64(String(decoding: digits, as: UTF8.self))!)
      #expect(ASCIIWord.unplain(word(plain)) | ASCIIWord.bytes(equalTo: 0x22, in: word(plain)) == 0)
      for position in 0..<8 {
        for byte in UInt8.min...UInt8.max {
          var d = digits
          d[position] = byte
          #expect(FinnhubFastPath.Scanner.isEightDigits(word(d)) == (byte &- 0x30 < 10))
          var q = plain
          q[position] = byte
          // A lone special byte is found, in its place; a plain one is not.
          let unplain = byte < 0x20 || byte >= 0x7F || byte == 0x5C
          let quotes = ASCIIWord.bytes(equalTo: 0x22, in: word(q))
          let found = ASCIIWord.unplain(word(q))
          #expect((found != 0) == unplain)
          #expect((quotes != 0) == (byte == 0x22))
          if unplain { #expect(found.trailingZeroBitCount / 8 == position) }
          if byte == 0x22 { #expect(quotes.trailingZeroBitCount / 8 == position) }
        }
      }
    }
    // Simple strings of every length, with a special byte anywhere, scan as the byte loop does.
    for length in 0..<40 {
      let body = (0..<length).map { UInt8(0x41 + $0 % 26) }
      for position in -1..<length {
        for special: UInt8 in [0x22, 0x5C, 0x1F, 0x7F, 0x80, 0xFF, 0x00] {
          var bytes = body
          if position >= 0 { bytes[position] = special }
          let input = [0x22] + bytes + [0x22, 0x2C]
          input.withUnsafeBytes { raw in
            var scanner = FinnhubFastPath.Scanner(bytes: raw)
            let span = scanner.simpleString()
            // The reference: the first quote ends the string; anything not plain before it fails.
            let end = bytes.firstIndex(of: 0x22) ?? length
            let plain = bytes[..<end].allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != 0x5C }
            if plain {
              #expect(span?.start == 1 && span?.end == 1 + end, "\(length) \(position) \(special)")
              #expect(scanner.i == 2 + end)
            } else {
              #expect(span == nil, "\(length) \(position) \(special)")
            }
          }
        }
      }
    }
  }
}
