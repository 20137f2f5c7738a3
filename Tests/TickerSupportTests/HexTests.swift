import Testing

@testable import TickerSupport

/// `Hex`: the one digit table, checked against the standard library's own radix-16 text.
@Suite struct HexTests {
  @Test("each nibble's digit in either case, as String(radix: 16) writes it")
  func digits() {
    for nibble in UInt8(0)...15 {
      #expect(Hex.digit(nibble, .lower) == UInt8(ascii: String(nibble, radix: 16).unicodeScalars.first!))
      #expect(
        Hex.digit(nibble, .upper)
          == UInt8(ascii: String(nibble, radix: 16, uppercase: true).unicodeScalars.first!))
    }
    // Only the low four bits count.
    #expect(Hex.digit(0xAB, .lower) == UInt8(ascii: "b"))
  }

  @Test("a byte is two digits, the high one first")
  func bytes() {
    var out: [UInt8] = []
    for byte: UInt8 in [0x00, 0x0F, 0x2E, 0xA9, 0xFF] { Hex.append(byte, .upper, to: &out) }
    Hex.append(0xC3, .lower, to: &out)
    #expect(String(decoding: out, as: UTF8.self) == "000F2EA9FFc3")
  }

  @Test("every byte's value: the sixteen digits in either case, nothing else")
  func values() {
    for byte in UInt8(0)...255 {
      let expected = byte < 0x80 ? UInt8(String(UnicodeScalar(byte)), radix: 16) : nil
      #expect(Hex.value(of: byte) == expected, "byte \(byte)")
    }
  }

  @Test("a number as a fixed count of lower-case digits, zeros first")
  func numbers() {
    #expect(Hex.string(0, digits: 16) == "0000000000000000")
    #expect(Hex.string(0xCBF2_9CE4_8422_2325, digits: 16) == "cbf29ce484222325")
    #expect(Hex.string(0xBEEF, digits: 8) == "0000beef")
    #expect(Hex.string(0x1_2345_6789, digits: 8) == "23456789")
    #expect(Hex.string(0xAB, digits: 0) == "")
    for value: UInt64 in [1, 0xF, 0x10, 0xFFFF_FFFF, .max] {
      let text = String(value, radix: 16)
      #expect(Hex.string(value, digits: 16) == String(repeating: "0", count: 16 - text.count) + text)
    }
  }
}
