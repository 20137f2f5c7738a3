import Testing

@testable import TickerSupport

/// `TerminalText`: every character a terminal acts on, or that splits a record, comes out as a
/// visible escape that `printf '%b'` reads back; everything else is unchanged.
@Suite struct TerminalTextTests {
  /// The inverse of the escaping, written independently: `\t \n \r \\ \xHH \uHHHH`.
  static func unescape(_ text: String) -> String? {
    var out = String.UnicodeScalarView()
    var scalars = Array(text.unicodeScalars)[...]
    func hex(_ count: Int) -> UInt32? {
      guard scalars.count >= count else { return nil }
      let digits = String(String.UnicodeScalarView(scalars.prefix(count)))
      scalars = scalars.dropFirst(count)
      return UInt32(digits, radix: 16)
    }
    while let scalar = scalars.popFirst() {
      guard scalar == "\\" else {
        out.append(scalar)
        continue
      }
      switch scalars.popFirst() {
      case "t": out.append("\t")
      case "n": out.append("\n")
      case "r": out.append("\r")
      case "\\": out.append("\\")
      case "x": guard let v = hex(2), let s = Unicode.Scalar(v) else { return nil }; out.append(s)
      case "u": guard let v = hex(4), let s = Unicode.Scalar(v) else { return nil }; out.append(s)
      default: return nil
      }
    }
    return String(out)
  }

  /// Every C0 control, DEL, every C1 control, and the invisible reordering and separator
  /// characters.
  static let dangerous: [Unicode.Scalar] =
    (UInt32(0)..<0x20).map { Unicode.Scalar($0)! } + [Unicode.Scalar(0x7F)!]
    + (UInt32(0x80)...0x9F).map { Unicode.Scalar($0)! }
    + [
      0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068,
      0x2069, 0xFEFF,
    ].map { Unicode.Scalar($0)! }

  @Test func everyDangerousCharacterIsEscapedAndComesBack() {
    for scalar in Self.dangerous {
      let text = "A" + String(scalar) + "B"
      let escaped = TerminalText.escaped(text)
      #expect(escaped.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value < 0x7F }, "\(scalar.value)")
      #expect(Self.unescape(escaped) == text, "\(scalar.value): \(escaped)")
      #expect(!TerminalText.isSafe(text))
    }
  }

  @Test(arguments: [
    ("plain BINANCE:BTCUSDT", "plain BINANCE:BTCUSDT"),
    ("IC MARKETS:1", "IC MARKETS:1"),
    ("κόσμε 비트코인 €", "κόσμε 비트코인 €"),
    ("\u{1B}[2J\u{1B}[H", "\\x1b[2J\\x1b[H"),
    ("\u{1B}]0;title\u{07}", "\\x1b]0;title\\x07"),
    ("a\tb\nc\rd", "a\\tb\\nc\\rd"),
    ("back\\slash", "back\\\\slash"),
    ("\u{0}nul", "\\x00nul"),
    ("\u{9B}31m", "\\u009b31m"),
    ("\u{202E}gnp.exe", "\\u202egnp.exe"),
    ("line\u{2028}sep", "line\\u2028sep"),
  ])
  func goldenEscapes(input: String, expected: String) {
    #expect(TerminalText.escaped(input) == expected)
    #expect(Self.unescape(TerminalText.escaped(input)) == input)
  }

  /// The word-at-a-time check says what the byte-by-byte definition says, for every length and
  /// for each kind of byte at every place (controls, DEL, backslash, high bytes, the bounds).
  @Test func plainWordsAgreeWithPlainBytes() {
    let plain: [UInt8] = [0x20, 0x21, 0x41, 0x5B, 0x5D, 0x7E, 0x30]
    let odd: [UInt8] = [0x00, 0x09, 0x1F, 0x5C, 0x7F, 0x80, 0x9B, 0xC3, 0xFF]
    func bytewise(_ bytes: [UInt8]) -> Bool {
      bytes.allSatisfy { $0 >= 0x20 && $0 <= 0x7E && $0 != 0x5C }
    }
    var random = SplitMix64(seed: 5)
    for count in 0...40 {
      for _ in 0..<50 {
        var bytes = (0..<count).map { _ in plain.randomElement(using: &random)! }
        #expect(bytes.withUnsafeBufferPointer { TerminalText.isPlain($0) } == bytewise(bytes))
        guard count > 0 else { continue }
        for _ in 0..<Int.random(in: 1...2, using: &random) {
          bytes[Int.random(in: 0..<count, using: &random)] = odd.randomElement(using: &random)!
        }
        #expect(bytes.withUnsafeBufferPointer { TerminalText.isPlain($0) } == bytewise(bytes), "\(bytes)")
      }
      for place in 0..<count {
        for byte in odd + plain {
          var bytes = [UInt8](repeating: 0x41, count: count)
          bytes[place] = byte
          #expect(bytes.withUnsafeBufferPointer { TerminalText.isPlain($0) } == bytewise(bytes))
        }
      }
    }
  }

  @Test func appendingKeepsWhatWasThere() {
    var out = Array("x\t".utf8)
    TerminalText.appendEscaped("a\u{1B}b", to: &out)
    #expect(out == Array("x\ta\\x1bb".utf8))
  }
}
