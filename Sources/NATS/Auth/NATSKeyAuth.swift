import TickerSupport
import Transport

/// Authentication with a key instead of (or besides) the URL's password or token: an NKEY seed
/// (`--nats-nkey FILE`, the server knowing the user's public key), or a credentials file
/// (`--nats-creds FILE`: a user JWT and its seed, for servers in operator mode). The server's
/// `INFO` carries a nonce; `CONNECT` answers with its signature (`sig`), and the public key
/// (`nkey`) or the JWT (`jwt`).
public struct NATSKeyAuth: Sendable, Equatable {
  /// The user's Ed25519 private key.
  let seed: [UInt8]
  /// The JWT of a credentials file.
  public let jwt: String?
  /// What must never be printed: the seed's text.
  public let secrets: [String]

  init(seed: [UInt8], jwt: String?, secrets: [String]) {
    self.seed = seed
    self.jwt = jwt
    self.secrets = secrets
  }

  /// An NKEY seed file: the user seed (`SU…`) on a line of its own (other lines are ignored).
  public static func nkeyFile(_ contents: String) throws(NATSKeyAuthError) -> NATSKeyAuth {
    let lines = Self.lines(contents)
    guard let line = lines.first(where: { $0.hasPrefix("SU") }) else { throw .noSeed }
    do throws(NKeyError) {
      return NATSKeyAuth(seed: try NKey.userSeed(line), jwt: nil, secrets: [line])
    } catch {
      throw .badSeed(error)
    }
  }

  /// A credentials file as `nsc` writes it: `-----BEGIN NATS USER JWT-----`, the JWT, its end
  /// line, then `-----BEGIN USER NKEY SEED-----`, the seed, its end line.
  public static func credentialsFile(_ contents: String) throws(NATSKeyAuthError) -> NATSKeyAuth {
    let lines = Self.lines(contents)
    func after(_ marker: String) -> String? {
      guard let index = lines.firstIndex(where: { $0.hasPrefix("-") && $0.contains(text: marker) }) else {
        return nil
      }
      return lines[(index + 1)...].first { !$0.isEmpty && !$0.hasPrefix("-") }
    }
    guard let jwt = after("BEGIN NATS USER JWT") else { throw .noJWT }
    guard jwt.split(separator: ".").count == 3, jwt.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else {
      throw .badJWT
    }
    guard let seedText = after("BEGIN USER NKEY SEED") else { throw .noSeed }
    do throws(NKeyError) {
      return NATSKeyAuth(seed: try NKey.userSeed(seedText), jwt: jwt, secrets: [seedText])
    } catch {
      throw .badSeed(error)
    }
  }

  /// The lines of `text`, without the spaces and tabs around them.
  private static func lines(_ text: String) -> [String] {
    text.split(whereSeparator: \.isNewline).map(\.trimmingSpaces)
  }

  /// What `CONNECT` carries for the server's `nonce`.
  public func connectFields(nonce: String) throws(TransportError) -> NATSCommands.KeyFields {
    let signed = try Ed25519.sign(Array(nonce.utf8), seed: seed)
    var text = Base64.encode(signed.signature)
    text = String(
      text.unicodeScalars.compactMap { scalar -> Character? in
        switch scalar {
        case "+": "-"
        case "/": "_"
        case "=": nil
        default: Character(scalar)
        }
      })
    return NATSCommands.KeyFields(
      nkey: jwt == nil ? NKey.userPublicKey(signed.publicKey) : nil, jwt: jwt, signature: text)
  }
}

/// Why a seed or credentials file cannot be used. Never holds the seed.
public enum NATSKeyAuthError: Error, Sendable, Equatable, CustomStringConvertible {
  case noSeed
  case badSeed(NKeyError)
  case noJWT
  case badJWT

  public var description: String {
    switch self {
    case .noSeed: "it holds no user NKEY seed (a line starting SU)"
    case .badSeed(let why): "its seed is \(why)"
    case .noJWT: "it holds no user JWT (-----BEGIN NATS USER JWT-----)"
    case .badJWT: "its JWT is not three base64url parts"
    }
  }
}
