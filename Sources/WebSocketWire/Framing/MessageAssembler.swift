/// Turns frames into events: reassembles fragmented data messages (control frames may arrive
/// between fragments), validates UTF-8, enforces the message size limit, and decodes close frames.
/// After an error the assembler should be discarded (the connection is closing).
///
/// Text is validated as it arrives: each fragment when it comes (`receive`), and the payload of a
/// frame still arriving as its bytes come (`inspect`), so invalid UTF-8 fails the connection at the
/// first offending byte rather than when the message completes (RFC 6455 §8.1).
///
/// With permessage-deflate agreed (`inflation`), a message whose first frame has RSV1 set is
/// inflated frame by frame as it arrives (RFC 7692 §7.2.2): the size limit and the UTF-8 check
/// apply to the inflated bytes, and inflating stops at the first byte past the limit, so a small
/// frame that would expand without bound is refused (1009) before its output is held.
///
/// Not `Sendable`: a reader owns it (its inflater is zlib's state).
public struct MessageAssembler {
  public enum Event: Sendable, Equatable {
    case message(WebSocketMessage)
    case ping([UInt8])
    case pong([UInt8])
    /// The peer's close frame; nil when it carried no status code.
    case close(CloseStatus?)
  }

  public let maximumMessageSize: Int
  /// How the peer compresses, when permessage-deflate was agreed.
  public let inflation: PerMessageDeflate?
  /// `inflation != nil`, kept apart: the per-message path does not touch the agreement's text.
  private let compressionAgreed: Bool
  /// Made for the first compressed message.
  private var inflater: Inflater?
  /// The opcode (text/binary) of the fragmented message in progress, if any.
  private var openOpcode: Opcode?
  /// The fragmented message in progress is compressed: `fragments` holds its inflated bytes.
  private var openCompressed = false
  private var fragments: [UInt8] = []
  /// The UTF-8 state of the fragmented text message in progress (after its last whole fragment).
  private var textValidator = UTF8Validator()
  /// The frame whose partial payload `inspect` has checked: its serial, how many of its bytes,
  /// and the validator state after them.
  private var partialSerial = -1
  private var partialChecked = 0
  private var partialValidator = UTF8Validator()

  public init(maximumMessageSize: Int, inflation: PerMessageDeflate? = nil) {
    self.maximumMessageSize = max(0, maximumMessageSize)
    self.inflation = inflation
    compressionAgreed = inflation != nil
  }

  /// Whether a fragmented message is in progress.
  public var isAssembling: Bool { openOpcode != nil }

  /// Feeds one frame; returns an event, or nil when the frame was a non-final fragment.
  public mutating func receive(_ frame: Frame) throws(FrameError) -> Event? {
    switch frame.opcode {
    case .ping:
      return .ping(frame.payload)
    case .pong:
      return .pong(frame.payload)
    case .close:
      return .close(try Self.decodeClose(frame.payload))
    case .text, .binary:
      guard openOpcode == nil else { throw .expectedContinuation }
      guard frame.payload.count <= maximumMessageSize else {
        throw .messageTooLarge(UInt64(frame.payload.count))
      }
      if frame.rsv != 0 { return try beginCompressed(frame) }
      if frame.fin { return .message(try Self.message(frame.opcode, frame.payload)) }
      if frame.opcode == .text {
        textValidator = UTF8Validator()
        guard textValidator.feed(frame.payload) else { throw .invalidUTF8 }
      }
      openOpcode = frame.opcode
      fragments = frame.payload
      return nil
    case .continuation:
      guard let opcode = openOpcode else { throw .unexpectedContinuation }
      guard frame.rsv == 0 else { throw .reservedBitsSet(frame.rsv) }
      if openCompressed { return try continueCompressed(frame, opcode: opcode) }
      let total = fragments.count + frame.payload.count
      guard total <= maximumMessageSize else { throw .messageTooLarge(UInt64(total)) }
      if opcode == .text {
        guard textValidator.feed(frame.payload), !frame.fin || textValidator.isComplete else {
          throw .invalidUTF8
        }
      }
      fragments.append(contentsOf: frame.payload)
      guard frame.fin else { return nil }
      var payload: [UInt8] = []
      swap(&payload, &fragments)
      openOpcode = nil
      // Every fragment was validated on arrival.
      return .message(opcode == .text ? .text(String(decoding: payload, as: UTF8.self)) : .binary(payload))
    }
  }

