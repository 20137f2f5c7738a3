/// An incremental RFC 6455 frame parser: feed bytes with `append`, pull frames with `next()`.
///
/// The header is validated as soon as its bytes are present, before any payload is buffered:
/// RSV bits, opcode, control-frame rules, length encoding, the masking rule for the role, and the
/// frame size limit. After an error the parser stays failed and keeps throwing that error.
///
/// With permessage-deflate agreed (`allowsCompression`), RSV1 may mark the first frame of a data
/// message as compressed (RFC 7692 §6); on a continuation or control frame it is still an error.
public struct FrameParser: Sendable {
  /// Which side of the connection *we* are: a client parses server frames and vice versa.
  public enum Role: Sendable, Equatable {
    case client
    case server
  }

  struct Header: Sendable, Equatable {
    var fin: Bool
    var rsv: UInt8
    var opcode: Opcode
    var length: Int
    /// The 4 key bytes in wire order, big-endian.
    var maskingKey: UInt32?
  }

  enum State: Sendable, Equatable {
    /// Waiting for (the rest of) a frame header.
    case header
    /// The header is parsed and valid; waiting for `length` payload bytes.
    case payload(Header)
    /// A violation was found; every later call throws it again.
    case failed(FrameError)
  }

  public let role: Role
  public let maximumFrameSize: Int
  /// RSV1 may be set on a text or binary frame (permessage-deflate was agreed).
  public let allowsCompression: Bool
  private(set) var state: State = .header
  private var buffer: [UInt8] = []
  /// Index of the first unconsumed byte in `buffer`; the prefix is dropped in `compact()`.
  private var readIndex = 0
  /// Counts frame headers parsed: tells apart the partial payloads of different frames.
  public private(set) var frameSerial = 0
  /// The payload of a large frame, collected apart from `buffer` in an array reserved to the
  /// frame's exact length (see `largeFrameThreshold`): it grows without doubling and becomes the
  /// frame's payload without a copy.
  private var large: [UInt8]?

  /// Frames whose payload is at least this long and not yet all here are collected in `large`.
  static let largeFrameThreshold = 256 << 10

  public init(role: Role, maximumFrameSize: Int, allowsCompression: Bool = false) {
    self.role = role
    self.maximumFrameSize = max(0, maximumFrameSize)
    self.allowsCompression = allowsCompression
  }

  /// Bytes received but not yet returned as part of a frame.
  public var bufferedByteCount: Int { buffer.count - readIndex + (large?.count ?? 0) }

  /// The frame whose payload is arriving, when its header has been parsed but not all of its
  /// payload is here yet: its opcode, `frameSerial`, and the payload bytes received so far.
  /// Only for unmasked frames (what a client receives); nil otherwise.
  public struct PartialFrame {
    public var opcode: Opcode
    /// RSV1: the first frame of a compressed message (its bytes are not the message's).
    public var compressed: Bool
    public var serial: Int
    public var received: ArraySlice<UInt8>
  }

  public var partialFrame: PartialFrame? {
    guard case .payload(let header) = state, header.maskingKey == nil else { return nil }
    let compressed = header.rsv & 0b100 != 0
    if let large {
      return PartialFrame(
        opcode: header.opcode, compressed: compressed, serial: frameSerial, received: large[...])
    }
    let end = min(buffer.count, readIndex + header.length)
    return PartialFrame(
      opcode: header.opcode, compressed: compressed, serial: frameSerial, received: buffer[readIndex..<end])
  }

  public mutating func append(_ bytes: some Collection<UInt8>) {
    if bytes.withContiguousStorageIfAvailable({ append(UnsafeRawBufferPointer($0)) }) == nil {
      Array(bytes).withUnsafeBytes { append($0) }
    }
  }

