/// Why the HTTP upgrade to WebSocket failed.
public enum HandshakeError: Error, Sendable, Equatable {
  /// The server answered with a status other than 101; code, reason phrase, and `Retry-After`
  /// in seconds when the server sent one.
  case unexpectedStatus(code: Int, reason: String, retryAfter: Int?)
  /// The response was not parseable HTTP/1.1.
  case malformedResponse(String)
  /// The response header block exceeded the size limit.
  case responseTooLarge
  /// `Upgrade: websocket` missing or different.
  case missingUpgradeHeader
  /// `Connection: Upgrade` missing or different.
  case missingConnectionHeader
  /// `Sec-WebSocket-Accept` missing or not the hash of our key.
  case invalidAcceptKey
  /// The server selected an extension or subprotocol we did not offer.
  case unexpectedExtension(String)
  /// The server's answer to our permessage-deflate offer is not a valid acceptance of it (RFC 7692
  /// §5: an unknown or repeated parameter, a bad window size, …); what is wrong.
  case invalidExtension(String)
}