  /// The first frame of a compressed message: inflated, and the message is done if it is final.
  private mutating func beginCompressed(_ frame: Frame) throws(FrameError) -> Event? {
    guard frame.rsv == 0b100, let inflater = makeInflater() else { throw .reservedBitsSet(frame.rsv) }
    if frame.fin {
      let message = try inflater.wholeMessage(frame.payload, opcode: frame.opcode, limit: maximumMessageSize)
      endCompressedMessage()
      return .message(message)
    }
    var inflated: [UInt8] = []
    try inflater.inflate(frame.payload, into: &inflated, limit: maximumMessageSize)
    if frame.opcode == .text {
      textValidator = UTF8Validator()
      guard textValidator.feed(inflated) else { throw .invalidUTF8 }
    }
    openOpcode = frame.opcode
    openCompressed = true
    fragments = inflated
    return nil
  }

  /// A continuation of a compressed message: its payload inflated onto the message so far.
  private mutating func continueCompressed(_ frame: Frame, opcode: Opcode) throws(FrameError) -> Event? {
    guard let inflater = makeInflater() else { throw .reservedBitsSet(0b100) }
    let before = fragments.count
    try inflater.inflate(frame.payload, into: &fragments, limit: maximumMessageSize)
    if frame.fin { try inflater.finishMessage(into: &fragments, limit: maximumMessageSize) }
    if opcode == .text {
      guard textValidator.feed(fragments[before...]), !frame.fin || textValidator.isComplete else {
        throw .invalidUTF8
      }
    }
    guard frame.fin else { return nil }
    endCompressedMessage()
    var payload: [UInt8] = []
    swap(&payload, &fragments)
    openOpcode = nil
    openCompressed = false
    return .message(opcode == .text ? .text(String(decoding: payload, as: UTF8.self)) : .binary(payload))
  }

  /// The inflater, made on first use; nil when permessage-deflate was not agreed.
  private mutating func makeInflater() -> Inflater? {
    if let inflater { return inflater }
    guard let inflation else { return nil }
    let made = Inflater(
      windowBits: inflation.inboundWindowBits, resetsAfterEachMessage: inflation.inboundNoContextTakeover)
    inflater = made
    return made
  }

  /// A compressed message is complete: without context takeover the next starts afresh.
  private func endCompressedMessage() {
    if let inflater, inflater.resetsAfterEachMessage { inflater.reset() }
  }

  /// The next event from the frames buffered in `parser`, or nil when it needs more bytes: the
  /// same events and errors, in the same order, as `parser.next()` followed by `receive(_:)` for
  /// each frame until one gives an event. A text message in one frame (the common case) becomes
  /// its `String` straight from the parser's buffer, without a payload array in between.
  public mutating func next(from parser: inout FrameParser) throws(FrameError) -> Event? {
    while true {
      // The closure captures values, not `self` (a copy of the assembler, fragments and all).
      let assembling = openOpcode != nil
      let limit = maximumMessageSize
      let item: FrameParser.Item<Result<WebSocketMessage, FrameError>>?
      if compressionAgreed, let inflater = makeInflater() {
        item = try parser.next(inPlace: true) { payload, opcode, compressed in
          compressed
            ? Self.wholeCompressed(
              payload, opcode: opcode, assembling: assembling, limit: limit, inflater: inflater)
            : Self.wholeText(payload, assembling: assembling, limit: limit)
        }
      } else {
        // Without the extension the closure captures no inflater (nothing to retain per message).
        item = try parser.next(inPlace: true) { payload, _, compressed in
          compressed
            ? .failure(.reservedBitsSet(0b100))
            : Self.wholeText(payload, assembling: assembling, limit: limit)
        }
      }
      switch item {
      case nil: return nil
      case .text(let message): return .message(try message.get())
      case .frame(let frame): if let event = try receive(frame) { return event }
      }
    }
  }

  /// What `receive(_:)` makes of a final, compressed data frame with this payload: `beginCompressed`
  /// without a payload array.
  private static func wholeCompressed(
    _ payload: UnsafeRawBufferPointer, opcode: Opcode, assembling: Bool, limit: Int, inflater: Inflater
  ) -> Result<WebSocketMessage, FrameError> {
    guard !assembling else { return .failure(.expectedContinuation) }
    return Result { () throws(FrameError) -> WebSocketMessage in
      let message = try inflater.wholeMessage(payload, opcode: opcode, limit: limit)
      if inflater.resetsAfterEachMessage { inflater.reset() }
      return message
    }
  }

