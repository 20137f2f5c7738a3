/// Why a JSON document was rejected, with the byte offset (from 0) where the problem was found.
public struct JSONError: Error, Sendable, Equatable, CustomStringConvertible {
  public enum Kind: Sendable, Equatable {
    /// The document ended where more was needed (an empty document included).
    case unexpectedEnd
    /// A byte that cannot start or continue what was being parsed.
    case unexpectedByte(UInt8)
    /// A number that does not follow the RFC 8259 grammar (`01`, `1.`, `-`, `1e`).
    case invalidNumber
    /// A backslash escape that is not one of `\" \\ \/ \b \f \n \r \t \uXXXX`.
    case invalidEscape
    /// A lone UTF-16 surrogate in a `\u` escape.
    case invalidSurrogate
    /// A string's bytes are not valid UTF-8.
    case invalidUTF8
    /// An unescaped control character (U+0000–U+001F) inside a string.
    case controlCharacterInString
    /// Arrays and objects nest deeper than the parser's limit.
    case tooDeep(limit: Int)
    /// More non-whitespace bytes after the top-level value.
    case trailingData
  }

  public var kind: Kind
  public var offset: Int

  public init(_ kind: Kind, offset: Int) {
    self.kind = kind
    self.offset = offset
  }

  public var description: String {
    let what: String
    switch kind {
    case .unexpectedEnd: what = "unexpected end of input"
    case .unexpectedByte(let b):
      if b >= 0x21 && b < 0x7F {
        what = "unexpected character '\(Character(Unicode.Scalar(b)))'"
      } else {
        what = "unexpected byte 0x\(String(b, radix: 16, uppercase: true))"
      }
    case .invalidNumber: what = "invalid number"
    case .invalidEscape: what = "invalid escape sequence"
    case .invalidSurrogate: what = "unpaired UTF-16 surrogate in \\u escape"
    case .invalidUTF8: what = "invalid UTF-8 in string"
    case .controlCharacterInString: what = "unescaped control character in string"
    case .tooDeep(let limit): what = "nesting deeper than \(limit) levels"
    case .trailingData: what = "unexpected data after the JSON value"
    }
    return "\(what) at byte \(offset)"
  }
}
