/// A violation of RFC 6455 found in bytes from the peer. Each maps to the close code we send.
public enum FrameError: Error, Sendable, Equatable {
  /// A server frame had the MASK bit set (servers must not mask).
  case maskedFrameFromServer
  /// A client frame was not masked (for the server side).
  case unmaskedFrameFromClient
  /// RSV1–3 set without a negotiated extension; the bits (0b0rrr).
  case reservedBitsSet(UInt8)
  /// An opcode RFC 6455 reserves.
  case unknownOpcode(UInt8)
  /// A control frame with FIN clear.
  case fragmentedControlFrame
  /// A control frame whose payload is over 125 bytes; the length.
  case controlFrameTooLarge(UInt64)
  /// A 64-bit length with the most significant bit set, or a non-minimal length encoding.
  case invalidLength
  /// A continuation frame with no message in progress.
  case unexpectedContinuation
  /// A new data frame while a fragmented message was still open.
  case expectedContinuation
  /// A message (or a single frame) larger than the limit; the size seen so far.
  case messageTooLarge(UInt64)
  /// A text message, or a close reason, that is not valid UTF-8.
  case invalidUTF8
  /// A close frame with a 1-byte payload.
  case invalidClosePayload
  /// A close frame with a code that may not be sent on the wire.
  case invalidCloseCode(UInt16)
  /// A compressed message (permessage-deflate) that is not valid DEFLATE data.
  case invalidCompressedData

  /// The close code to send when closing because of this error.
  public var closeCode: CloseCode {
    switch self {
    case .invalidUTF8, .invalidCompressedData: .invalidFramePayloadData
    case .messageTooLarge: .messageTooBig
    default: .protocolError
    }
  }
}
