import TickerSupport

/// The client side of the WebSocket opening handshake (RFC 6455 §4.1), as pure functions.
public enum Handshake {
  /// The GUID appended to the key before hashing (RFC 6455 §1.3).
  static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
  /// The default limit for a response head, in bytes.
  public static let maximumHeadSize = 16 * 1024

  /// A parsed response head.
  public struct Response: Sendable, Equatable {
    public var status: Int
    public var reason: String
    /// The minor version of `HTTP/1.x`.
    public var version: Int
    public var head: HTTPHead
  }

  /// A fresh `Sec-WebSocket-Key`: base64 of 16 random bytes.
  public static func makeKey(using random: inout some RandomNumberGenerator) -> String {
    var bytes: [UInt8] = []
    for _ in 0..<2 {
      let word = random.next()
      for shift in stride(from: 56, through: 0, by: -8) {
        bytes.append(UInt8((word >> UInt64(shift)) & 0xFF))
      }
    }
    return Base64.encode(bytes)
  }

  /// The upgrade request. No `Origin` header (some servers rate-limit requests that carry one).
  /// With `offerDeflate`, it offers permessage-deflate (`PerMessageDeflate.clientOffer`).
  public static func request(
    for url: WebSocketURL, key: String, headers: [(name: String, value: String)], offerDeflate: Bool = false
  ) -> [UInt8] {
    var text = "GET \(url.target) HTTP/1.1\r\n"
    text += "Host: \(url.hostHeader)\r\n"
    text += "Upgrade: websocket\r\n"
    text += "Connection: Upgrade\r\n"
    text += "Sec-WebSocket-Key: \(key)\r\n"
    text += "Sec-WebSocket-Version: 13\r\n"
    if offerDeflate { text += "Sec-WebSocket-Extensions: \(PerMessageDeflate.clientOffer)\r\n" }
    for header in headers {
      // Never let a header inject lines or fields.
      let name = HTTPHead.fieldText(header.name, dropping: ":")
      let value = HTTPHead.fieldText(header.value)
      text += "\(name): \(value)\r\n"
    }
    text += "\r\n"
    return Array(text.utf8)
  }

  /// `Sec-WebSocket-Accept` for `key`: base64(SHA-1(key + GUID)).
  public static func acceptValue(forKey key: String) -> String {
    Base64.encode(SHA1.hash(Array((key + guid).utf8)))
  }

  /// Parses a response head from the bytes received so far, without judging it. Returns nil when
  /// more bytes are needed; `consumed` counts the head including its blank line — bytes after it
  /// are already WebSocket frames.
  public static func parseResponseHead(
    _ bytes: [UInt8], maximumHeadSize: Int = maximumHeadSize
  ) throws(HandshakeError) -> (response: Response, consumed: Int)? {
    switch HTTPHead.scan(bytes, maximumSize: maximumHeadSize) {
    case .needMoreBytes: return nil
    case .tooLarge: throw .responseTooLarge
    case .malformed(let why): throw .malformedResponse(why)
    case .complete(let head, let consumed):
      let parts = HTTPHead.split(head.startLine[...], on: " ", maxSplits: 2)
      guard parts.count >= 2, parts[0].utf8.count == 8, parts[0].utf8.starts(with: "HTTP/1.".utf8),
        let minorByte = parts[0].utf8.last, (0x30...0x39).contains(minorByte),
        parts[1].utf8.count == 3, parts[1].utf8.allSatisfy({ (0x30...0x39).contains($0) }),
        let status = Int(parts[1])
      else {
        throw .malformedResponse("bad status line")
      }
      let reason = parts.count > 2 ? String(parts[2]) : ""
      return (Response(status: status, reason: reason, version: Int(minorByte - 0x30), head: head), consumed)
    }
  }

  /// Checks a parsed response against the key we sent, and what it says to our permessage-deflate
  /// offer (`offeredDeflate`) or to no offer: the agreed compression, or nil for none. `now`
  /// (seconds since the Unix epoch) turns a `Retry-After` date into seconds.
  @discardableResult
  public static func validate(
    _ response: Response, key: String, now: Int64, offeredDeflate: Bool = false
  ) throws(HandshakeError) -> PerMessageDeflate? {
    guard response.status == 101 else {
      let retryAfter = response.head.value(of: "Retry-After").flatMap {
        RetryAfter.seconds(from: $0, now: now)
      }
      throw .unexpectedStatus(code: response.status, reason: response.reason, retryAfter: retryAfter)
    }
    // RFC 6455 §4.1 sends the request as HTTP/1.1; 101 does not exist in HTTP/1.0 (RFC 9110 §15.2.2:
    // a server must not switch protocols for an HTTP/1.0 request), so a 1.0 answer is not an upgrade.
    guard response.version >= 1 else { throw .malformedResponse("HTTP/1.0 cannot switch protocols") }
    let head = response.head
    guard head.value(of: "Upgrade")?.lowercased() == "websocket" else { throw .missingUpgradeHeader }
    guard head.tokens(of: "Connection").contains("upgrade") else { throw .missingConnectionHeader }
    guard head.value(of: "Sec-WebSocket-Accept") == acceptValue(forKey: key) else { throw .invalidAcceptKey }
    if let proto = head.value(of: "Sec-WebSocket-Protocol"), !proto.isEmpty {
      throw .unexpectedExtension(proto)
    }
    return try PerMessageDeflate.clientAgreement(
      to: ExtensionHeader.values(in: head), offered: offeredDeflate)
  }

  /// Parses and validates the response: nil when more bytes are needed, else the head, the
  /// number of bytes it used, and the agreed compression (see `validate`).
  public static func parseResponse(
    _ bytes: [UInt8], key: String, maximumHeadSize: Int = maximumHeadSize,
    now: Int64 = WallClock.epochSeconds(), offeredDeflate: Bool = false
  ) throws(HandshakeError) -> (response: Response, consumed: Int, deflate: PerMessageDeflate?)? {
    guard let parsed = try parseResponseHead(bytes, maximumHeadSize: maximumHeadSize) else { return nil }
    let deflate = try validate(parsed.response, key: key, now: now, offeredDeflate: offeredDeflate)
    return (parsed.response, parsed.consumed, deflate)
  }
}
