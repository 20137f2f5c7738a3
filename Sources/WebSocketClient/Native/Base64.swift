/// Standard base64 (RFC 4648 §4, with padding) without Foundation.
enum Base64 {
  private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  static func encode(_ bytes: some Collection<UInt8>) -> String {
    let input = Array(bytes)
    var out: [UInt8] = []
    out.reserveCapacity((input.count + 2) / 3 * 4)
    var i = 0
    while i < input.count {
      let b0 = UInt32(input[i])
      let b1 = i + 1 < input.count ? UInt32(input[i + 1]) : 0
      let b2 = i + 2 < input.count ? UInt32(input[i + 2]) : 0
      let triple = b0 << 16 | b1 << 8 | b2
      out.append(alphabet[Int((triple >> 18) & 0x3F)])
      out.append(alphabet[Int((triple >> 12) & 0x3F)])
      out.append(i + 1 < input.count ? alphabet[Int((triple >> 6) & 0x3F)] : UInt8(ascii: "="))
      out.append(i + 2 < input.count ? alphabet[Int(triple & 0x3F)] : UInt8(ascii: "="))
      i += 3
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// Decodes padded base64; nil for any character outside the alphabet or a bad length.
  static func decode(_ text: String) -> [UInt8]? {
    let chars = Array(text.utf8)
    guard chars.count % 4 == 0 else { return nil }
    var out: [UInt8] = []
    var i = 0
    while i < chars.count {
      var values: [UInt32] = []
      var padding = 0
      for j in 0..<4 {
        let c = chars[i + j]
        if c == UInt8(ascii: "=") {
          guard i + 4 == chars.count, j >= 2 else { return nil }
          padding += 1
          values.append(0)
        } else {
          guard padding == 0, let v = alphabet.firstIndex(of: c) else { return nil }
          values.append(UInt32(v))
        }
      }
      let triple = values[0] << 18 | values[1] << 12 | values[2] << 6 | values[3]
      out.append(UInt8((triple >> 16) & 0xFF))
      if padding < 2 { out.append(UInt8((triple >> 8) & 0xFF)) }
      if padding < 1 { out.append(UInt8(triple & 0xFF)) }
      i += 4
    }
    return out
  }
}
