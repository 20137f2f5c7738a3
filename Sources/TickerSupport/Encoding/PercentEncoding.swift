/// Percent-encoding (RFC 3986 §2.1: a byte written as `%` and two hex digits), the one
/// implementation. Its uses disagree on the rules, so the rules are parameters and each call
/// says which it follows and why:
///
/// - encoding: which bytes stand for themselves (`Kept`); every other byte, and every byte
///   outside ASCII, is escaped with upper-case digits (RFC 3986's normal form); the escape
///   character is `%`, or another (NATS subjects use `_`).
/// - decoding: whether `+` means a space (query strings as HTML forms write them), and what a
///   malformed escape (`%` not followed by two hex digits, in either case) does: it stands for
///   itself, or the whole text has no decoding. Decoding gives bytes: whether they must be UTF-8
///   is the caller's rule too.
public enum PercentEncoding {
  /// The bytes that encoding writes as they are. Only ASCII bytes can be among them: any other
  /// is escaped whatever the set says, so encoded text is ASCII.
  public struct Kept: Sendable {
    let contains: @Sendable (UInt8) -> Bool

    public init(_ contains: @escaping @Sendable (UInt8) -> Bool) { self.contains = contains }

    /// RFC 3986's unreserved characters: ASCII letters, digits and `-._~`. What a query value
    /// may hold as it is.
    public static let unreserved = Kept { byte in
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
        UInt8(ascii: "_"), UInt8(ascii: "~"):
        true
      default: false
      }
    }

    /// Every ASCII byte but the ones RFC 3986 excludes from URLs (`"<>\^`{|}`): what a request
    /// line may hold as it is (as browsers encode a target). `%` is kept, so that escapes
    /// already in a target stay as written.
    public static let requestTarget = Kept { byte in
      switch byte {
      case UInt8(ascii: "\""), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\\"), UInt8(ascii: "^"),
        UInt8(ascii: "`"), UInt8(ascii: "{"), UInt8(ascii: "|"), UInt8(ascii: "}"):
        false
      default: true
      }
    }
  }

  /// What decoding makes of `+`.
  public enum Plus: Sendable {
    /// `+` is itself (RFC 3986: paths, user information).
    case literal
    /// `+` is a space (`application/x-www-form-urlencoded`: query strings).
    case space
  }

  /// What decoding does with a `%` that two hex digits do not follow.
  public enum Malformed: Sendable {
    /// The `%` stands for itself and decoding goes on after it.
    case keptLiterally
    /// The text has no decoding: `decode` returns nil.
    case fails
  }

  /// Appends `bytes`, encoded: each byte `kept` holds as it is, any other as `escape` and two
  /// upper-case hex digits. `escape` must not be among the kept bytes.
  public static func append(
    _ bytes: some Sequence<UInt8>, to out: inout [UInt8], keeping kept: Kept,
    escape: UInt8 = UInt8(ascii: "%")
  ) {
    for byte in bytes {
      if byte < 0x80 && kept.contains(byte) {
        out.append(byte)
      } else {
        out.append(escape)
        Hex.append(byte, .upper, to: &out)
      }
    }
  }

  /// `text`'s UTF-8, encoded with `%`.
  public static func encode(_ text: some StringProtocol, keeping kept: Kept) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(text.utf8.count)
    append(text.utf8, to: &out, keeping: kept)
    return String(decoding: out, as: UTF8.self)
  }

  /// The bytes `text` stands for: each `%` and two hex digits (either case) one byte, `+` as
  /// `plus` says, every other byte itself. nil only when an escape is malformed and `malformed`
  /// is `.fails`.
  public static func decode(_ text: some StringProtocol, plus: Plus, malformed: Malformed) -> [UInt8]? {
    let bytes = Array(text.utf8)
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var i = 0
    while i < bytes.count {
      let byte = bytes[i]
      i += 1
      switch byte {
      case UInt8(ascii: "%"):
        if i + 1 < bytes.count, let high = Hex.value(of: bytes[i]), let low = Hex.value(of: bytes[i + 1]) {
          out.append(high << 4 | low)
          i += 2
        } else if malformed == .fails {
          return nil
        } else {
          out.append(byte)
        }
      case UInt8(ascii: "+") where plus == .space: out.append(UInt8(ascii: " "))
      default: out.append(byte)
      }
    }
    return out
  }
}
