import PriceFeed

/// The stdout output: formats quotes and writes one line each, counting them for `--count`.
/// Lines go out in writes of at most `writeSize` bytes, and nothing is held back once `write`
/// returns. Used from one task at a time (the output's consumer).
public final class QuoteWriter: @unchecked Sendable {
  // `@unchecked`: only the one consumer task of its output touches it.
  private var formatter: any QuoteFormatter
  private let writer: FileDescriptorWriter
  private let limit: Int?
  public private(set) var written = 0
  private var buffer: [UInt8] = []

  /// Lines are written once this many bytes are waiting (and at the end of each call).
  public static let writeSize = 64 << 10

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
  public func write(_ quotes: [Quote]) throws(StopReason) {
    if let limit, written >= limit { throw .countReached }
    let take = limit.map { min(quotes.count, $0 - written) } ?? quotes.count
    // The loop works on locals, moved out of the object and back: stored properties of a class
    // cost a dynamic exclusivity check on every access, two per quote. The stand-in leaves the
    // formatter's existential box uniquely referenced, so mutating it copies nothing.
    var lines = buffer
    buffer = []
    lines.removeAll(keepingCapacity: true)
    var format = formatter
    formatter = PriceOnlyFormatter()
    defer {
      formatter = format
      buffer = lines
    }
    var pending = 0
    for quote in quotes.prefix(take) {
      format.append(quote, to: &lines)
      pending += 1
      if lines.count >= Self.writeSize {
        try flush(&lines)
        written += pending
        pending = 0
      }
    }
    try flush(&lines)
    written += pending
    if let limit, written >= limit { throw .countReached }
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
