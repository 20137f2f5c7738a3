/// The tokens of a narrow JSON reader working straight on UTF-8 bytes, for the venues' fast paths
/// (`BinanceFastPath`, `UpbitFastPath`): no `JSONValue` tree, no `String` per key.
///
/// Every method is deliberately narrower than `JSONParser`: it accepts a subset of what the
/// parser accepts and returns nil/false for anything else (escapes and non-ASCII in strings,
/// nested values where a scalar is expected), so a fast path built on it can give up and leave
/// the message to the model path. Indices never leave `0...bytes.count`; nothing traps.
package struct JSONByteScanner {
  package let bytes: UnsafeRawBufferPointer
  package var i = 0

  @inlinable package init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

  /// A range of `bytes`.
  package struct Span {
    package var start: Int
    package var end: Int
    @inlinable package var count: Int { end - start }

    @inlinable package init(start: Int, end: Int) {
      self.start = start
      self.end = end
    }

    @inlinable package func slice(of bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
      UnsafeRawBufferPointer(rebasing: bytes[start..<end])
    }

    @inline(__always)
    @inlinable package func equals(_ text: StaticString, in bytes: UnsafeRawBufferPointer) -> Bool {
      guard text.utf8CodeUnitCount == count else { return false }
      let p = text.utf8Start
      for k in 0..<count where bytes[start + k] != p[k] { return false }
      return true
    }

    @inlinable package func string(in bytes: UnsafeRawBufferPointer) -> String {
      String(decoding: slice(of: bytes), as: UTF8.self)
    }
  }

  @inlinable package var atEnd: Bool { i == bytes.count }

  /// A string of printable ASCII without escapes; its contents. nil for anything else.
  @inline(__always)
  @inlinable package mutating func simpleString() -> Span? {
    guard take(UInt8(ascii: "\"")) else { return nil }
    let start = i
    while i < bytes.count {
      let b = bytes[i]
      if b == UInt8(ascii: "\"") {
        defer { i += 1 }
        return Span(start: start, end: i)
      }
      guard b >= 0x20, b < 0x7F, b != UInt8(ascii: "\\") else { return nil }
      i += 1
    }
    return nil
  }

  /// A JSON number (RFC 8259 grammar); its span.
  @inline(__always)
  @inlinable package mutating func number() -> Span? {
    let start = i
    if peek(UInt8(ascii: "-")) { i += 1 }
    guard i < bytes.count, isDigit(bytes[i]) else { return nil }
    if bytes[i] == UInt8(ascii: "0") {
      i += 1
    } else {
      while i < bytes.count, isDigit(bytes[i]) { i += 1 }
    }
    if peek(UInt8(ascii: ".")) {
      i += 1
      guard i < bytes.count, isDigit(bytes[i]) else { return nil }
      while i < bytes.count, isDigit(bytes[i]) { i += 1 }
    }
    if i < bytes.count, bytes[i] | 0x20 == UInt8(ascii: "e") {
      i += 1
      if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
      guard i < bytes.count, isDigit(bytes[i]) else { return nil }
      while i < bytes.count, isDigit(bytes[i]) { i += 1 }
    }
    return Span(start: start, end: i)
  }

  /// Any scalar — a simple string, a number, `true`, `false` or `null` — skipped; false for
  /// arrays, objects and anything the narrow tokens above do not accept.
  @inline(__always)
  @inlinable package mutating func skipScalar() -> Bool {
    guard i < bytes.count else { return false }
    switch bytes[i] {
    case UInt8(ascii: "\""): return simpleString() != nil
    case UInt8(ascii: "t"): return takeLiteral("true")
    case UInt8(ascii: "f"): return takeLiteral("false")
    case UInt8(ascii: "n"): return takeLiteral("null")
    default: return number() != nil
    }
  }

  /// The literal, when it is next and not followed by more letters (`nullx`).
  @inline(__always)
  @inlinable package mutating func takeLiteral(_ literal: StaticString) -> Bool {
    let n = literal.utf8CodeUnitCount
    guard i + n <= bytes.count else { return false }
    let p = literal.utf8Start
    for k in 0..<n where bytes[i + k] != p[k] { return false }
    if i + n < bytes.count, isLetter(bytes[i + n]) { return false }
    i += n
    return true
  }

  /// Plain digits (no sign, at most 18) as an Int64, which `Int64(text)` also accepts; nil for
  /// anything else, leaving signs, fractions and exponents to the model path.
  @inlinable package static func integer(_ digits: UnsafeRawBufferPointer) -> Int64? {
    guard !digits.isEmpty, digits.count <= 18 else { return nil }
    var value: Int64 = 0
    for b in digits {
      guard b >= 0x30, b <= 0x39 else { return nil }
      value = value * 10 + Int64(b - 0x30)
    }
    return value
  }

  @inlinable @inline(__always) package func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
  @inlinable @inline(__always) package func isLetter(_ b: UInt8) -> Bool {
    (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A
  }
  @inlinable @inline(__always) package func peek(_ b: UInt8) -> Bool { i < bytes.count && bytes[i] == b }

  @inlinable @inline(__always) package mutating func take(_ b: UInt8) -> Bool {
    guard i < bytes.count, bytes[i] == b else { return false }
    i += 1
    return true
  }

  @inlinable @inline(__always) package mutating func skipSpace() {
    while i < bytes.count {
      switch bytes[i] {
      case 0x20, 0x09, 0x0A, 0x0D: i += 1
      default: return
      }
    }
  }
}
