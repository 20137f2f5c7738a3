import FeedRuntime
import TickerSupport
import Venues

/// The stdout output: formats quotes and writes one line each, counting them for `--count`.
/// Lines go out in writes of about `writeSize` bytes, and nothing is held back once `write`
/// returns. Used by one task at a time: the output's consumer (`write`), or the feed's fast path
/// while that consumer waits (`writeDirectly`, under its queue's lock; see `StdoutOutput`). Its
/// state is under a lock of its own all the same, so that this is checked, not argued: the lock
/// is never contended, and the fast path's lock order covers it (`LockRank.quoteWriter`).
public final class QuoteWriter: Sendable {
  private struct State {
    var formatter: any QuoteFormatter
    /// Lines formatted (written, or in `unwritten` for the consumer to write next).
    var written = 0
    var buffer: [UInt8] = []
    /// Bytes `writeDirectly` formatted but the descriptor did not take without waiting: the
    /// consumer writes them before anything else.
    var unwritten: [UInt8] = []
    /// Why `writeDirectly` must stop the output (a failed write); the consumer throws it.
    var failure: StopReason?
    /// Whether the descriptor can be written without waiting (false once it said it cannot).
    var writesWithoutWaiting = true
  }

  private let state: RankedMutex<State>
  private let writer: FileDescriptorWriter
  private let limit: Int?

  /// Lines formatted (written, or waiting for the consumer to write them next).
  public var written: Int { state.withLock { $0.written } }

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
    state = RankedMutex(State(formatter: formatter), rank: .quoteWriter)
    self.writer = writer
    self.limit = limit
  }

  /// Writes the format's header line, if it has one (before any quote).
  public func begin() throws(StopReason) {
    try state.withLock { (state) throws(StopReason) in
      guard let header = state.formatter.header else { return }
      state.buffer.removeAll(keepingCapacity: true)
      state.buffer.append(contentsOf: header)
      try flush(&state.buffer)
    }
  }

  /// Writes each quote as a line (at most up to the limit); throws the reason to stop, if any.
  /// First whatever `writeDirectly` left (which an empty batch asks for alone).
  public func write(_ quotes: [Quote]) throws(StopReason) {
    try state.withLock { (state) throws(StopReason) in
      if let failure = state.failure { throw failure }
      if !state.unwritten.isEmpty { try flush(&state.unwritten) }
      if let limit, state.written >= limit { throw .countReached }
      let take = limit.map { min(quotes.count, $0 - state.written) } ?? quotes.count
      state.buffer.removeAll(keepingCapacity: true)
      var pending = 0
      var start = 0
      while start < take {
        let end = min(take, start + Self.formatChunk)
        state.formatter.append(contentsOf: quotes[start..<end], to: &state.buffer)
        pending += end - start
        start = end
        if state.buffer.count >= Self.writeSize {
          try flush(&state.buffer)
          state.written += pending
          pending = 0
        }
      }
      try flush(&state.buffer)
      state.written += pending
      if let limit, state.written >= limit { throw .countReached }
    }
  }

  /// Formats `quotes` and writes the lines if the descriptor takes them without waiting; what
  /// it does not take stays for `write` (which the answer `.unfinished` asks for), as does a
  /// failure, or the `--count` limit reached. Declines a large batch, one while something is
  /// left for `write`, and every batch once the descriptor turned out unable to write without
  /// waiting (a terminal, a regular file), untouched.
  public func writeDirectly(_ quotes: [Quote]) -> QuoteBus.DirectDelivery {
    state.withLock { state in
      guard state.writesWithoutWaiting, quotes.count <= Self.directLimit, state.unwritten.isEmpty,
        state.failure == nil
      else { return .declined }
      if let limit, state.written >= limit { return .declined }
      let take = limit.map { min(quotes.count, $0 - state.written) } ?? quotes.count
      state.buffer.removeAll(keepingCapacity: true)
      state.formatter.append(contentsOf: quotes[..<take], to: &state.buffer)
      state.written += take
      var offset = 0
      attempts: while offset < state.buffer.count {
        let attempt = state.buffer.withUnsafeBytes {
          writer.writeWithoutWaiting(UnsafeRawBufferPointer(rebasing: $0[offset...]))
        }
        switch attempt {
        case .wrote(let n) where n > 0: offset += n
        case .wrote, .wouldBlock: break attempts
        case .unsupported:
          state.writesWithoutWaiting = false
          break attempts
        case .failed(.readerGone):
          state.failure = .readerGone
          offset = state.buffer.count
        case .failed(.failed(let e)):
          state.failure = .writeFailed(e)
          offset = state.buffer.count
        }
      }
      if offset < state.buffer.count { state.unwritten.append(contentsOf: state.buffer[offset...]) }
      state.buffer.removeAll(keepingCapacity: true)
      let done = state.unwritten.isEmpty && state.failure == nil && limit.map { state.written < $0 } ?? true
      return done ? .delivered : .unfinished
    }
  }

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
