/// An exact decimal price: the digits the server sent, plus a `Double` for arithmetic.
///
/// `text` is a plain decimal. Plain input is kept byte-for-byte (`95372.10` stays `95372.10`);
/// exponent forms are rewritten exactly by moving digits, never through binary floating point
/// (`1.16539E8` → `116539000`, `4.9E-4` → `0.00049`).
///
/// **Equality** (and hashing, and ordering) compare the *numeric value* exactly, using the
/// decimal digits rather than the `Double`: `95380` == `95380.0`, and two long decimals that round
/// to the same `Double` are still different. This is what dedupe wants: a provider that sends the
/// same price spelled differently has not changed the price. Compare `text` when the spelling
/// matters.
public struct Price: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// The decimal text to show: exact, plain (no exponent).
  public let text: String
  /// The nearest `Double` (correctly rounded).
  public let value: Double

  /// Accepts the JSON number grammar (`-? int frac? exp?`), which also covers decimal strings such
  /// as Binance's `"78860.00000000"`. Returns nil for anything else, and for exponents beyond
  /// ±400 (no real price needs them, and they would make huge texts).
  public init?(_ text: some StringProtocol) {
    let text = String(text)
    guard let price = Self.plain(text) ?? Self.general(text) else { return nil }
    self = price
  }

  /// Any JSON number text, exponents included: the reference path (`plain` is the fast one,
  /// and the two are tested to agree wherever `plain` answers).
  static func general(_ text: String) -> Price? {
    guard let parts = DecimalText(text) else { return nil }
    let plain = parts.plainText(original: text)
    guard let value = Double(plain), value.isFinite else { return nil }
    return Price(text: plain, value: value)
  }

  public var description: String { text }

  /// `text` must be a plain decimal (`-?(0|[1-9][0-9]*)(.[0-9]+)?`): equality, hashing and
  /// ordering derive the canonical form from it.
  private init(text: String, value: Double) {
    self.text = text
    self.value = value
  }

  /// The common case in one pass over the bytes: a plain decimal without exponent
  /// (`-?(0|[1-9][0-9]*)(.[0-9]+)?`). nil sends everything else (exponents, invalid text) to the
  /// general path, which accepts or rejects exactly as before.
  ///
  /// The `Double` is computed exactly when the digits fit: with at most 15 significant digits
  /// the integer mantissa is exact, 10^k is exact for k ≤ 22, and one IEEE division rounds
  /// correctly — the same value `strtod` gives. Longer inputs use `Double(text)`.
  static func plain(_ text: String) -> Price? {
    let original = text
    var text = text
    return text.withUTF8 { plain(UnsafeRawBufferPointer($0), text: original) }
  }

  /// A price straight from bytes (e.g. a number inside a JSON message): the text is made once.
  /// nil when the bytes are not a plain decimal, like `plain(_:)`.
  static func plain(bytes: UnsafeRawBufferPointer) -> Price? {
    plain(bytes, text: nil)
  }

  /// The one-pass parse; `text` is the bytes as a String when the caller has one already.
  private static func plain(_ raw: UnsafeRawBufferPointer, text: String?) -> Price? {
    let bytes = raw.assumingMemoryBound(to: UInt8.self)
    do {
      let n = bytes.count
      var i = 0
      let negative = n > 0 && bytes[0] == UInt8(ascii: "-")
      if negative { i = 1 }
      // One pass: the digits are validated and accumulated together.
      var mantissa: UInt64 = 0
      var significant = 0
      let intStart = i
      while i < n {
        let d = bytes[i] &- 0x30
        guard d < 10 else { break }
        significant &+= (significant | Int(d)) != 0 ? 1 : 0
        mantissa = mantissa &* 10 &+ UInt64(d)
        i += 1
      }
      let intEnd = i
      guard intEnd > intStart, !(intEnd - intStart > 1 && bytes[intStart] == UInt8(ascii: "0")) else {
        return nil
      }
      var fracEnd = intEnd
      if i < n {
        guard bytes[i] == UInt8(ascii: "."), i + 1 < n else { return nil }
        i += 1
        while i < n {
          let d = bytes[i] &- 0x30
          guard d < 10 else { break }
          significant &+= (significant | Int(d)) != 0 ? 1 : 0
          mantissa = mantissa &* 10 &+ UInt64(d)
          i += 1
        }
        guard i == n, i > intEnd + 1 else { return nil }  // an exponent or junk: general path
        fracEnd = n
      }
      return Price(
        plainText: text ?? Self.text(ofDigits: raw), mantissa: mantissa,
        significantDigits: significant, fractionDigits: fracEnd > intEnd ? fracEnd - intEnd - 1 : 0,
        negative: negative)
    }
  }

  /// The `String` of a number's bytes (ASCII: a sign, digits, a point). Up to 15 bytes, made as
  /// a small string directly (`SmallASCIIString`); longer, through
  /// `String(unsafeUninitializedCapacity:)`, which makes a short text a small string more
  /// cheaply than `String(decoding:as:)`; its
  /// UTF-8 check is the same, and ASCII passes it unchanged.
  @inline(__always)
  static func text(ofDigits bytes: UnsafeRawBufferPointer) -> String {
    if let small = SmallASCIIString.make(bytes) { return small }
    let count = bytes.count
    guard count > 0, let from = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return "" }
    return String(unsafeUninitializedCapacity: count) { buffer in
      buffer.baseAddress!.update(from: from, count: count)
      return count
    }
  }

  /// A plain decimal already parsed: `mantissa` is its digits without the point (wrapped
  /// modulo 2^64 when long: then unused), `significantDigits` how many of them count from the
  /// first non-zero one. With at most 15 significant digits the mantissa is exact, 10^k is exact
  /// for k ≤ 22, and one IEEE division rounds correctly — the same value `strtod` gives; longer
  /// inputs use `Double(text)`. nil when that is not finite.
  init?(plainText text: String, mantissa: UInt64, significantDigits: Int, fractionDigits: Int, negative: Bool)
  {
    if significantDigits <= 15 && fractionDigits <= 22 {
      let value = Double(mantissa) / Self.powerOfTen(fractionDigits)
      self.init(text: text, value: negative ? -value : value)
    } else {
      guard let parsed = Double(text), parsed.isFinite else { return nil }
      self.init(text: text, value: parsed)
    }
  }

  /// 10^k for 0 ≤ k ≤ 22, exactly (each is representable as a Double).
  @inline(__always) private static func powerOfTen(_ k: Int) -> Double {
    precondition(k >= 0 && k <= 22)
    return withUnsafeBytes(of: Self.powers) { $0.load(fromByteOffset: k * 8, as: Double.self) }
  }

  private static let powers:
    (
      Double, Double, Double, Double, Double, Double, Double, Double, Double, Double, Double, Double,
      Double, Double, Double, Double, Double, Double, Double, Double, Double, Double, Double
    ) = (
      1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18,
      1e19, 1e20, 1e21, 1e22
    )

  /// Calls `body` with the bytes of the canonical form: the sign unless the value is zero, the
  /// integer digits (a plain decimal has no leading zeros), the fraction without trailing zeros
  /// (and without the point when none is left); "0" for zero. Derived from `text` on demand
  /// rather than stored: a quote copies fewer strings, and most prices are never compared.
  func withCanonicalBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
    var text = text
    return text.withUTF8 { utf8 in
      let bytes = UnsafeRawBufferPointer(utf8)
      var end = bytes.count
      if let point = bytes.firstIndex(of: UInt8(ascii: ".")) {
        while end > point + 1, bytes[end - 1] == UInt8(ascii: "0") { end -= 1 }
        if end == point + 1 { end = point }
      }
      let digits = bytes[0..<end]
      // Zero: nothing but "0", "-" and "." (any other byte is a digit 1-9).
      if !digits.contains(where: { $0 &- UInt8(ascii: "1") < 9 }) {
        return withUnsafeBytes(of: UInt8(ascii: "0")) { body($0) }
      }
      return body(UnsafeRawBufferPointer(rebasing: digits))
    }
  }

  /// The canonical form (see `withCanonicalBytes`): equal values, equal texts.
  var canonical: String { withCanonicalBytes { String(decoding: $0, as: UTF8.self) } }

  public static func == (lhs: Price, rhs: Price) -> Bool {
    // Texts are ASCII, where String equality is byte equality: the same spelling is the same value.
    if lhs.text == rhs.text { return true }
    return lhs.withCanonicalBytes { a in rhs.withCanonicalBytes { b in a.elementsEqual(b) } }
  }

  public func hash(into hasher: inout Hasher) { withCanonicalBytes { hasher.combine(bytes: $0) } }

  public static func < (lhs: Price, rhs: Price) -> Bool {
    let l = lhs.withCanonicalBytes { Array($0) }
    let r = rhs.withCanonicalBytes { Array($0) }
    let lNeg = l.first == UInt8(ascii: "-")
    let rNeg = r.first == UInt8(ascii: "-")
    if lNeg != rNeg { return lNeg }
    return lNeg ? magnitudeLess(Array(r.dropFirst()), Array(l.dropFirst())) : magnitudeLess(l, r)
  }

  /// Compares two canonical unsigned decimals ("123.45", "0.5", "7").
  private static func magnitudeLess(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    let dot = UInt8(ascii: ".")
    let aInt = a.firstIndex(of: dot) ?? a.count
    let bInt = b.firstIndex(of: dot) ?? b.count
    if aInt != bInt { return aInt < bInt }
    // Same number of integer digits: plain lexicographic order works, because fractions carry
    // no trailing zeros and "." sorts below every digit.
    return a.lexicographicallyPrecedes(b)
  }
}

