import FeedRuntime
import TickerSupport
import Venues

/// The stdout output: formats quotes and writes one line each, counting them for `--count`.
/// Lines go out in writes of about `writeSize` bytes, and nothing is held back once `write`
/// returns. Used from one task at a time: the output's consumer (`write`), or the feed's
/// publisher while that consumer waits (`writeDirectly`, see `StdoutOutput`).
public final class QuoteWriter: @unchecked Sendable {
  // `@unchecked`: one task at a time touches it, the consumer or (while the consumer is parked,
  // under its queue's lock, which orders the two) the publisher; see `QuoteBus.subscribe`.
  private var formatter: any QuoteFormatter
  private let writer: FileDescriptorWriter
  private let limit: Int?
  /// Lines formatted (written, or in `unwritten` for the consumer to write next).
  public private(set) var written = 0
  private var buffer: [UInt8] = []
  /// Bytes `writeDirectly` formatted but the descriptor did not take without waiting: the
  /// consumer writes them before anything else.
  private var unwritten: [UInt8] = []
  /// Why `writeDirectly` must stop the output (a failed write); the consumer throws it.
  private var failure: StopReason?
  /// Whether the descriptor can be written without waiting (false once it said it cannot).
  private var writesWithoutWaiting = true

  /// The largest batch `writeDirectly` takes: a live feed's (one or a few quotes a message). A
  /// firehose's large batches go through the consumer, which formats and writes them while the
  /// feed decodes the next.
  public static let directLimit = 64

  /// Lines are written once this many bytes are waiting (and at the end of each call).
  public static let writeSize = 64 << 10

  /// Quotes formatted in one call between checks of `writeSize`: the formatter reads a batch's
  /// quotes in place (one at a time, each would be copied for the call).
  static let formatChunk = 32

  public init(formatter: any QuoteFormatter, writer: FileDescriptorWriter, limit: Int?) {
    self.formatter = formatter
    self.writer = writer
    self.limit = limit
  }

  /// Writes the format's header line, if it has one (before any quote).
  public func begin() throws(StopReason) {
    guard let header = formatter.header else { return }
    buffer.removeAll(keepingCapacity: true)
    buffer.append(contentsOf: header)
    try flush()
  }

  /// Writes each quote as a line (at most up to the limit); throws the reason to stop, if any.
  /// First whatever `writeDirectly` left (which an empty batch asks for alone).
  public func write(_ quotes: [Quote]) throws(StopReason) {
    if let failure { throw failure }
    if !unwritten.isEmpty { try flush(&unwritten) }
    if let limit, written >= limit { throw .countReached }
    let take = limit.map { min(quotes.count, $0 - written) } ?? quotes.count
    try withLocals { (lines, format) throws(StopReason) in
      var pending = 0
      var start = 0
      while start < take {
        let end = min(take, start + Self.formatChunk)
        format.append(contentsOf: quotes[start..<end], to: &lines)
        pending += end - start
        start = end
        if lines.count >= Self.writeSize {
          try flush(&lines)
          written += pending
          pending = 0
        }
      }
      try flush(&lines)
      written += pending
    }
    if let limit, written >= limit { throw .countReached }
  }

  /// Runs `body` on the buffer (emptied) and the formatter as locals, moved out of the object
  /// and back: stored properties of a class cost a dynamic exclusivity check on every access,
  /// two per quote. The stand-in leaves the formatter's existential box uniquely referenced, so
  /// mutating it copies nothing.
  @inline(__always)
  private func withLocals<E: Error>(
    _ body: (inout [UInt8], inout any QuoteFormatter) throws(E) -> Void
  ) throws(E) {
    var lines = buffer
    buffer = []
    lines.removeAll(keepingCapacity: true)
    var format = formatter
    formatter = PriceOnlyFormatter()
    defer {
      formatter = format
      lines.removeAll(keepingCapacity: true)
      buffer = lines
    }
    try body(&lines, &format)
  }

  /// Formats `quotes` and writes the lines if the descriptor takes them without waiting; what
  /// it does not take stays for `write` (which the answer `.unfinished` asks for), as does a
  /// failure, or the `--count` limit reached. Declines a large batch, one while something is
  /// left for `write`, and every batch once the descriptor turned out unable to write without
  /// waiting (a terminal, a regular file), untouched.
  public func writeDirectly(_ quotes: [Quote]) -> QuoteBus.DirectDelivery {
    guard writesWithoutWaiting, quotes.count <= Self.directLimit, unwritten.isEmpty, failure == nil
    else { return .declined }
    if let limit, written >= limit { return .declined }
    let take = limit.map { min(quotes.count, $0 - written) } ?? quotes.count
    withLocals { (lines, format) in
      format.append(contentsOf: quotes[..<take], to: &lines)
      written += take
      var offset = 0
      attempts: while offset < lines.count {
        let attempt = lines.withUnsafeBytes {
          writer.writeWithoutWaiting(UnsafeRawBufferPointer(rebasing: $0[offset...]))
        }
        switch attempt {
        case .wrote(let n) where n > 0: offset += n
        case .wrote, .wouldBlock: break attempts
        case .unsupported:
          writesWithoutWaiting = false
          break attempts
        case .failed(.readerGone):
          failure = .readerGone
          offset = lines.count
        case .failed(.failed(let e)):
          failure = .writeFailed(e)
          offset = lines.count
        }
      }
      if offset < lines.count { unwritten.append(contentsOf: lines[offset...]) }
    }
    let done = unwritten.isEmpty && failure == nil && limit.map { written < $0 } ?? true
    return done ? .delivered : .unfinished
  }

  private func flush() throws(StopReason) { try flush(&buffer) }

  private func flush(_ lines: inout [UInt8]) throws(StopReason) {
    guard !lines.isEmpty else { return }
    do {
      try writer.write(lines)
    } catch {
      switch error {
      case .readerGone: throw .readerGone
      case .failed(let e): throw .writeFailed(e)
      }
    }
    lines.removeAll(keepingCapacity: true)
  }
}
