/// Whether the native engine offers permessage-deflate (RFC 7692) in its handshake.
public enum CompressionChoice: String, Sendable, CaseIterable {
  /// Offer it; the server decides (most compress JSON several times smaller).
  case on
  /// Never offer it: every frame is uncompressed, whatever the server supports.
  case off
}