/// The pieces of a validated decimal number text.
struct DecimalText {
  var negative: Bool
  /// Digits of the integer and fraction parts, concatenated (leading/trailing zeros kept).
  var digits: [UInt8]
  /// How many of `digits` belong to the integer part.
  var integerCount: Int
  /// The exponent; nil when the text had no exponent part.
  var exponent: Int?

  init?(_ text: some StringProtocol) {
    let bytes = Array(text.utf8)
    var i = 0
    negative = false
    if i < bytes.count && bytes[i] == UInt8(ascii: "-") {
      negative = true
      i += 1
    }
    func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
    let intStart = i
    while i < bytes.count && isDigit(bytes[i]) { i += 1 }
    integerCount = i - intStart
    guard integerCount > 0 else { return nil }
    if integerCount > 1 && bytes[intStart] == UInt8(ascii: "0") { return nil }
    digits = Array(bytes[intStart..<i])
    if i < bytes.count && bytes[i] == UInt8(ascii: ".") {
      i += 1
      let fracStart = i
      while i < bytes.count && isDigit(bytes[i]) { i += 1 }
      guard i > fracStart else { return nil }
      digits.append(contentsOf: bytes[fracStart..<i])
    }
    exponent = nil
    if i < bytes.count && (bytes[i] | 0x20) == UInt8(ascii: "e") {
      i += 1
      var expNegative = false
      if i < bytes.count && (bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-")) {
        expNegative = bytes[i] == UInt8(ascii: "-")
        i += 1
      }
      let expStart = i
      var magnitude = 0
      while i < bytes.count && isDigit(bytes[i]) {
        magnitude = magnitude * 10 + Int(bytes[i] - 0x30)
        guard magnitude <= 400 else { return nil }
        i += 1
      }
      guard i > expStart else { return nil }
      exponent = expNegative ? -magnitude : magnitude
    }
    guard i == bytes.count else { return nil }
  }

