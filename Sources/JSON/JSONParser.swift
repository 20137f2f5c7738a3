import TickerSupport

/// A strict RFC 8259 JSON parser over UTF-8 bytes. No Foundation, no intermediate copies of
/// numbers: every number keeps its exact text. Rejects leading zeros, trailing commas, comments,
/// unescaped control characters, invalid UTF-8, lone surrogates and trailing data; nesting is
/// bounded by `maxDepth` so hostile input cannot exhaust the stack.
public struct JSONParser: Sendable {
  /// The deepest nesting of arrays and objects accepted (the top-level container is depth 1).
  public var maxDepth: Int

  public init(maxDepth: Int = 256) {
    self.maxDepth = maxDepth
  }

  /// Parses one JSON document that fills `bytes` (surrounding whitespace allowed).
  public func parse(_ bytes: UnsafeRawBufferPointer) throws(JSONError) -> JSONValue {
    var reader = JSONReader(bytes: bytes, maxDepth: maxDepth)
    return try reader.parseDocument()
  }

  public func parse(_ bytes: [UInt8]) throws(JSONError) -> JSONValue {
    var result: Result<JSONValue, JSONError> = .failure(JSONError(.unexpectedEnd, offset: 0))
    bytes.withUnsafeBytes { raw in
      do throws(JSONError) {
        result = .success(try parse(raw))
      } catch {
        result = .failure(error)
      }
    }
    return try result.get()
  }

  public func parse(_ text: String) throws(JSONError) -> JSONValue {
    var copy = text
    var result: Result<JSONValue, JSONError> = .failure(JSONError(.unexpectedEnd, offset: 0))
    copy.withUTF8 { buffer in
      do throws(JSONError) {
        result = .success(try parse(UnsafeRawBufferPointer(buffer)))
      } catch {
        result = .failure(error)
      }
    }
    return try result.get()
  }
}

/// The parser's cursor. Lives only for the duration of one `parse` call.
struct JSONReader {
  let bytes: UnsafeRawBufferPointer
  let maxDepth: Int
  var index = 0
  /// `JSONParser.parseStreaming`: the top-level key whose array elements go to `streamVisitor`
  /// (with their offsets; nil starts a new occurrence) instead of being kept.
  var streamedKey: String?
  var streamVisitor: ((Int, JSONValue?) -> Void)?

  init(bytes: UnsafeRawBufferPointer, maxDepth: Int) {
    self.bytes = bytes
    self.maxDepth = maxDepth
  }

  mutating func parseDocument() throws(JSONError) -> JSONValue {
    skipWhitespace()
    let value = try parseValue(depth: 0)
    skipWhitespace()
    guard index == bytes.count else { throw JSONError(.trailingData, offset: index) }
    return value
  }

  private func fail(_ kind: JSONError.Kind) -> JSONError { JSONError(kind, offset: index) }

  private func unexpected() -> JSONError {
    index < bytes.count ? fail(.unexpectedByte(bytes[index])) : fail(.unexpectedEnd)
  }

