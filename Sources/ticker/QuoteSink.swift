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

  init(formatter: any QuoteFormatter, writer: FileDescriptorWriter, limit: Int?) {
    self.formatter = formatter
    self.writer = writer
    self.limit = limit
  }

  /// Writes each quote as a line, flushed per line.
  func emit(_ quotes: [Quote]) throws(Stop) {
    for quote in quotes {
      if let limit, written >= limit { throw .countReached }
      var line: [UInt8] = []
      formatter.append(quote, to: &line)
      do {
        try writer.write(line)
      } catch {
        switch error {
        case .readerGone: throw .readerGone
        case .failed(let e): throw .writeFailed(e)
        }
      }
      written += 1
    }
    if let limit, written >= limit { throw .countReached }
  }
}
