/// Gathers a request head from the bytes a connection delivers, within a size limit, and parses it
/// once its blank line has come. Pure: the socket side reads at most `room` bytes at a time, so no
/// connection is ever read past the limit (one byte more tells a head that is too long).
///
/// The end of the head is looked for only in the bytes not yet scanned: a client sending one byte
/// at a time costs one look at each byte, not the whole buffer each time.
struct RequestHeadReader: Sendable {
  let maximumSize: Int
  private(set) var bytes: [UInt8] = []
  /// The bytes before this index hold no head end.
  private var scanned = 0
  /// Whether the request line has ended (a too long head is then 431, not 414).
  private var requestLineEnded = false

  init(maximumSize: Int) {
    self.maximumSize = maximumSize
  }

  /// How many bytes it may still take.
  var room: Int { max(0, maximumSize + 1 - bytes.count) }

  /// Takes the next bytes (past `room`, they are dropped); the request once its head is whole,
  /// nil while more is needed. Bytes after the head are ignored: the connection closes after its
  /// one response.
  mutating func append(_ chunk: some Collection<UInt8>) throws(HTTPRequestError) -> HTTPRequest? {
    bytes.append(contentsOf: chunk.prefix(room))
    while scanned < bytes.count {
      defer { scanned += 1 }
      guard bytes[scanned] == 0x0A else { continue }
      guard scanned > 0, bytes[scanned - 1] == 0x0D else { throw .malformed("a bare LF in the head") }
      requestLineEnded = true
      guard scanned >= 3, bytes[scanned - 2] == 0x0A, bytes[scanned - 3] == 0x0D else { continue }
      guard scanned < maximumSize else { throw .headTooLarge(limit: maximumSize) }
      return try HTTPRequest.parse(bytes[...scanned])
    }
    guard bytes.count <= maximumSize else {
      throw requestLineEnded ? .headTooLarge(limit: maximumSize) : .requestLineTooLong(limit: maximumSize)
    }
    return nil
  }
}
