/// Reads a NATS server's byte stream into `NATSServerMessage`s. Pure: fed bytes, no socket.
///
/// Every server operation a publisher receives is one line (`INFO {…}`, `PING`, `PONG`, `+OK`,
/// `-ERR '…'`) ending in CRLF (a bare LF is accepted too); operation names are case-insensitive.
/// A line longer than `maximumLineLength` is an error as soon as that many bytes came without a
/// newline, so a server that sends one endless line costs at most that much memory (plus one
/// `append`), never more.
public struct NATSServerParser: Sendable {
  public let maximumLineLength: Int
  private var buffer: [UInt8] = []
  /// Where unread bytes start in `buffer`.
  private var start = 0
  /// Bytes from `start` already known to hold no newline.
  private var scanned = 0

  /// 64 KiB: a real server's INFO is a few hundred bytes (a few KiB in a large cluster).
  public static let defaultMaximumLineLength = 64 << 10

  public init(maximumLineLength: Int = NATSServerParser.defaultMaximumLineLength) {
    self.maximumLineLength = max(16, maximumLineLength)
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
      return try Self.message(line)
    }
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