  @inline(__always)
  mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09, 0x0A, 0x0D: index += 1
      default: return
      }
    }
  }

  mutating func parseValue(depth: Int) throws(JSONError) -> JSONValue {
    guard index < bytes.count else { throw fail(.unexpectedEnd) }
    switch bytes[index] {
    case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
    case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
    case UInt8(ascii: "t"):
      try expectLiteral("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try expectLiteral("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try expectLiteral("null")
      return .null
    default: throw unexpected()
    }
  }

  private mutating func expectLiteral(_ literal: StaticString) throws(JSONError) {
    let count = literal.utf8CodeUnitCount
    let start = literal.utf8Start
    for k in 0..<count {
      guard index < bytes.count else { throw fail(.unexpectedEnd) }
      guard bytes[index] == start[k] else { throw unexpected() }
      index += 1
    }
  }

  private mutating func parseArray(depth: Int) throws(JSONError) -> JSONValue {
    guard depth <= maxDepth else { throw fail(.tooDeep(limit: maxDepth)) }
    index += 1  // [
    var elements: [JSONValue] = []
    skipWhitespace()
    if index < bytes.count && bytes[index] == UInt8(ascii: "]") {
      index += 1
      return .array(elements)
    }
    while true {
      skipWhitespace()
      elements.append(try parseValue(depth: depth))
      skipWhitespace()
      guard index < bytes.count else { throw fail(.unexpectedEnd) }
      switch bytes[index] {
      case UInt8(ascii: ","): index += 1
      case UInt8(ascii: "]"):
        index += 1
        return .array(elements)
      default: throw unexpected()
      }
    }
  }

  /// Parses the array at `index` element by element, handing each (with its start offset) to
  /// `visit`.
  mutating func parseArrayElements(depth: Int, visit: (Int, JSONValue) -> Void) throws(JSONError) {
    guard depth <= maxDepth else { throw fail(.tooDeep(limit: maxDepth)) }
    index += 1  // [
    skipWhitespace()
    if index < bytes.count && bytes[index] == UInt8(ascii: "]") {
      index += 1
      return
    }
    while true {
      skipWhitespace()
      let start = index
      visit(start, try parseValue(depth: depth))
      skipWhitespace()
      guard index < bytes.count else { throw fail(.unexpectedEnd) }
      switch bytes[index] {
      case UInt8(ascii: ","): index += 1
      case UInt8(ascii: "]"):
        index += 1
        return
      default: throw unexpected()
      }
    }
  }

  private mutating func parseObject(depth: Int) throws(JSONError) -> JSONValue {
    guard depth <= maxDepth else { throw fail(.tooDeep(limit: maxDepth)) }
    index += 1  // {
    var object = JSONObject()
    var positions: [String: Int]? = nil  // built only for large objects
    skipWhitespace()
    if index < bytes.count && bytes[index] == UInt8(ascii: "}") {
      index += 1
      return .object(object)
    }
    while true {
      skipWhitespace()
      guard index < bytes.count else { throw fail(.unexpectedEnd) }
      guard bytes[index] == UInt8(ascii: "\"") else { throw unexpected() }
      let key = try parseString()
      skipWhitespace()
      guard index < bytes.count else { throw fail(.unexpectedEnd) }
      guard bytes[index] == UInt8(ascii: ":") else { throw unexpected() }
      index += 1
      skipWhitespace()
      let value: JSONValue
      if depth == 1, let visit = streamVisitor, key == streamedKey, index < bytes.count,
        bytes[index] == UInt8(ascii: "[")
      {
        visit(index, nil)  // a new occurrence: the last one counts
        try parseArrayElements(depth: depth + 1) { start, element in visit(start, element) }
        value = .array([])
      } else {
        value = try parseValue(depth: depth)
      }
      // Duplicate keys: the last value wins.
      if positions == nil && object.count >= 16 {
        var built: [String: Int] = [:]
        for (i, member) in object.members.enumerated() { built[member.key] = i }
        positions = built
      }
      if positions != nil {
        if let existing = positions![key] {
          object.replaceValue(at: existing, with: value)
        } else {
          positions![key] = object.count
          object.appendUnchecked(key: key, value: value)
        }
      } else if let existing = object.members.firstIndex(where: { $0.key == key }) {
        object.replaceValue(at: existing, with: value)
      } else {
        object.appendUnchecked(key: key, value: value)
      }
      skipWhitespace()
      guard index < bytes.count else { throw fail(.unexpectedEnd) }
      switch bytes[index] {
      case UInt8(ascii: ","): index += 1
      case UInt8(ascii: "}"):
        index += 1
        return .object(object)
      default: throw unexpected()
      }
    }
  }

  private mutating func parseNumber() throws(JSONError) -> String {
    let start = index
    if bytes[index] == UInt8(ascii: "-") { index += 1 }
    guard index < bytes.count else { throw fail(.invalidNumber) }
    if bytes[index] == UInt8(ascii: "0") {
      index += 1
    } else if isDigit(bytes[index]) {
      while index < bytes.count && isDigit(bytes[index]) { index += 1 }
    } else {
      throw fail(.invalidNumber)
    }
    if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
      index += 1
      guard index < bytes.count && isDigit(bytes[index]) else { throw fail(.invalidNumber) }
      while index < bytes.count && isDigit(bytes[index]) { index += 1 }
    }
    if index < bytes.count && (bytes[index] | 0x20) == UInt8(ascii: "e") {
      index += 1
      if index < bytes.count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) {
        index += 1
      }
      guard index < bytes.count && isDigit(bytes[index]) else { throw fail(.invalidNumber) }
      while index < bytes.count && isDigit(bytes[index]) { index += 1 }
    }
    // A digit straight after a leading zero ("01") is not a number.
    if index < bytes.count && isDigit(bytes[index]) { throw fail(.invalidNumber) }
    return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
  }

  @inline(__always)
  private func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

  private mutating func parseString() throws(JSONError) -> String {
    index += 1  // opening quote
    let start = index
    // Fast path: no escapes.
    while index < bytes.count {
      let b = bytes[index]
      if b == UInt8(ascii: "\"") {
        let slice = UnsafeRawBufferPointer(rebasing: bytes[start..<index])
        guard let text = String(validating: slice, as: UTF8.self) else {
          throw JSONError(.invalidUTF8, offset: start)
        }
        index += 1
        return text
      }
      if b == UInt8(ascii: "\\") { break }
      if b < 0x20 { throw fail(.controlCharacterInString) }
      index += 1
    }
    guard index < bytes.count else { throw fail(.unexpectedEnd) }
    return try parseEscapedString(from: start)
  }

  /// Slow path: the string that starts at `start` (after its quote) and has an escape at `index`,
  /// copied with its escapes resolved.
  private mutating func parseEscapedString(from start: Int) throws(JSONError) -> String {
    var out: [UInt8] = Array(UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
    while index < bytes.count {
      let b = bytes[index]
      if b == UInt8(ascii: "\"") {
        guard let text = String(validating: out, as: UTF8.self) else {
          throw JSONError(.invalidUTF8, offset: start)
        }
        index += 1
        return text
      }
      if b < 0x20 { throw fail(.controlCharacterInString) }
      if b != UInt8(ascii: "\\") {
        out.append(b)
        index += 1
        continue
      }
      try appendEscape(to: &out)
    }
    throw fail(.unexpectedEnd)
  }

  /// The escape whose backslash is at `index`, resolved into `out`; `index` moves past it.
  private mutating func appendEscape(to out: inout [UInt8]) throws(JSONError) {
    index += 1
    guard index < bytes.count else { throw fail(.unexpectedEnd) }
    let escape = bytes[index]
    switch escape {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
    case UInt8(ascii: "b"): out.append(0x08)
    case UInt8(ascii: "f"): out.append(0x0C)
    case UInt8(ascii: "n"): out.append(0x0A)
    case UInt8(ascii: "r"): out.append(0x0D)
    case UInt8(ascii: "t"): out.append(0x09)
    case UInt8(ascii: "u"):
      let escapeStart = index - 1
      index += 1
      appendUTF8(try unicodeEscape(startingAt: escapeStart), to: &out)
      return  // readHex4 already advanced past the digits
    default:
      index -= 1
      throw fail(.invalidEscape)
    }
    index += 1
  }

  /// The scalar of the `\u` escape at `escapeStart` (`index` at its digits): a surrogate pair's
  /// when it is the first half of one, then followed by the second's escape.
  private mutating func unicodeEscape(startingAt escapeStart: Int) throws(JSONError) -> UInt32 {
    var scalar = try readHex4()
    if scalar >= 0xD800 && scalar <= 0xDBFF {
      guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
        bytes[index + 1] == UInt8(ascii: "u")
      else { throw JSONError(.invalidSurrogate, offset: escapeStart) }
      index += 2
      let low = try readHex4()
      guard low >= 0xDC00 && low <= 0xDFFF else {
        throw JSONError(.invalidSurrogate, offset: escapeStart)
      }
      scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
    } else if scalar >= 0xDC00 && scalar <= 0xDFFF {
      throw JSONError(.invalidSurrogate, offset: escapeStart)
    }
    return scalar
  }

  private mutating func readHex4() throws(JSONError) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard index < bytes.count else { throw fail(.unexpectedEnd) }
      let b = bytes[index]
      guard let digit = Hex.value(of: b) else { throw fail(.invalidEscape) }
      value = value << 4 | UInt32(digit)
      index += 1
    }
    return value
  }

  private func appendUTF8(_ scalar: UInt32, to out: inout [UInt8]) {
    switch scalar {
    case 0..<0x80:
      out.append(UInt8(scalar))
    case 0x80..<0x800:
      out.append(UInt8(0xC0 | (scalar >> 6)))
      out.append(UInt8(0x80 | (scalar & 0x3F)))
    case 0x800..<0x10000:
      out.append(UInt8(0xE0 | (scalar >> 12)))
      out.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
      out.append(UInt8(0x80 | (scalar & 0x3F)))
    default:
      out.append(UInt8(0xF0 | (scalar >> 18)))
      out.append(UInt8(0x80 | ((scalar >> 12) & 0x3F)))
      out.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
      out.append(UInt8(0x80 | (scalar & 0x3F)))
    }
  }
}

