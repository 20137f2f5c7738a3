import TickerSupport

/// A parsed `ws://` or `wss://` URL: what the engines need to connect, and nothing that would
/// print a secret by accident (`description` redacts the query string's values).
public struct WebSocketURL: Sendable, Equatable, CustomStringConvertible {
  public var isSecure: Bool
  /// Host name or IP literal, without brackets.
  public var host: String
  public var port: Int
  /// Path and query exactly as given, starting with "/" (e.g. "/ws?token=abc").
  public var target: String

  public init(isSecure: Bool, host: String, port: Int, target: String) {
    self.isSecure = isSecure
    self.host = host
    self.port = port
    self.target = target
  }

  /// Parses `ws[s]://host[:port][/path][?query]`. IPv6 literals go in brackets. The path and
  /// query are kept as given, except that what may not stand in a request line is
  /// percent-encoded as UTF-8 (as browsers do): every non-ASCII character and the ASCII
  /// characters RFC 3986 excludes (`"<>\^`{|}`). Host names must be ASCII (an international
  /// name goes in its `xn--` form).
  ///
  /// The text is read scalar by scalar, never Character by Character: a grapheme cluster can
  /// join a delimiter to what precedes it (U+06DD followed by "/" is one Character), and the URL
  /// must mean the same to us as to the server.
  public init(parsing text: String) throws(InvalidWebSocketURL) {
    let scalars = Substring(text).unicodeScalars
    // Spaces and control characters are never valid in a URL (RFC 3986), and CR/LF would inject
    // lines into the handshake request; a NUL would cut the host short for getaddrinfo.
    if scalars.contains(where: { $0.value <= 0x20 || (0x7F...0x9F).contains($0.value) }) {
      throw InvalidWebSocketURL("the URL contains spaces or control characters")
    }
    let rest: Substring.UnicodeScalarView
    if WebSocketURL.hasSchemePrefix(scalars, "wss://") {
      isSecure = true
      rest = scalars.dropFirst(6)
    } else if WebSocketURL.hasSchemePrefix(scalars, "ws://") {
      isSecure = false
      rest = scalars.dropFirst(5)
    } else {
      throw InvalidWebSocketURL("the URL must start with ws:// or wss://")
    }
    let targetStart = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
    let authority = rest[..<targetStart]
    var targetScalars = rest[targetStart...]
    if let hash = targetScalars.firstIndex(of: "#") { targetScalars = targetScalars[..<hash] }
    // What a request line may not hold, escaped; the rest, `%` included, as given: a target the
    // user encoded already is sent as written.
    var target = PercentEncoding.encode(Substring(targetScalars), keeping: .requestTarget)
    if target.isEmpty || target.first == "?" { target = "/" + target }
    (host, port) = try Self.hostAndPort(authority, isSecure: isSecure)
    self.target = target
  }

  /// The host (an IPv6 literal without its brackets) and the port (the scheme's by default) of
  /// `authority`, which must hold no user information and be ASCII.
  private static func hostAndPort(
    _ authority: Substring.UnicodeScalarView, isSecure: Bool
  ) throws(InvalidWebSocketURL) -> (String, Int) {
    var authority = authority
    if authority.contains("@") {
      throw InvalidWebSocketURL(
        "user:password@ is not allowed (a WebSocket URL has no user information, RFC 6455 §3; "
          + "and ps would show the password)")
    }
    if !authority.allSatisfy(\.isASCII) {
      throw InvalidWebSocketURL("the host name is not ASCII: write an international name in its xn-- form")
    }
    var portText: Substring.UnicodeScalarView? = nil
    let host: String
    if authority.first == "[" {
      guard let close = authority.firstIndex(of: "]") else {
        throw InvalidWebSocketURL("unterminated IPv6 address")
      }
      host = String(authority[authority.index(after: authority.startIndex)..<close])
      let after = authority[authority.index(after: close)...]
      if !after.isEmpty {
        guard after.first == ":" else { throw InvalidWebSocketURL("unexpected text after IPv6 address") }
        portText = after.dropFirst()
      }
    } else {
      if let colon = authority.lastIndex(of: ":") {
        portText = authority[authority.index(after: colon)...]
        authority = authority[..<colon]
      }
      host = String(authority)
    }
    guard !host.isEmpty else { throw InvalidWebSocketURL("the URL has no host") }
    if let portText {
      guard let p = Int(String(portText)), (1...65535).contains(p) else {
        throw InvalidWebSocketURL("invalid port \"\(String(portText))\"")
      }
      return (host, p)
    }
    return (host, isSecure ? 443 : 80)
  }

  /// Whether `scalars` starts with the lower-case ASCII `scheme`, in any case.
  private static func hasSchemePrefix(_ scalars: Substring.UnicodeScalarView, _ scheme: String) -> Bool {
    var it = scalars.makeIterator()
    for expected in scheme.unicodeScalars {
      guard let scalar = it.next(), scalar.isASCII,
        Unicode.Scalar(UInt8(scalar.value) | (("A"..."Z").contains(scalar) ? 0x20 : 0)) == expected
      else { return false }
    }
    return true
  }

  /// The `Host` header value: host plus the port when it is not the scheme's default.
  public var hostHeader: String {
    let h = host.contains(":") ? "[\(host)]" : host
    let defaultPort = isSecure ? 443 : 80
    return port == defaultPort ? h : "\(h):\(port)"
  }

  /// The URL with every query parameter's value replaced by `***`: safe to print.
  public var description: String {
    "\(isSecure ? "wss" : "ws")://\(hostHeader)\(Redaction.redactQuery(target))"
  }

  /// Returns a copy with `name=value` set in the query (replacing an existing `name`).
  public func settingQueryItem(_ name: String, to value: String) -> WebSocketURL {
    var copy = self
    let encoded = Redaction.percentEncodeQueryValue(value)
    var path = target
    var query = ""
    if let q = target.firstIndex(of: "?") {
      path = String(target[..<q])
      query = String(target[target.index(after: q)...])
    }
    var items = query.split(separator: "&", omittingEmptySubsequences: true).map(String.init)
    items.removeAll { $0 == name || $0.hasPrefix(name + "=") }
    items.append("\(name)=\(encoded)")
    copy.target = path + "?" + items.joined(separator: "&")
    return copy
  }
}
