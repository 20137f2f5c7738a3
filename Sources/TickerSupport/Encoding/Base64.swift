/// RFC 4648 base64 (standard alphabet, padded): how a recording carries binary frames that are
/// not UTF-8. Decoding is strict (no whitespace, correct padding) and never traps.
public enum Base64 {
  private static let alphabet: [UInt8] = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  private static let values: [UInt8] = {
    var table = [UInt8](repeating: 0xFF, count: 256)
    for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
    return table
  }()

  public static func encode(_ bytes: some Collection<UInt8>, into out: inout [UInt8]) {
    var iterator = bytes.makeIterator()
    while let a = iterator.next() {
      let b = iterator.next()
      let c = iterator.next()
      out.append(alphabet[Int(a >> 2)])
      out.append(alphabet[Int((a & 0x03) << 4 | (b ?? 0) >> 4)])
      out.append(b.map { alphabet[Int(($0 & 0x0F) << 2 | (c ?? 0) >> 6)] } ?? UInt8(ascii: "="))
      out.append(c.map { alphabet[Int($0 & 0x3F)] } ?? UInt8(ascii: "="))
    }
  }

  public static func encode(_ bytes: some Collection<UInt8>) -> String {
    var out: [UInt8] = []
    out.reserveCapacity((bytes.count + 2) / 3 * 4)
    encode(bytes, into: &out)
    return String(decoding: out, as: UTF8.self)
  }

  /// The bytes, or nil when `text` is not canonical padded base64.
  public static func decode(_ text: some StringProtocol) -> [UInt8]? {
    let input = Array(text.utf8)
    guard input.count % 4 == 0 else { return nil }
    var out: [UInt8] = []
    out.reserveCapacity(input.count / 4 * 3)
    var index = 0
    while index < input.count {
      let last = index + 4 == input.count
      let pad =
        last
        ? (input[index + 3] == UInt8(ascii: "=") ? (input[index + 2] == UInt8(ascii: "=") ? 2 : 1) : 0) : 0
      var quad: [UInt8] = [0, 0, 0, 0]
      for offset in 0..<(4 - pad) {
        let value = values[Int(input[index + offset])]
        guard value != 0xFF else { return nil }
        quad[offset] = value
      }
      out.append(quad[0] << 2 | quad[1] >> 4)
      if pad < 2 { out.append(quad[1] << 4 | quad[2] >> 2) } else if quad[1] & 0x0F != 0 { return nil }
      if pad < 1 { out.append(quad[2] << 6 | quad[3]) } else if pad == 1 && quad[2] & 0x03 != 0 { return nil }
      index += 4
    }
    return out
  }
}
