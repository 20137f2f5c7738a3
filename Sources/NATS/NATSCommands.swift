import JSON

/// The client's side of the NATS protocol, as bytes. Pure.
public enum NATSCommands {
  public static let ping = Array("PING\r\n".utf8)
  public static let pong = Array("PONG\r\n".utf8)

  /// `CONNECT {…}\r\n`: no `+OK` per command (`verbose` false), no subject checks by the server
  /// beyond its own (`pedantic` false), whether over TLS, the credentials from the URL if any.
  /// A key's answer to the server's nonce: the public key (an NKEY user) or the JWT (a credentials
  /// file), and the signature, base64url.
  public struct KeyFields: Sendable, Equatable {
    public var nkey: String?
    public var jwt: String?
    public var signature: String
  }

  public static func connect(
    name: String, version: String, credentials: NATSURL.Credentials?, tls: Bool = false, key: KeyFields? = nil
  ) -> [UInt8] {
    var out = Array(#"CONNECT {"verbose":false,"pedantic":false,"tls_required":"#.utf8)
    out += Array((tls ? "true" : "false").utf8)
    out += Array(#","name":"#.utf8)
    JSONEscaping.appendQuoted(name, to: &out)
    out += Array(#","lang":"swift","version":"#.utf8)
    JSONEscaping.appendQuoted(version, to: &out)
    out += Array(#","protocol":1,"echo":false,"headers":false,"no_responders":false"#.utf8)
    switch credentials {
    case .userPassword(let user, let password):
      out += Array(#","user":"#.utf8)
      JSONEscaping.appendQuoted(user, to: &out)
      out += Array(#","pass":"#.utf8)
      JSONEscaping.appendQuoted(password, to: &out)
    case .token(let token):
      out += Array(#","auth_token":"#.utf8)
      JSONEscaping.appendQuoted(token, to: &out)
    case nil: break
    }
    if let key {
      for (name, value) in [("nkey", key.nkey), ("jwt", key.jwt), ("sig", key.signature)] {
        guard let value else { continue }
        out += Array(",\"\(name)\":".utf8)
        JSONEscaping.appendQuoted(value, to: &out)
      }
    }
    out += Array("}\r\n".utf8)
    return out
  }

  /// Appends `PUB <subject> <size>\r\n<payload>\r\n`. The subject must be a valid one (as
  /// `SubjectEscaping` makes them).
  public static func appendPublish(
    subject: some Collection<UInt8>, payload: some Collection<UInt8>, to out: inout [UInt8]
  ) {
    out.append(contentsOf: "PUB ".utf8)
    out.append(contentsOf: subject)
    out.append(0x20)
    appendDecimal(payload.count, to: &out)
    out.append(0x0D)
    out.append(0x0A)
    out.append(contentsOf: payload)
    out.append(0x0D)
    out.append(0x0A)
  }

  /// `PUB <subject> <reply-to> <size>\r\n<payload>\r\n`: a request, answered on `replyTo`.
  public static func request(subject: String, replyTo: String, payload: [UInt8]) -> [UInt8] {
    var out = Array("PUB \(subject) \(replyTo) ".utf8)
    appendDecimal(payload.count, to: &out)
    out += [0x0D, 0x0A] + payload + [0x0D, 0x0A]
    return out
  }

  /// `SUB <subject> <sid>\r\n`.
  public static func subscribe(_ subject: String, sid: String) -> [UInt8] {
    Array("SUB \(subject) \(sid)\r\n".utf8)
  }

  /// `UNSUB <sid>\r\n`.
  public static func unsubscribe(sid: String) -> [UInt8] { Array("UNSUB \(sid)\r\n".utf8) }

  /// `n` (≥ 0) in decimal digits, without making a String.
  static func appendDecimal(_ n: Int, to out: inout [UInt8]) {
    var divisor = 1
    while divisor <= n / 10 { divisor *= 10 }
    var rest = n
    while divisor > 0 {
      out.append(UInt8(ascii: "0") + UInt8(rest / divisor))
      rest %= divisor
      divisor /= 10
    }
  }
}