// MARK: - Streaming one large array

extension JSONParser {
  /// Parses a document whose top level is an object, handing the elements of the array under
  /// `key` to `visit` one at a time instead of keeping them: memory stays at one element however
  /// long the array. That member's value in the returned object is an empty array. If `key`
  /// occurs more than once, the last occurrence counts (`streamedStarts` and `streamedCount`
  /// describe it; `visit` sees every occurrence's elements, after a call with nil marking a new
  /// occurrence).
  ///
  /// `streamedStarts` are the byte offsets of every `every`-th element, for `parseElements`.
  public func parseStreaming(
    _ bytes: UnsafeRawBufferPointer, arrayUnder key: String, every: Int,
    visit: (JSONValue?) -> Void
  ) throws(JSONError) -> (object: JSONValue, streamedStarts: [Int], streamedCount: Int) {
    final class Tally {
      var starts: [Int] = []
      var count = 0
    }
    let tally = Tally()
    let every = max(1, every)
    var reader = JSONReader(bytes: bytes, maxDepth: maxDepth)
    reader.streamedKey = key
    let object = try withoutActuallyEscaping(visit) { visit throws(JSONError) in
      reader.streamVisitor = { start, element in
        guard let element else {
          tally.starts = []
          tally.count = 0
          visit(nil)
          return
        }
        if tally.count % every == 0 { tally.starts.append(start) }
        tally.count += 1
        visit(element)
      }
      defer { reader.streamVisitor = nil }
      return try reader.parseDocument()
    }
    return (object, tally.starts, tally.count)
  }

  /// Parses `count` elements of an array, the first starting at byte `offset` (an offset from
  /// `parseStreaming`), handing each to `visit`.
  public func parseElements(
    _ bytes: UnsafeRawBufferPointer, from offset: Int, count: Int, visit: (JSONValue) -> Void
  ) throws(JSONError) {
    var reader = JSONReader(bytes: bytes, maxDepth: maxDepth)
    reader.index = offset
    for n in 0..<count {
      reader.skipWhitespace()
      visit(try reader.parseValue(depth: 2))
      reader.skipWhitespace()
      if n + 1 < count {
        guard reader.index < bytes.count, bytes[reader.index] == UInt8(ascii: ",") else {
          throw JSONError(.unexpectedEnd, offset: reader.index)
        }
        reader.index += 1
      }
    }
  }
}