  /// The text with the exponent applied by moving the decimal point; unchanged when there was
  /// no exponent.
  func plainText(original: some StringProtocol) -> String {
    guard let exponent else { return String(original) }
    var intDigits: [UInt8]
    var fracDigits: [UInt8]
    let point = integerCount + exponent
    if point <= 0 {
      intDigits = [UInt8(ascii: "0")]
      fracDigits = [UInt8](repeating: UInt8(ascii: "0"), count: -point) + digits
    } else if point >= digits.count {
      intDigits = digits + [UInt8](repeating: UInt8(ascii: "0"), count: point - digits.count)
      fracDigits = []
    } else {
      intDigits = Array(digits[..<point])
      fracDigits = Array(digits[point...])
    }
    // Moving the point can leave leading zeros ("0.5E1" → "05"): keep one before the point.
    let firstNonZero = intDigits.firstIndex { $0 != UInt8(ascii: "0") } ?? (intDigits.count - 1)
    intDigits.removeFirst(min(firstNonZero, intDigits.count - 1))
    var out: [UInt8] = negative ? [UInt8(ascii: "-")] : []
    out += intDigits
    if !fracDigits.isEmpty {
      out.append(UInt8(ascii: "."))
      out += fracDigits
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// A spelling-independent form of the value: equal values give equal strings.
  var canonical: String {
    let point = integerCount + (exponent ?? 0)
    guard let first = digits.firstIndex(where: { $0 != UInt8(ascii: "0") }),
      let last = digits.lastIndex(where: { $0 != UInt8(ascii: "0") })
    else { return "0" }
    var out: [UInt8] = negative ? [UInt8(ascii: "-")] : []
    if point <= first {
      out += [UInt8(ascii: "0"), UInt8(ascii: ".")]
      out += [UInt8](repeating: UInt8(ascii: "0"), count: first - point)
      out += digits[first...last]
    } else {
      // Integer part: digits[first..<point], padded with zeros past the end.
      let end = min(point, digits.count)
      out += digits[first..<end]
      if point > digits.count {
        out += [UInt8](repeating: UInt8(ascii: "0"), count: point - digits.count)
      }
      if last >= point {
        out.append(UInt8(ascii: "."))
        out += digits[point...last]
      }
    }
    return String(decoding: out, as: UTF8.self)
  }
}
