import TickerSupport

/// NATS's NKEY text forms (base32 of a prefix, the key and a CRC-16), and the seed a user signs
/// with. Pure.
///
/// A seed is `S` + the key type (`U` for a user): `SU…`, 58 characters, 32 bytes of Ed25519
/// private key inside; a user's public key is `U…`, 56 characters.
public enum NKey {
  /// The prefix bytes of a seed (`S`) and of a user key (`U`), as NKEYs number them.
  static let seedPrefix: UInt8 = 18 << 3
  static let userPrefix: UInt8 = 20 << 3

  /// The 32-byte private key of a user seed (`SU…`), or why it is not one.
  public static func userSeed(_ text: String) throws(NKeyError) -> [UInt8] {
    guard let raw = Base32.decode(String(text.filter { !$0.isNewline }).trimmingSpaces) else {
      throw .notBase32
    }
    guard raw.count == 36 else { throw .wrongLength(raw.count) }
    guard crc16(raw[0..<34]) == UInt16(raw[34]) | UInt16(raw[35]) << 8 else { throw .badChecksum }
    guard raw[0] & 0xF8 == seedPrefix else { throw .notASeed }
    let type = (raw[0] & 0x07) << 5 | (raw[1] & 0xF8) >> 3
    guard type == userPrefix else { throw .notAUserSeed }
    return Array(raw[2..<34])
  }

  /// The text of a user seed (`SU…`) for a 32-byte private key: `userSeed`'s inverse.
  static func userSeedText(_ key: [UInt8]) -> String {
    var raw = [seedPrefix | userPrefix >> 5, (userPrefix & 31) << 3] + key
    let crc = crc16(raw[...])
    raw += [UInt8(crc & 0xFF), UInt8(crc >> 8)]
    return Base32.encode(raw)
  }

  /// A user's public key (`U…`) for its 32-byte Ed25519 public key.
  public static func userPublicKey(_ key: [UInt8]) -> String { publicKey(key, prefix: userPrefix) }

  /// A public key (`U…`, `A…` for an account, `O…` for an operator) with this prefix byte.
  static func publicKey(_ key: [UInt8], prefix: UInt8) -> String {
    var raw = [prefix] + key
    let crc = crc16(raw[...])
    raw += [UInt8(crc & 0xFF), UInt8(crc >> 8)]
    return Base32.encode(raw)
  }

  /// CRC-16/XMODEM (polynomial 0x1021, initial 0), as NKEYs check their text.
  static func crc16(_ bytes: ArraySlice<UInt8>) -> UInt16 {
    var crc: UInt16 = 0
    for byte in bytes {
      crc ^= UInt16(byte) << 8
      for _ in 0..<8 { crc = crc & 0x8000 != 0 ? crc << 1 ^ 0x1021 : crc << 1 }
    }
    return crc
  }
}

/// Why a text is not a user's NKEY seed. Never holds the text.
public enum NKeyError: Error, Sendable, Equatable, CustomStringConvertible {
  case notBase32
  case wrongLength(Int)
  case badChecksum
  case notASeed
  case notAUserSeed

  public var description: String {
    switch self {
    case .notBase32: "not an NKEY (not base32)"
    case .wrongLength(let count): "not an NKEY seed (\(count) bytes, not 36)"
    case .badChecksum: "not an NKEY seed (its checksum is wrong)"
    case .notASeed: "an NKEY, but not a seed (a seed starts with S)"
    case .notAUserSeed: "an NKEY seed, but not a user's (a user seed starts with SU)"
    }
  }
}

/// RFC 4648 base32, upper case, without padding (as NKEYs write it).
enum Base32 {
  static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

  static func encode(_ bytes: [UInt8]) -> String {
    var out: [UInt8] = []
    var buffer: UInt32 = 0
    var bits = 0
    for byte in bytes {
      buffer = buffer << 8 | UInt32(byte)
      bits += 8
      while bits >= 5 {
        out.append(alphabet[Int(buffer >> UInt32(bits - 5) & 31)])
        bits -= 5
      }
    }
    if bits > 0 { out.append(alphabet[Int(buffer << UInt32(5 - bits) & 31)]) }
    return String(decoding: out, as: UTF8.self)
  }

  /// nil for a character outside the alphabet (lower case is accepted), or `=`.
  static func decode(_ text: String) -> [UInt8]? {
    var out: [UInt8] = []
    var buffer: UInt32 = 0
    var bits = 0
    for character in text.utf8 {
      let value: UInt8
      switch character {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = character - UInt8(ascii: "A")
      case UInt8(ascii: "a")...UInt8(ascii: "z"): value = character - UInt8(ascii: "a")
      case UInt8(ascii: "2")...UInt8(ascii: "7"): value = character - UInt8(ascii: "2") + 26
      default: return nil
      }
      buffer = (buffer << 5 | UInt32(value)) & 0xFFFF
      bits += 5
      if bits >= 8 {
        out.append(UInt8(buffer >> UInt32(bits - 8) & 0xFF))
        bits -= 8
      }
    }
    return out
  }
}
