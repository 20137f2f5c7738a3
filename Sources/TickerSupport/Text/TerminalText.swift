/// The one escaping routine for text that reaches a terminal or a line-oriented consumer: symbols
/// in the text formats, and every line the ticker writes to stderr (close reasons, HTTP reason
/// phrases, server error messages, config-file text echoed in errors).
///
/// Whatever a server sends, the escaped text holds no byte that a terminal acts on and nothing that
/// splits a record: no C0 control (TAB, LF and CR included), no DEL, no C1 control, no Unicode line
/// or paragraph separator and no bidirectional override that could reorder what is shown. Each is
/// written as a visible escape that `printf '%b'` turns back into the character:
///
/// | character | written as |
/// |---|---|
/// | TAB, LF, CR | `\t`, `\n`, `\r` |
/// | backslash | `\\` (so an escape in the output is never ambiguous) |
/// | other C0 controls and DEL (U+0000–U+001F, U+007F) | `\xHH` (e.g. ESC is `\x1b`) |
/// | C1 controls U+0080–U+009F, U+061C, U+200E, U+200F, U+2028–U+202E, U+2066–U+2069, U+FEFF | `\uHHHH` |
///
/// Everything else, non-ASCII letters included (`κόσμε`, `비트코인`), is written unchanged.
public enum TerminalText {
  /// Appends `text`, escaped, to `out`. Plain printable ASCII (the usual symbol) is copied as is
  /// after one scan.
  public static func appendEscaped(_ text: String, to out: inout [UInt8]) {
    var text = text
    let plain = text.withUTF8 { bytes -> Bool in
      guard isPlain(bytes) else { return false }
      out.append(contentsOf: bytes)
      return true
    }
    if plain { return }
    for scalar in text.unicodeScalars {
      appendEscaped(scalar, to: &out)
    }
  }

  /// Whether `bytes` is printable ASCII without a backslash: text that escaping leaves as it is.
  /// Eight bytes a step (the last few as one overlapping word); shorter texts byte by byte.
  @inlinable @inline(__always)
  public static func isPlain(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    let n = bytes.count
    guard n >= 8, let base = bytes.baseAddress else {
      for byte in bytes where byte &- 0x20 >= 0x5F || byte == UInt8(ascii: "\\") { return false }
      return true
    }
    let raw = UnsafeRawPointer(base)
    var i = 0
    while i + 8 <= n {
      if ASCIIWord.unplain(raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) != 0 { return false }
      i += 8
    }
    return i == n || ASCIIWord.unplain(raw.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)) == 0
  }

  /// `text`, escaped.
  public static func escaped(_ text: String) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(text.utf8.count)
    appendEscaped(text, to: &out)
    return String(decoding: out, as: UTF8.self)
  }

  /// Whether `text` would be written unchanged.
  public static func isSafe(_ text: String) -> Bool {
    text.unicodeScalars.allSatisfy { !needsEscape($0) }
  }

  public static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00..<0x20, 0x5C, 0x7F...0x9F: true
    case 0x061C, 0x200E, 0x200F, 0x2028...0x202E, 0x2066...0x2069, 0xFEFF: true
    default: false
    }
  }

  private static func appendEscaped(_ scalar: Unicode.Scalar, to out: inout [UInt8]) {
    let value = scalar.value
    guard needsEscape(scalar) else {
      out.append(contentsOf: UTF8.encode(scalar)!)
      return
    }
    switch value {
    case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
    case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
    case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
    case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
    case 0x00..<0x20, 0x7F:
      out.append(contentsOf: [0x5C, UInt8(ascii: "x")])
      Hex.append(UInt8(value), .lower, to: &out)
    default:
      // Every scalar escaped here is below U+10000: four digits.
      out.append(contentsOf: [0x5C, UInt8(ascii: "u")])
      Hex.append(UInt8(truncatingIfNeeded: value >> 8), .lower, to: &out)
      Hex.append(UInt8(truncatingIfNeeded: value), .lower, to: &out)
    }
  }
}
