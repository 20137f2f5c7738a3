import TickerSupport

/// A NATS server for `--publish` and `--source`: `nats://HOST[:PORT]`, or `tls://HOST[:PORT]` for
/// TLS whatever the server offers (a `nats://` server that requires TLS gets it too), with
/// optional credentials `nats://USER:PASSWORD@HOST[:PORT]` or a token `nats://TOKEN@HOST[:PORT]`
/// (what the NATS clients accept). The port defaults to 4222; IPv6 literals go in brackets.
/// Nothing else is allowed: no path, query or fragment.
///
/// `description` never shows the credentials (`nats://***@host:4222`).
public struct NATSURL: Sendable, Equatable, CustomStringConvertible {
  /// How the client proves who it is, if at all.
  public enum Credentials: Sendable, Equatable {
    case userPassword(user: String, password: String)
    case token(String)
  }

  /// Host name or IP literal, without brackets.
  public var host: String
  public var port: Int
  public var credentials: Credentials?
  /// `tls://`: TLS even where the server does not require it.
  public var isSecure: Bool

  public static let defaultPort = 4222

  public init(
    host: String, port: Int = NATSURL.defaultPort, credentials: Credentials? = nil, isSecure: Bool = false
  ) {
    self.host = host
    self.port = port
    self.credentials = credentials
    self.isSecure = isSecure
  }

  /// Parses `nats://` or `tls://[user[:password]@]host[:port][/]`; the error says what is wrong.
  public init(parsing text: String) throws(NATSURLError) {
    if text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) {
      throw .invalid("the URL contains spaces or control characters")
    }
    let lower = text.lowercased()
    guard lower.hasPrefix("nats://") || lower.hasPrefix("tls://") else {
      throw .invalid("the URL must start with nats:// or tls://")
    }
    isSecure = lower.hasPrefix("tls://")
    var authority = text.dropFirst(isSecure ? 6 : 7)
    if authority.last == "/" { authority = authority.dropLast() }
    if authority.contains(where: { $0 == "/" || $0 == "?" || $0 == "#" }) {
      throw .invalid("a NATS URL has no path, query or fragment: nats://HOST:PORT")
    }
    var credentials: Credentials?
    if let at = authority.lastIndex(of: "@") {
      let userInfo = authority[..<at]
      authority = authority[authority.index(after: at)...]
      if let colon = userInfo.firstIndex(of: ":") {
        let user = String(userInfo[..<colon])
        let password = String(userInfo[userInfo.index(after: colon)...])
        guard !user.isEmpty else { throw .invalid("the user name before ':' is empty") }
        credentials = .userPassword(
          user: Self.percentDecoded(user) ?? user, password: Self.percentDecoded(password) ?? password)
      } else {
        guard !userInfo.isEmpty else { throw .invalid("nothing before '@'") }
        let token = String(userInfo)
        credentials = .token(Self.percentDecoded(token) ?? token)
      }
    }
    var portText: Substring?
    if authority.first == "[" {
      guard let close = authority.firstIndex(of: "]") else { throw .invalid("unterminated IPv6 address") }
      host = String(authority[authority.index(after: authority.startIndex)..<close])
      let after = authority[authority.index(after: close)...]
      if !after.isEmpty {
        guard after.first == ":" else { throw .invalid("unexpected text after the IPv6 address") }
        portText = after.dropFirst()
      }
    } else {
      if let colon = authority.lastIndex(of: ":") {
        portText = authority[authority.index(after: colon)...]
        authority = authority[..<colon]
      }
      if authority.contains(":") { throw .invalid("an IPv6 address goes in brackets: nats://[::1]:4222") }
      host = String(authority)
    }
    guard !host.isEmpty else { throw .invalid("the URL has no host") }
    if let portText {
      guard portText.allSatisfy(\.isASCII), let p = Int(portText), (1...65535).contains(p) else {
        throw .invalid("invalid port \"\(portText)\" (1 to 65535)")
      }
      port = p
    } else {
      port = Self.defaultPort
    }
    self.credentials = credentials
  }

  /// `host:port`, with brackets around an IPv6 literal.
  public var hostPort: String {
    (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
  }

  /// The URL without its credentials: safe to print.
  public var description: String {
    (isSecure ? "tls://" : "nats://") + (credentials == nil ? "" : "***@") + hostPort
  }

  /// The secrets in the URL (for `Redaction`): the password or the token.
  public var secrets: [String] {
    switch credentials {
    case .userPassword(_, let password): [password]
    case .token(let token): [token]
    case nil: []
    }
  }

  /// `%40` → `@`: user information may escape the characters URLs reserve. nil when an escape is
  /// malformed or the bytes are not UTF-8 (the text is then taken as it is).
  static func percentDecoded(_ text: String) -> String? {
    // User information (RFC 3986): `+` is itself, and a malformed escape means the text was not
    // meant encoded (a password with a `%` of its own), which the caller then takes as it is.
    PercentEncoding.decode(text, plus: .literal, malformed: .fails).flatMap {
      String(validating: $0, as: UTF8.self)
    }
  }
}

/// A `--publish` value that is not a usable NATS URL.
public enum NATSURLError: Error, Sendable, Equatable, CustomStringConvertible {
  case invalid(String)

  public var description: String {
    switch self {
    case .invalid(let why): why
    }
  }
}
