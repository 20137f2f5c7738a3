/// Reads a NATS server's byte stream into `NATSServerMessage`s. Pure: fed bytes, no socket.
///
/// Every server operation a publisher receives is one line (`INFO {…}`, `PING`, `PONG`, `+OK`,
/// `-ERR '…'`) ending in CRLF (a bare LF is accepted too); operation names are case-insensitive.
/// A line longer than `maximumLineLength` is an error as soon as that many bytes came without a
/// newline, so a server that sends one endless line costs at most that much memory (plus one
/// `append`), never more.
///
/// A subscriber's parser (`maximumPayload` set) also reads `MSG <subject> <sid> [reply-to] <size>`
/// and the `size` bytes of payload after it; a size over `maximumPayload` is an error at once,
/// before any of it is held.
public struct NATSServerParser: Sendable {
  public let maximumLineLength: Int
  /// The largest `MSG` payload taken; nil: `MSG` is an error (a publisher never subscribes).
  public let maximumPayload: Int?
  /// A `MSG` line read, its payload not yet whole.
  private var pending: (subject: String, sid: String, size: Int)?
  private var buffer: [UInt8] = []
  /// Where unread bytes start in `buffer`.
  private var start = 0
  /// Bytes from `start` already known to hold no newline.
  private var scanned = 0

  /// 64 KiB: a real server's INFO is a few hundred bytes (a few KiB in a large cluster).
  public static let defaultMaximumLineLength = 64 << 10

  public init(maximumLineLength: Int = NATSServerParser.defaultMaximumLineLength, maximumPayload: Int? = nil)
  {
    self.maximumLineLength = max(16, maximumLineLength)
    self.maximumPayload = maximumPayload.map { max(0, $0) }
  }

  /// Bytes held, waiting for the rest of their line.
  public var bufferedCount: Int { buffer.count - start }

  /// Adds bytes from the server; call `next()` until it returns nil after each append.
  public mutating func append(_ bytes: some Sequence<UInt8>) {
    if start > 0 && start >= buffer.count / 2 {
      buffer.removeSubrange(0..<start)
      start = 0
    }
    buffer.append(contentsOf: bytes)
  }

  /// The next complete message, or nil when more bytes are needed.
  public mutating func next() throws(NATSProtocolError) -> NATSServerMessage? {
    while true {
      if let header = pending {
        guard let delivery = try payload(of: header) else { return nil }
        return .message(delivery)
      }
      let from = start + scanned
      guard let newline = buffer[from...].firstIndex(of: 0x0A) else {
        scanned = buffer.count - start
        if scanned > maximumLineLength { throw .lineTooLong(limit: maximumLineLength) }
        return nil
      }
      var end = newline
      if end > start && buffer[end - 1] == 0x0D { end -= 1 }
      let line = buffer[start..<end]
      let length = newline - start
      start = newline + 1
      scanned = 0
      if length > maximumLineLength { throw .lineTooLong(limit: maximumLineLength) }
      if line.isEmpty { continue }  // tolerated, as servers tolerate empty lines
      if let limit = maximumPayload, Self.isMessageHeader(line) {
        pending = try Self.messageHeader(line, maximumPayload: limit)
        continue
      }
      return try Self.message(line)
    }
  }

  /// The pending message once its payload and line ending are here.
  private mutating func payload(of header: (subject: String, sid: String, size: Int))
    throws(NATSProtocolError) -> NATSDelivery?
  {
    let end = start + header.size
    guard buffer.count > end else { return nil }
    let ending: Int
    switch buffer[end] {
    case 0x0A: ending = 1
    case 0x0D:
      guard buffer.count > end + 1 else { return nil }
      guard buffer[end + 1] == 0x0A else { throw .badMessage("the payload is not followed by CRLF") }
      ending = 2
    default: throw .badMessage("the payload is longer than its size")
    }
    let delivery = NATSDelivery(subject: header.subject, sid: header.sid, payload: Array(buffer[start..<end]))
    start = end + ending
    pending = nil
    return delivery
  }

  static func isMessageHeader(_ line: ArraySlice<UInt8>) -> Bool {
    guard line.count > 4 else { return false }
    let i = line.startIndex
    return line[i] | 0x20 == UInt8(ascii: "m") && line[i + 1] | 0x20 == UInt8(ascii: "s")
      && line[i + 2] | 0x20 == UInt8(ascii: "g") && (line[i + 3] == 0x20 || line[i + 3] == 0x09)
  }

  /// `MSG <subject> <sid> [reply-to] <size>`.
  static func messageHeader(_ line: ArraySlice<UInt8>, maximumPayload: Int) throws(NATSProtocolError)
    -> (subject: String, sid: String, size: Int)
  {
    let fields = line.split(whereSeparator: { $0 == 0x20 || $0 == 0x09 }).dropFirst()
    guard fields.count == 3 || fields.count == 4, let sizeField = fields.last else {
      throw .badMessage("MSG has \(fields.count) fields, not 3 or 4")
    }
    guard sizeField.count <= 18, sizeField.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
      let size = Int(String(decoding: sizeField, as: UTF8.self))
    else { throw .badMessage("MSG's size is not a number") }
    guard size <= maximumPayload else { throw .payloadTooLarge(size: size, limit: maximumPayload) }
    let subject = fields[fields.startIndex]
    let sid = fields[fields.startIndex + 1]
    return (String(decoding: subject, as: UTF8.self), String(decoding: sid, as: UTF8.self), size)
  }

  /// One line, without its line ending.
  static func message(_ line: ArraySlice<UInt8>) throws(NATSProtocolError) -> NATSServerMessage {
    let opEnd = line.firstIndex(where: { $0 == 0x20 || $0 == 0x09 }) ?? line.endIndex
    let op = String(decoding: line[line.startIndex..<opEnd].prefix(16), as: UTF8.self).uppercased()
    var rest = line[opEnd...]
    while let first = rest.first, first == 0x20 || first == 0x09 { rest = rest.dropFirst() }
    switch op {
    case "PING" where rest.isEmpty: return .ping
    case "PONG" where rest.isEmpty: return .pong
    case "+OK" where rest.isEmpty: return .ok
    case "INFO": return .info(try NATSServerInfo(json: rest))
    case "-ERR":
      var text = rest
      if text.first == UInt8(ascii: "'") { text = text.dropFirst() }
      if text.last == UInt8(ascii: "'") { text = text.dropLast() }
      return .error(NATSServerError(text: String(decoding: text.prefix(256), as: UTF8.self)))
    case "MSG", "HMSG": throw .unexpectedMessage(op)
    default: throw .unknownOperation(op)
    }
  }
}
