/// Hexadecimal digits: the one table behind every escape that writes a byte as two digits
/// (`%2F`, `_2E`, `\x1b`, `\u00e9`) and every reader of one.
///
/// The writers are `@inlinable` and read a static table, so that the escaping loops of the hot
/// path (JSON strings, recordings) pay what a private table of their own cost.
public enum Hex {
  /// Which letters the digits 10 to 15 are written with: URLs and NATS subjects write `A`–`F`
  /// (RFC 3986's normal form), JSON, terminals and hashes `a`–`f`.
  public enum Letters: Sendable {
    case upper, lower
  }

  /// The digit of `nibble` (its low four bits).
  @inlinable @inline(__always)
  public static func digit(_ nibble: UInt8, _ letters: Letters) -> UInt8 {
    switch letters {
    case .upper: ("0123456789ABCDEF" as StaticString).utf8Start[Int(nibble & 0xF)]
    case .lower: ("0123456789abcdef" as StaticString).utf8Start[Int(nibble & 0xF)]
    }
  }

  /// Appends `byte` as two digits, the high one first.
  @inlinable @inline(__always)
  public static func append(_ byte: UInt8, _ letters: Letters, to out: inout [UInt8]) {
    out.append(digit(byte >> 4, letters))
    out.append(digit(byte, letters))
  }

  /// The value of the digit `byte` (`0`–`9`, `a`–`f`, `A`–`F`); nil for anything else.
  @inlinable @inline(__always)
  public static func value(of byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte &- UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte &- UInt8(ascii: "a") &+ 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte &- UInt8(ascii: "A") &+ 10
    default: nil
    }
  }

  /// `value` as exactly `count` lower-case digits, the most significant first (leading zeros
  /// kept; digits beyond `count` dropped): tokens and hashes of a fixed width.
  public static func string(_ value: UInt64, digits count: Int) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(count)
    for index in stride(from: count - 1, through: 0, by: -1) {
      out.append(index < 16 ? digit(UInt8(truncatingIfNeeded: value >> (4 * UInt64(index))), .lower) : 0x30)
    }
    return String(decoding: out, as: UTF8.self)
  }
}