  /// What `receive(_:)` makes of a final text frame with this payload, `assembling` a fragmented
  /// message or not, with `limit` the maximum message size.
  private static func wholeText(
    _ payload: UnsafeRawBufferPointer, assembling: Bool, limit: Int
  ) -> Result<WebSocketMessage, FrameError> {
    guard !assembling else { return .failure(.expectedContinuation) }
    guard payload.count <= limit else {
      return .failure(.messageTooLarge(UInt64(payload.count)))
    }
    if Self.isASCII(payload) { return .success(.text(String(decoding: payload, as: UTF8.self))) }
    guard let text = String(validating: payload, as: UTF8.self) else { return .failure(.invalidUTF8) }
    return .success(.text(text))
  }

  /// Checks the payload received so far of a frame that is still arriving: if it belongs to a
  /// text message, its new bytes are validated now. Call whenever the parser needs more bytes.
  public mutating func inspect(_ partial: FrameParser.PartialFrame?) throws(FrameError) {
    guard let partial else { return }
    let isText =
      switch partial.opcode {
      // A compressed message's text is checked once inflated (`receive`).
      case .text: openOpcode == nil && !partial.compressed
      case .continuation: openOpcode == .text && !openCompressed
      default: false
      }
    guard isText else { return }
    if partial.serial != partialSerial {
      partialSerial = partial.serial
      partialChecked = 0
      partialValidator = partial.opcode == .text ? UTF8Validator() : textValidator
    }
    guard partial.received.count > partialChecked else { return }
    let fresh = partial.received.dropFirst(partialChecked)
    partialChecked = partial.received.count
    guard partialValidator.feed(fresh) else { throw .invalidUTF8 }
  }

  static func message(_ opcode: Opcode, _ payload: [UInt8]) throws(FrameError) -> WebSocketMessage {
    guard opcode == .text else { return .binary(payload) }
    // Market data is nearly always ASCII: a word-at-a-time check, then a plain copy. Anything
    // else gets full UTF-8 validation.
    if isASCII(payload) { return .text(String(decoding: payload, as: UTF8.self)) }
    guard let text = String(validating: payload, as: UTF8.self) else { throw .invalidUTF8 }
    return .text(text)
  }

  /// `message(_:_:)` for bytes where they lie.
  static func message(_ opcode: Opcode, _ payload: UnsafeRawBufferPointer) throws(FrameError)
    -> WebSocketMessage
  {
    guard opcode == .text else { return .binary(Array(payload)) }
    if isASCII(payload) { return .text(String(decoding: payload, as: UTF8.self)) }
    guard let text = String(validating: payload, as: UTF8.self) else { throw .invalidUTF8 }
    return .text(text)
  }

  /// Whether every byte is below 0x80, eight bytes at a time.
  static func isASCII(_ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBytes { isASCII($0) }
  }

  /// Thirty-two bytes a step; the last 1–7 bytes after a word as one overlapping word.
  static func isASCII(_ raw: UnsafeRawBufferPointer) -> Bool {
    let n = raw.count
    guard n >= 8 else {
      for byte in raw where byte & 0x80 != 0 { return false }
      return true
    }
    var any: UInt64 = 0
    var i = 0
    while i + 32 <= n {
      any |=
        raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
        | raw.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self)
        | raw.loadUnaligned(fromByteOffset: i + 16, as: UInt64.self)
        | raw.loadUnaligned(fromByteOffset: i + 24, as: UInt64.self)
      i += 32
    }
    while i + 8 <= n {
      any |= raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
      i += 8
    }
    if i < n { any |= raw.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self) }
    return any & 0x8080_8080_8080_8080 == 0
  }

  /// Decodes a close payload (RFC 6455 §5.5.1): empty, or a 2-byte code plus a UTF-8 reason.
  static func decodeClose(_ payload: [UInt8]) throws(FrameError) -> CloseStatus? {
    if payload.isEmpty { return nil }
    guard payload.count >= 2 else { throw .invalidClosePayload }
    let code = CloseCode(UInt16(payload[0]) << 8 | UInt16(payload[1]))
    guard code.isValidOnWire else { throw .invalidCloseCode(code.rawValue) }
    guard let reason = String(validating: payload[2...], as: UTF8.self) else { throw .invalidUTF8 }
    return CloseStatus(code: code, reason: reason)
  }
}
