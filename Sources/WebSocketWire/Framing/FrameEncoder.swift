/// Encodes frames for the wire (RFC 6455 §5.2). Pure: the masking key comes from the caller.
public enum FrameEncoder {
  /// A client frame: always masked, with a fresh 4-byte key drawn from `random` (the four most
  /// significant bytes of one `UInt64`, in big-endian order).
  public static func encodeClientFrame(
    _ frame: Frame, using random: inout some RandomNumberGenerator
  ) -> [UInt8] {
    let key = UInt32(truncatingIfNeeded: random.next() >> 32)
    return encode(frame, maskingKey: key)
  }

  /// A server frame: never masked.
  public static func encodeServerFrame(_ frame: Frame) -> [UInt8] {
    encode(frame, maskingKey: nil)
  }

  /// Encodes `frame`, masking its payload with `maskingKey` (big-endian key bytes) when given.
  public static func encode(_ frame: Frame, maskingKey: UInt32?) -> [UInt8] {
    let count = frame.payload.count
    var out: [UInt8] = []
    out.reserveCapacity(14 + count)
    out.append((frame.fin ? 0x80 : 0) | (frame.rsv & 0x7) << 4 | frame.opcode.rawValue)
    let maskBit: UInt8 = maskingKey == nil ? 0 : 0x80
    if count <= 125 {
      out.append(maskBit | UInt8(count))
    } else if count <= 0xFFFF {
      out.append(maskBit | 126)
      out.append(UInt8(count >> 8))
      out.append(UInt8(count & 0xFF))
    } else {
      out.append(maskBit | 127)
      let length = UInt64(count)
      for shift in stride(from: 56, through: 0, by: -8) {
        out.append(UInt8((length >> UInt64(shift)) & 0xFF))
      }
    }
    if let key = maskingKey {
      out.append(UInt8(key >> 24))
      out.append(UInt8((key >> 16) & 0xFF))
      out.append(UInt8((key >> 8) & 0xFF))
      out.append(UInt8(key & 0xFF))
      var payload = frame.payload
      FrameParser.unmask(&payload, key: key)
      out.append(contentsOf: payload)
    } else {
      out.append(contentsOf: frame.payload)
    }
    return out
  }
}
