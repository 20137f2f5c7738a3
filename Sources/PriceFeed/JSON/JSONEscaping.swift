/// Writing JSON strings: the one escaping routine used for subscribe messages, JSON-lines output
/// and anything else that produces JSON text.
public enum JSONEscaping {
  /// Appends `text` as a quoted JSON string (RFC 8259 escapes; non-ASCII written as UTF-8).
  public static func appendQuoted(_ text: String, to out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\""): out.append(contentsOf: [0x5C, 0x22])
      case UInt8(ascii: "\\"): out.append(contentsOf: [0x5C, 0x5C])
      case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
      case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
      case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
      case 0x00..<0x20, 0x7F:
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        out.append(contentsOf: [
          0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)],
        ])
      default: out.append(byte)
      }
    }
    out.append(UInt8(ascii: "\""))
  }

  /// `text` as a quoted JSON string.
  public static func quoted(_ text: String) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(text.utf8.count + 2)
    appendQuoted(text, to: &out)
    return String(decoding: out, as: UTF8.self)
  }
}
