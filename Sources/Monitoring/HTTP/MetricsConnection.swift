import Transport

/// One connection of the metrics endpoint as its event loop keeps it: the head being read, then
/// the response being written, and the one deadline of the phase it is in. Confined to the loop's
/// thread.
struct MetricsConnection {
  let stream: TCPStream
  var reader: RequestHeadReader
  /// The response once the head is read (or refused): the bytes from `written` on are still to go.
  var out: [UInt8]?
  var written = 0
  /// The head's deadline while reading, the response's once writing.
  var deadline: ContinuousClock.Instant
  /// Bytes read from the client so far (never more than the head limit and one).
  var read = 0

  init(stream: TCPStream, maximumHeadSize: Int, deadline: ContinuousClock.Instant) {
    self.stream = stream
    self.reader = RequestHeadReader(maximumSize: maximumHeadSize)
    self.deadline = deadline
  }

  var isWriting: Bool { out != nil }
}
