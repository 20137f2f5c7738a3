import TickerSupport

/// How a symbol becomes one token of a NATS subject, reversibly.
///
/// A NATS subject is tokens separated by `.`; `*` and `>` are wildcards, and whitespace ends the
/// subject on the wire. Symbols hold all of these (`BRK.B`, `IC MARKETS:1`). So every byte of the
/// symbol's UTF-8 outside the safe set — ASCII letters, digits, `-` and `:` — is written as `_`
/// and two upper-case hex digits (`.` → `_2E`, space → `_20`, `_` → `_5F`, `é` → `_C3_A9`), and the
/// empty symbol as a lone `_`. Every token this makes is a valid subject token, and decoding it
/// gives the symbol back; decoding accepts exactly the tokens escaping makes (upper-case hex, no
/// safe byte escaped), so each symbol has one subject and each subject one symbol.
///
///     BINANCE:BTCUSDT → BINANCE:BTCUSDT     KRW-BTC → KRW-BTC     BTC-USD → BTC-USD
///     IC MARKETS:1    → IC_20MARKETS:1      BRK.B   → BRK_2EB     OANDA:EUR_USD → OANDA:EUR_5FUSD
public enum SubjectEscaping {
  /// The escape character.
  static let escape = UInt8(ascii: "_")

  /// The bytes that stand for themselves in a token.
  static let safe = PercentEncoding.Kept(isSafe)

  /// Whether `byte` stands for itself in a token.
  static func isSafe(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: ":"):
      true
    default: false
    }
  }

  /// Appends the token for `text` to `out`.
  public static func appendToken(_ text: String, to out: inout [UInt8]) {
    // Percent-encoding with `_` for `%`: only `isSafe` bytes as they are.
    PercentEncoding.append(text.utf8, to: &out, keeping: safe, escape: escape)
    if text.utf8.isEmpty { out.append(escape) }
  }

  /// The token for `text`.
  public static func token(_ text: String) -> String {
    var out: [UInt8] = []
    appendToken(text, to: &out)
    return String(decoding: out, as: UTF8.self)
  }

  /// The text a token stands for; throws for anything `token(_:)` cannot have made.
  public static func text(ofToken token: String) throws(SubjectEscapingError) -> String {
    let bytes = Array(token.utf8)
    if bytes == [escape] { return "" }
    guard !bytes.isEmpty else { throw .empty }
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var i = 0
    while i < bytes.count {
      let byte = bytes[i]
      if isSafe(byte) {
        out.append(byte)
        i += 1
        continue
      }
      guard byte == escape else { throw .unsafeByte(byte, offset: i) }
      guard i + 2 < bytes.count, let high = upperHexValue(bytes[i + 1]),
        let low = upperHexValue(bytes[i + 2])
      else {
        throw .badEscape(offset: i)
      }
      let decoded = high << 4 | low
      // A safe byte is never escaped: one spelling per symbol.
      guard !isSafe(decoded) else { throw .badEscape(offset: i) }
      out.append(decoded)
      i += 3
    }
    guard let text = String(validating: out, as: UTF8.self) else { throw .notUTF8 }
    return text
  }

  /// `ticker.<provider>.<symbol>`, each part a token; a venue's best bid and ask
  /// (`book`) on `ticker.book.<provider>.<symbol>`, so that one publisher's trades and another's
  /// quotes of a symbol never share a subject, and `ticker.>` still captures both.
  public static func subject(provider: String, symbol: String, book: Bool = false) -> String {
    var out = Array((book ? "ticker.book." : "ticker.").utf8)
    appendToken(provider, to: &out)
    out.append(UInt8(ascii: "."))
    appendToken(symbol, to: &out)
    return String(decoding: out, as: UTF8.self)
  }

  /// The provider and symbol of a subject `subject(provider:symbol:)` made.
  public static func parse(subject: String) throws(SubjectEscapingError) -> (provider: String, symbol: String)
  {
    let parts = subject.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0] == "ticker" else { throw .notATickerSubject }
    return (try text(ofToken: String(parts[1])), try text(ofToken: String(parts[2])))
  }

  /// The value of an upper-case hex digit: escaping writes no other, so decoding takes no other.
  private static func upperHexValue(_ byte: UInt8) -> UInt8? {
    byte < UInt8(ascii: "a") ? Hex.value(of: byte) : nil
  }
}

/// A subject token that `SubjectEscaping` did not make.
public enum SubjectEscapingError: Error, Sendable, Equatable {
  case empty
  /// A byte that is neither safe nor the escape character.
  case unsafeByte(UInt8, offset: Int)
  /// `_` not followed by two upper-case hex digits of a byte that needs escaping.
  case badEscape(offset: Int)
  /// The escaped bytes are not UTF-8.
  case notUTF8
  /// Not `ticker.<provider>.<symbol>`.
  case notATickerSubject
}
