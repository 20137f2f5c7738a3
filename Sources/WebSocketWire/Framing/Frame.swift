/// One WebSocket frame with its payload already unmasked.
public struct Frame: Sendable, Equatable {
  public var fin: Bool
  /// RSV1–3 as the low three bits (0b0000_0rrr). Always 0 without a negotiated extension.
  public var rsv: UInt8
  public var opcode: Opcode
  public var payload: [UInt8]

  public init(fin: Bool = true, rsv: UInt8 = 0, opcode: Opcode, payload: [UInt8] = []) {
    self.fin = fin
    self.rsv = rsv
    self.opcode = opcode
    self.payload = payload
  }

  /// A close frame carrying `status` (code, then the reason cut to fit 125 bytes). Codes that may
  /// not appear on the wire (1005, 1006, 1015, …) give an empty payload.
  public static func close(_ status: CloseStatus?) -> Frame {
    guard let status, status.code.isValidOnWire else { return Frame(opcode: .close) }
    var payload: [UInt8] = [UInt8(status.code.rawValue >> 8), UInt8(status.code.rawValue & 0xFF)]
    payload.append(contentsOf: Frame.truncatedUTF8(status.reason, maxBytes: 123))
    return Frame(opcode: .close, payload: payload)
  }

  /// The UTF-8 bytes of `text`, cut at a scalar boundary so they fit in `maxBytes`.
  static func truncatedUTF8(_ text: String, maxBytes: Int) -> [UInt8] {
    var out: [UInt8] = []
    for scalar in text.unicodeScalars {
      let bytes = Array(String(scalar).utf8)
      if out.count + bytes.count > maxBytes { break }
      out.append(contentsOf: bytes)
    }
    return out
  }
}
