/// The start line and header fields of an HTTP/1.1 request or response head.
public struct HTTPHead: Sendable, Equatable {
  public struct Field: Sendable, Equatable {
    public var name: String
    public var value: String
    public init(name: String, value: String) {
      self.name = name
      self.value = value
    }
  }

  public var startLine: String
  public var fields: [Field]

  public init(startLine: String, fields: [Field]) {
    self.startLine = startLine
    self.fields = fields
  }

  /// The first value of the header `name` (case-insensitive), trimmed.
  public func value(of name: String) -> String? {
    let lower = name.lowercased()
    return fields.first { $0.name.lowercased() == lower }?.value
  }

  /// Every comma-separated token of every `name` header, trimmed and lower-cased.
  public func tokens(of name: String) -> [String] {
    let lower = name.lowercased()
    return fields.filter { $0.name.lowercased() == lower }.flatMap { field in
      HTTPHead.split(field.value[...], on: ",").map { HTTPHead.trim($0).lowercased() }
    }.filter { !$0.isEmpty }
  }

  package enum ScanResult: Equatable {
    case needMoreBytes
    case tooLarge
    case malformed(String)
    /// The head and the number of bytes it used, including the blank line.
    case complete(HTTPHead, consumed: Int)
  }

  /// Finds a complete head (terminated by CRLF CRLF) at the start of `bytes` and parses it.
  package static func scan(_ bytes: [UInt8], maximumSize: Int) -> ScanResult {
    guard let end = headEnd(bytes) else {
      return bytes.count > maximumSize ? .tooLarge : .needMoreBytes
    }
    guard end <= maximumSize else { return .tooLarge }
    // Lines, names and values are cut at bytes, never at Characters: a grapheme cluster can join
    // a delimiter to the scalar before it (U+06DD followed by a space is one Character), and the
    // bytes a peer sends must mean the same to us as to any HTTP parser. Header bytes are ASCII in
    // practice; anything else is decoded leniently, for messages.
    guard let lines = crlfLines(bytes[0..<end - 4]) else {
      return .malformed("a bare CR or LF in the head (RFC 9112 §2.2)")
    }
    guard let first = lines.first, !first.isEmpty else { return .malformed("empty start line") }
    let startLine = String(decoding: first, as: UTF8.self)
    var fields: [Field] = []
    for line in lines.dropFirst() {
      if line.first == 0x20 || line.first == 0x09 { return .malformed("folded header line") }
      guard let colon = line.firstIndex(of: 0x3A), colon != line.startIndex else {
        return .malformed("header line without a name")
      }
      let name = line[..<colon]
      if name.contains(where: { $0 == 0x20 || $0 == 0x09 }) { return .malformed("space in a header name") }
      let value = String(decoding: line[(colon + 1)...], as: UTF8.self)
      fields.append(Field(name: String(decoding: name, as: UTF8.self), value: trim(value[...])))
    }
    return .complete(HTTPHead(startLine: startLine, fields: fields), consumed: end)
  }

  /// The index just past the first CRLF CRLF, if any.
  private static func headEnd(_ bytes: [UInt8]) -> Int? {
    guard bytes.count >= 4 else { return nil }
    var i = 0
    while i + 3 < bytes.count {
      if bytes[i + 3] != 0x0A {
        i += 1
        continue
      }
      if bytes[i] == 0x0D && bytes[i + 1] == 0x0A && bytes[i + 2] == 0x0D { return i + 4 }
      i += 1
    }
    return nil
  }

  /// The lines of `head` (which does not hold its final CRLF CRLF), cut at each CRLF; nil when a
  /// CR or LF stands anywhere else.
  private static func crlfLines(_ head: ArraySlice<UInt8>) -> [ArraySlice<UInt8>]? {
    var lines: [ArraySlice<UInt8>] = []
    var start = head.startIndex
    var i = head.startIndex
    while i < head.endIndex {
      switch head[i] {
      case 0x0D:
        guard i + 1 < head.endIndex, head[i + 1] == 0x0A else { return nil }
        lines.append(head[start..<i])
        i += 2
        start = i
      case 0x0A: return nil
      default: i += 1
      }
    }
    lines.append(head[start..<head.endIndex])
    return lines
  }

  /// `text` without leading and trailing spaces and tabs (scalars, not Characters: a tab can
  /// start a grapheme cluster with what follows it).
  static func trim(_ text: Substring) -> String {
    var s = text.unicodeScalars
    while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
    while let l = s.last, l == " " || l == "\t" { s.removeLast() }
    return String(s)
  }

  /// `text` fit to stand in a header line we write: without CR, LF, NUL or any other control
  /// character but tab (RFC 9110 §5.5), and without `dropping` (":" for a name). Scalars, not
  /// Characters: "\r\n" is one Character, which equals neither "\r" nor "\n".
  package static func fieldText(_ text: String, dropping: Unicode.Scalar? = nil) -> String {
    var out = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      if scalar == "\t" || (scalar.value >= 0x20 && scalar.value != 0x7F && scalar != dropping) {
        out.append(scalar)
      }
    }
    return String(out)
  }

  /// `text` cut at every `separator` scalar; empty pieces kept.
  package static func split(_ text: Substring, on separator: Unicode.Scalar, maxSplits: Int = .max)
    -> [Substring]
  {
    text.unicodeScalars.split(separator: separator, maxSplits: maxSplits, omittingEmptySubsequences: false)
      .map { Substring($0) }
  }
}
