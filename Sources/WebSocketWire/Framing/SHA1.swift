/// A small SHA-1 (FIPS 180-4), only for `Sec-WebSocket-Accept`. Not for security purposes.
enum SHA1 {
  static func hash(_ message: some Collection<UInt8>) -> [UInt8] {
    var h: (UInt32, UInt32, UInt32, UInt32, UInt32) = (
      0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0
    )
    var data = Array(message)
    let bitLength = UInt64(data.count) &* 8
    data.append(0x80)
    while data.count % 64 != 56 { data.append(0) }
    for shift in stride(from: 56, through: 0, by: -8) {
      data.append(UInt8((bitLength >> UInt64(shift)) & 0xFF))
    }

    var w = [UInt32](repeating: 0, count: 80)
    var chunk = 0
    while chunk < data.count {
      for i in 0..<16 {
        let j = chunk + i * 4
        w[i] =
          UInt32(data[j]) << 24 | UInt32(data[j + 1]) << 16 | UInt32(data[j + 2]) << 8 | UInt32(data[j + 3])
      }
      for i in 16..<80 { w[i] = rotl(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1) }
      var (a, b, c, d, e) = h
      for i in 0..<80 {
        let f: UInt32
        let k: UInt32
        switch i {
        case 0..<20:
          f = (b & c) | (~b & d)
          k = 0x5A82_7999
        case 20..<40:
          f = b ^ c ^ d
          k = 0x6ED9_EBA1
        case 40..<60:
          f = (b & c) | (b & d) | (c & d)
          k = 0x8F1B_BCDC
        default:
          f = b ^ c ^ d
          k = 0xCA62_C1D6
        }
        let temp = rotl(a, 5) &+ f &+ e &+ k &+ w[i]
        e = d
        d = c
        c = rotl(b, 30)
        b = a
        a = temp
      }
      h = (h.0 &+ a, h.1 &+ b, h.2 &+ c, h.3 &+ d, h.4 &+ e)
      chunk += 64
    }
    var out: [UInt8] = []
    out.reserveCapacity(20)
    for word in [h.0, h.1, h.2, h.3, h.4] {
      out.append(UInt8(word >> 24))
      out.append(UInt8((word >> 16) & 0xFF))
      out.append(UInt8((word >> 8) & 0xFF))
      out.append(UInt8(word & 0xFF))
    }
    return out
  }

  private static func rotl(_ x: UInt32, _ n: UInt32) -> UInt32 { x << n | x >> (32 - n) }
}
