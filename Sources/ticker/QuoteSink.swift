import PriceFeed

/// The end of the pipeline: formats quotes and writes one line each to stdout, counting them
/// for `--count`.
final class QuoteSink: @unchecked Sendable {
  enum Stop: Error, Sendable, Equatable {
    /// `--count` lines have been written.
    case countReached
    /// stdout's reader went away (EPIPE).
    case readerGone
    /// Writing failed otherwise (errno).
    case writeFailed(Int32)
  }

  // Only touched from the PipelineDriver actor.
  private var formatter: any QuoteFormatter
  private let writer: FileDescriptorWriter
  private let limit: Int?
  private(set) var written = 0
  private var buffer: [UInt8] = []

  init(formatter: any QuoteFormatter, writer: FileDescriptorWriter, limit: Int?) {
    self.formatter = formatter
    self.writer = writer
    self.limit = limit
  }

  /// Lines are written once this many bytes are waiting (and at the end of each call).
  static let writeSize = 64 << 10

  /// Writes each quote as a line; the lines of one call go out in as few writes as fit in
  /// `writeSize` bytes each (a burst costs one system call, and a 100,000-trade message never
  /// holds all its lines at once), and nothing is held back once the call returns.
  func emit(_ quotes: [Quote]) throws(Stop) {
    if let limit, written >= limit { throw .countReached }
    let take = limit.map { min(quotes.count, $0 - written) } ?? quotes.count
    buffer.removeAll(keepingCapacity: true)
    var pending = 0
    for quote in quotes.prefix(take) {
      formatter.append(quote, to: &buffer)
      pending += 1
      if buffer.count >= Self.writeSize {
        try flush()
        written += pending
        pending = 0
      }
    }
    try flush()
    written += pending
    if let limit, written >= limit { throw .countReached }
  }

  private func flush() throws(Stop) {
    guard !buffer.isEmpty else { return }
    do {
      try writer.write(buffer)
    } catch {
      switch error {
      case .readerGone: throw .readerGone
      case .failed(let e): throw .writeFailed(e)
      }
    }
    buffer.removeAll(keepingCapacity: true)
  }
}