  public mutating func append(_ bytes: UnsafeRawBufferPointer) {
    var bytes = bytes
    if var payload = large, case .payload(let header) = state {
      // The rest of a large frame's payload goes straight to it; what follows, to `buffer`.
      let take = min(header.length - payload.count, bytes.count)
      large = nil  // keep `payload` uniquely referenced while it grows
      payload.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[0..<take]))
      large = payload
      bytes = UnsafeRawBufferPointer(rebasing: bytes[take...])
      if bytes.isEmpty { return }
    }
    compactIfWorthwhile()
    buffer.append(contentsOf: bytes)
  }

  /// The next complete frame, or nil when more bytes are needed.
  public mutating func next() throws(FrameError) -> Frame? {
    // `inPlace: false` never calls `text`.
    switch try next(inPlace: false, text: { _, _, _ in () }) {
    case .frame(let frame): frame
    case .text, nil: nil
    }
  }

  /// What `next(inPlace:text:)` found: a frame, or what `text` made of a final frame's payload.
  enum Item<Text> {
    case frame(Frame)
    case text(Text)
  }

  /// `next()`, except that with `inPlace` a final, unmasked text frame whose payload is in the buffer (every
  /// frame but those collected apart, see `largeFrameThreshold`) is handed to `text` as the bytes
  /// where they lie instead of being copied into a `Frame`: the frame is consumed, and what
  /// `text` returns is the item. `MessageAssembler.next(from:)` makes a message's `String`
  /// straight from the buffer this way.
  ///
  /// The first frame of a compressed message (RSV1), when final, is handed over the same way:
  /// `text` gets its opcode and whether it is compressed too.
  mutating func next<Text>(inPlace: Bool, text: (UnsafeRawBufferPointer, Opcode, Bool) -> Text)
    throws(FrameError)
    -> Item<
      Text
    >?
  {
    while true {
      switch state {
      case .failed(let error):
        throw error
      case .header:
        let parsed: Header?
        do throws(FrameError) {
          parsed = try parseHeader()
        } catch {
          state = .failed(error)
          throw error
        }
        guard let header = parsed else { return nil }
        state = .payload(header)
        if header.length >= Self.largeFrameThreshold && buffer.count - readIndex < header.length {
          // Everything buffered belongs to this payload: move it to an array of the exact size.
          var payload: [UInt8] = []
          payload.reserveCapacity(header.length)
          payload.append(contentsOf: buffer[readIndex...])
          large = payload
          buffer = []
          readIndex = 0
        }
      case .payload(let header):
        if var payload = large {
          guard payload.count == header.length else { return nil }
          large = nil
          if let key = header.maskingKey { Self.unmask(&payload, key: key) }
          state = .header
          return .frame(Frame(fin: header.fin, rsv: header.rsv, opcode: header.opcode, payload: payload))
        }
        guard bufferedByteCount >= header.length else { return nil }
        let start = readIndex
        if inPlace, header.fin, header.maskingKey == nil,
          header.rsv == 0 ? header.opcode == .text : header.opcode != .continuation
        {
          let made = buffer.withUnsafeBytes {
            text(
              UnsafeRawBufferPointer(rebasing: $0[start..<start + header.length]), header.opcode,
              header.rsv != 0)
          }
          consumePayload(header.length)
          return .text(made)
        }
        var payload = Array(buffer[start..<start + header.length])
        if let key = header.maskingKey { Self.unmask(&payload, key: key) }
        consumePayload(header.length)
        return .frame(Frame(fin: header.fin, rsv: header.rsv, opcode: header.opcode, payload: payload))
      }
    }
  }

  /// Consumes a payload of `length` bytes at `readIndex` from the buffer: the next frame's header
  /// comes next.
  private mutating func consumePayload(_ length: Int) {
    readIndex += length
    state = .header
    if readIndex == buffer.count {
      // Keep a small buffer's capacity for the next frames; give a large one back.
      buffer.removeAll(keepingCapacity: buffer.capacity <= Self.largeFrameThreshold)
      readIndex = 0
    }
  }

  /// Parses and validates a header at `readIndex`, consuming it; nil when incomplete.
  private mutating func parseHeader() throws(FrameError) -> Header? {
    let available = bufferedByteCount
    guard available >= 2 else { return nil }
    let b0 = buffer[readIndex]
    let b1 = buffer[readIndex + 1]
    let fin = b0 & 0x80 != 0
    let rsv = (b0 >> 4) & 0x7
    // RSV1 alone, on the first frame of a compressed message, is the one use an extension gave.
    if rsv != 0 {
      let code = b0 & 0x0F
      guard allowsCompression, rsv == 0b100, code == Opcode.text.rawValue || code == Opcode.binary.rawValue
      else {
        throw .reservedBitsSet(rsv)
      }
    }
    guard let opcode = Opcode(rawValue: b0 & 0x0F) else { throw .unknownOpcode(b0 & 0x0F) }
    let masked = b1 & 0x80 != 0
    let length7 = b1 & 0x7F
    if opcode.isControl {
      guard fin else { throw .fragmentedControlFrame }
      guard length7 <= 125 else { throw .controlFrameTooLarge(UInt64(length7)) }
    }
    switch role {
    case .client where masked: throw .maskedFrameFromServer
    case .server where !masked: throw .unmaskedFrameFromClient
    default: break
    }
    let extendedCount = length7 == 126 ? 2 : (length7 == 127 ? 8 : 0)
    let headerSize = 2 + extendedCount + (masked ? 4 : 0)
    var length = UInt64(length7)
    if extendedCount > 0 {
      guard available >= 2 + extendedCount else { return nil }
      length = 0
      for i in 0..<extendedCount { length = length << 8 | UInt64(buffer[readIndex + 2 + i]) }
      if extendedCount == 8 && length >> 63 != 0 { throw .invalidLength }
      // RFC 6455 §5.2: the minimal number of bytes must be used to encode the length.
      if extendedCount == 2 && length < 126 { throw .invalidLength }
      if extendedCount == 8 && length <= 0xFFFF { throw .invalidLength }
    }
    guard length <= UInt64(maximumFrameSize) else { throw .messageTooLarge(length) }
    guard available >= headerSize else { return nil }
    var key: UInt32? = nil
    if masked {
      let k = readIndex + 2 + extendedCount
      key = buffer[k..<k + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }
    readIndex += headerSize
    frameSerial &+= 1
    return Header(fin: fin, rsv: rsv, opcode: opcode, length: Int(length), maskingKey: key)
  }

  /// XORs `payload` with the 4-byte masking key (RFC 6455 §5.3); applying it twice restores it.
  static func unmask(_ payload: inout [UInt8], key: UInt32) {
    let k = (UInt8(key >> 24), UInt8((key >> 16) & 0xFF), UInt8((key >> 8) & 0xFF), UInt8(key & 0xFF))
    payload.withUnsafeMutableBufferPointer { buf in
      var i = 0
      while i + 4 <= buf.count {
        buf[i] ^= k.0
        buf[i + 1] ^= k.1
        buf[i + 2] ^= k.2
        buf[i + 3] ^= k.3
        i += 4
      }
      if i < buf.count { buf[i] ^= k.0 }
      if i + 1 < buf.count { buf[i + 1] ^= k.1 }
      if i + 2 < buf.count { buf[i + 2] ^= k.2 }
    }
  }

  /// Drops consumed bytes once they are at least half the buffer (and more than 4 KiB), so the
  /// cost is amortised instead of paid per frame.
  private mutating func compactIfWorthwhile() {
    guard readIndex > 0 else { return }
    if readIndex == buffer.count {
      buffer.removeAll(keepingCapacity: true)
      readIndex = 0
    } else if readIndex >= 4096 && readIndex * 2 >= buffer.count {
      buffer.removeSubrange(0..<readIndex)
      readIndex = 0
    }
  }
}
