import WebSocketWire

/// Why a request head was refused, each with the status that says so.
enum HTTPRequestError: Error, Sendable, Equatable {
  /// No line end within the size limit: 414.
  case requestLineTooLong(limit: Int)
  /// The request line ended but the head did not, within the size limit: 431.
  case headTooLarge(limit: Int)
  /// Not an HTTP/1.x request head: 400, with what was wrong (for tests; never echoed).
  case malformed(String)
  /// `HTTP/2.0` and the like on an HTTP/1.1 connection: 505.
  case unsupportedVersion

  var status: Int {
    switch self {
    case .requestLineTooLong: 414
    case .headTooLarge: 431
    case .malformed: 400
    case .unsupportedVersion: 505
    }
  }
}

/// A request head as the metrics endpoint reads it: the method, the path (its query cut off), and
/// the header fields. Pure.
struct HTTPRequest: Sendable, Equatable {
  var method: String
  /// `/metrics` for `/metrics?x=1` and `http://host:9/metrics` alike; `*` for `OPTIONS *`.
  var path: String
  var head: HTTPHead

  /// Parses a whole head, its final CRLF CRLF included.
  static func parse(_ bytes: ArraySlice<UInt8>) throws(HTTPRequestError) -> HTTPRequest {
    let head: HTTPHead
    switch HTTPHead.scan(Array(bytes), maximumSize: bytes.count) {
    case .complete(let complete, _): head = complete
    case .malformed(let why): throw .malformed(why)
    case .needMoreBytes, .tooLarge: throw .malformed("an incomplete head")
    }
    let parts = HTTPHead.split(head.startLine[...], on: " ")
    guard parts.count == 3 else { throw .malformed("a request line without three parts") }
    guard !parts[0].isEmpty, parts[0].utf8.allSatisfy(isTokenByte) else { throw .malformed("a bad method") }
    try checkVersion(parts[2])
    return HTTPRequest(method: String(parts[0]), path: try path(of: parts[1]), head: head)
  }

  private static func checkVersion(_ version: Substring) throws(HTTPRequestError) {
    if version == "HTTP/1.1" || version == "HTTP/1.0" { return }
    let digits = version.utf8.dropFirst(5)
    let shaped =
      version.hasPrefix("HTTP/") && digits.count == 3 && digits.dropFirst().first == UInt8(ascii: ".")
      && isDigit(digits.first) && isDigit(digits.last)
    throw shaped ? .unsupportedVersion : .malformed("a bad HTTP version")
  }

  /// The path of an origin-form (`/metrics?x`), absolute-form (`http://h/metrics`) or asterisk-form
  /// target (RFC 9112 §3.2).
  private static func path(of target: Substring) throws(HTTPRequestError) -> String {
    guard !target.isEmpty, target.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
      throw .malformed("a bad request target")
    }
    if target == "*" { return "*" }
    var rest = target
    if !rest.hasPrefix("/") {
      let lower = rest.lowercased()
      let scheme = lower.hasPrefix("http://") ? 7 : lower.hasPrefix("https://") ? 8 : 0
      guard scheme > 0 else { throw .malformed("a bad request target") }
      rest = rest.dropFirst(scheme)
      guard let slash = rest.firstIndex(of: "/") else { return "/" }
      rest = rest[slash...]
    }
    if let question = rest.firstIndex(of: "?") { rest = rest[..<question] }
    return String(rest)
  }

  private static func isDigit(_ byte: UInt8?) -> Bool {
    guard let byte else { return false }
    return byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  /// RFC 9110 §5.6.2's `tchar`.
  private static func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      true
    default: Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
    }
  }
}
