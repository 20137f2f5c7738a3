/// `Sec-WebSocket-Extensions` values (RFC 6455 §9.1), parsed: a list of extensions, each a name and
/// parameters, a parameter a name and an optional value.
///
///     extension-list = 1#extension
///     extension      = extension-token *( ";" extension-param )
///     extension-param = token [ "=" (token | quoted-string) ]
///
/// A quoted value must be a token once unquoted (§9.1). Names are compared case-insensitively, so
/// they are kept lower-cased; values are kept as sent. Empty list elements are skipped (RFC 9110
/// §5.6.1); anything else that breaks the grammar is an error.
public struct ExtensionHeader: Sendable, Equatable {
  public struct Parameter: Sendable, Equatable {
    public var name: String
    public var value: String?

    public init(_ name: String, _ value: String? = nil) {
      self.name = name
      self.value = value
    }
  }

  public struct Element: Sendable, Equatable {
    public var name: String
    public var parameters: [Parameter]

    public init(_ name: String, _ parameters: [Parameter] = []) {
      self.name = name
      self.parameters = parameters
    }
  }

  public var elements: [Element]

  public init(elements: [Element]) {
    self.elements = elements
  }

  /// Why a value does not follow the grammar.
  public struct SyntaxError: Error, Sendable, Equatable {
    public var description: String
  }

  /// Parses the values of every `Sec-WebSocket-Extensions` field, in order (several fields are
  /// one list, as if joined with commas).
  public init(parsing values: [String]) throws(SyntaxError) {
    var elements: [Element] = []
    for value in values {
      var scanner = Scanner(Array(value.utf8))
      elements += try scanner.list()
    }
    self.elements = elements
  }

  /// The values of every `Sec-WebSocket-Extensions` field of `head`.
  public static func values(in head: HTTPHead) -> [String] {
    head.fields.filter { $0.name.lowercased() == "sec-websocket-extensions" }.map(\.value)
  }

  /// The value as it is sent: `permessage-deflate; client_max_window_bits=10`.
  public var text: String {
    elements.map { element in
      ([element.name] + element.parameters.map { p in p.value.map { "\(p.name)=\($0)" } ?? p.name })
        .joined(separator: "; ")
    }.joined(separator: ", ")
  }

  /// tchar (RFC 9110 §5.6.2).
  static func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      true
    default: Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
    }
  }

  private struct Scanner {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { index == bytes.count }

    mutating func skipSpace() {
      while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
    }

    mutating func take(_ byte: UInt8) -> Bool {
      guard index < bytes.count, bytes[index] == byte else { return false }
      index += 1
      return true
    }

    mutating func token(_ what: String) throws(SyntaxError) -> String {
      let start = index
      while index < bytes.count, ExtensionHeader.isTokenByte(bytes[index]) { index += 1 }
      guard index > start else { throw SyntaxError(description: "expected \(what) at byte \(start)") }
      return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// A quoted-string, unescaped; it must hold a token.
    mutating func quoted() throws(SyntaxError) -> String {
      let start = index
      index += 1  // the opening quote
      var value: [UInt8] = []
      while true {
        guard index < bytes.count else { throw SyntaxError(description: "unterminated quoted value") }
        let byte = bytes[index]
        index += 1
        if byte == UInt8(ascii: "\"") { break }
        if byte == UInt8(ascii: "\\") {
          guard index < bytes.count else { throw SyntaxError(description: "unterminated quoted value") }
          value.append(bytes[index])
          index += 1
        } else {
          value.append(byte)
        }
      }
      guard !value.isEmpty, value.allSatisfy(ExtensionHeader.isTokenByte) else {
        throw SyntaxError(description: "the quoted value at byte \(start) is not a token")
      }
      return String(decoding: value, as: UTF8.self)
    }

    mutating func list() throws(SyntaxError) -> [Element] {
      var elements: [Element] = []
      while true {
        skipSpace()
        if atEnd { return elements }
        if take(UInt8(ascii: ",")) { continue }  // an empty element
        elements.append(try element())
        skipSpace()
        if atEnd { return elements }
        guard take(UInt8(ascii: ",")) else {
          throw SyntaxError(description: "expected \",\" or \";\" at byte \(index)")
        }
      }
    }

    mutating func element() throws(SyntaxError) -> Element {
      var element = Element(try token("an extension name").lowercased())
      while true {
        skipSpace()
        guard take(UInt8(ascii: ";")) else { return element }
        skipSpace()
        let name = try token("a parameter name").lowercased()
        skipSpace()
        var value: String? = nil
        if take(UInt8(ascii: "=")) {
          skipSpace()
          value =
            index < bytes.count && bytes[index] == UInt8(ascii: "\"") ? try quoted() : try token("a value")
        }
        element.parameters.append(Parameter(name, value))
      }
    }
  }
}
