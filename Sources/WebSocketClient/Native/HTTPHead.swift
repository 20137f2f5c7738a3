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
      field.value.split(separator: ",").map { HTTPHead.trim($0).lowercased() }
    }.filter { !$0.isEmpty }
  }

  enum ScanResult: Equatable {
    case needMoreBytes
    case tooLarge
    case malformed(String)
    /// The head and the number of bytes it used, including the blank line.
    case complete(HTTPHead, consumed: Int)
  }

  /// Finds a complete head (terminated by CRLF CRLF) at the start of `bytes` and parses it.
  static func scan(_ bytes: [UInt8], maximumSize: Int) -> ScanResult {
    guard let end = headEnd(bytes) else {
      return bytes.count > maximumSize ? .tooLarge : .needMoreBytes
    }
    guard end <= maximumSize else { return .tooLarge }
    // Header bytes are ASCII in practice; anything else is decoded leniently for messages.
    let text = String(decoding: bytes[0..<end - 4], as: UTF8.self)
    var lines = text.split(separator: "\r\n", omittingEmptySubsequences: false)
    guard !lines.isEmpty, !lines[0].isEmpty else { return .malformed("empty start line") }
    let startLine = String(lines.removeFirst())
    var fields: [Field] = []
    for line in lines {
      if line.first == " " || line.first == "\t" { return .malformed("folded header line") }
      guard let colon = line.firstIndex(of: ":"), colon != line.startIndex else {
        return .malformed("header line without a name")
      }
      let name = line[..<colon]
      if name.contains(where: { $0 == " " || $0 == "\t" }) { return .malformed("space in a header name") }
      fields.append(Field(name: String(name), value: trim(line[line.index(after: colon)...])))
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

  static func trim(_ text: Substring) -> String {
    var s = text
    while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
    while let l = s.last, l == " " || l == "\t" { s.removeLast() }
    return String(s)
  }
}
