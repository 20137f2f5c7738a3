import TickerSupport

/// Writing JSON strings: the one escaping routine used for subscribe messages, JSON-lines output
/// and anything else that produces JSON text.
public enum JSONEscaping {
  /// Appends `text` as a quoted JSON string (RFC 8259 escapes; non-ASCII written as UTF-8).
  ///
  /// Besides what RFC 8259 requires (`"`, `\` and U+0000–U+001F), DEL, the C1 controls and the
  /// Unicode characters `TerminalText` escapes (line separators, bidirectional overrides) are
  /// written as `\uXXXX` too, so JSON lines shown on a terminal cannot drive it either.
  public static func appendQuoted(_ text: String, to out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    if text.utf8.allSatisfy({ $0 < 0x80 }) {
      for byte in text.utf8 { appendASCII(byte, to: &out) }
    } else {
      for scalar in text.unicodeScalars {
        if scalar.isASCII {
          appendASCII(UInt8(scalar.value), to: &out)
        } else if TerminalText.needsEscape(scalar) {
          appendUnicodeEscape(UInt16(truncatingIfNeeded: scalar.value), to: &out)
        } else {
          out.append(contentsOf: UTF8.encode(scalar)!)
        }
      }
    }
    out.append(UInt8(ascii: "\""))
  }

  @inline(__always)
  private static func appendASCII(_ byte: UInt8, to out: inout [UInt8]) {
    switch byte {
    case UInt8(ascii: "\""): out.append(contentsOf: [0x5C, 0x22])
    case UInt8(ascii: "\\"): out.append(contentsOf: [0x5C, 0x5C])
    case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
    case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
    case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
    case 0x00..<0x20, 0x7F: appendUnicodeEscape(UInt16(byte), to: &out)
    default: out.append(byte)
    }
  }

  /// `\uXXXX` for a code point in the Basic Multilingual Plane.
  private static func appendUnicodeEscape(_ value: UInt16, to out: inout [UInt8]) {
    out.append(contentsOf: [
      0x5C, UInt8(ascii: "u"), Hex.digit(UInt8(value >> 12), .lower),
      Hex.digit(UInt8(truncatingIfNeeded: value >> 8), .lower),
      Hex.digit(UInt8(truncatingIfNeeded: value >> 4), .lower),
      Hex.digit(UInt8(truncatingIfNeeded: value), .lower),
    ])
  }

  /// `text` as a quoted JSON string.
  public static func quoted(_ text: String) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(text.utf8.count + 2)
    appendQuoted(text, to: &out)
    return String(decoding: out, as: UTF8.self)
  }
}
