import Dispatch
import TickerSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads control lines from a file descriptor (`--control stdin`) on a thread of its own and
/// hands each to `feed.control(_:)` (a `Feed`, or a `FeedGroup` that routes each symbol to its venue). A line longer than `maximumLineBytes` is refused whole (one
/// message, nothing changes); the end of the input ends the reading and nothing else — the feed
/// goes on with what it has.
public enum ControlReader {
  public static let maximumLineBytes = 4096

  public static func start(fd: Int32, feed: any ControlTarget) {
    DedicatedThread.start {
      var splitter = LineSplitter(limit: maximumLineBytes)
      var chunk = [UInt8](repeating: 0, count: 4096)
      while true {
        guard
          let n = try? POSIX.retryingInterrupted({
            chunk.withUnsafeMutableBytes { POSIX.readDescriptor(fd, $0.baseAddress, $0.count) }
          }), n > 0
        else { break }
        for line in splitter.feed(chunk[0..<n]) { deliver(line, to: feed) }
      }
      if let last = splitter.finish() { deliver(last, to: feed) }
    }
  }

  private static func deliver(_ line: LineSplitter.Line, to feed: any ControlTarget) {
    switch line {
    case .text(let text): feed.control(text)
    case .tooLong: feed.reportControlError(.tooLong(maximumLineBytes))
    }
  }
}

/// Splits bytes into lines, pure: at most `limit` bytes per line (a longer line is reported once,
/// as `.tooLong`, and skipped to its end); invalid UTF-8 is decoded with replacement characters.
public struct LineSplitter: Sendable {
  public enum Line: Sendable, Equatable {
    case text(String)
    case tooLong
  }

  public let limit: Int
  private var pending: [UInt8] = []
  private var skipping = false

  public init(limit: Int) { self.limit = limit }

  public mutating func feed(_ bytes: some Collection<UInt8>) -> [Line] {
    var lines: [Line] = []
    for byte in bytes {
      if byte == 0x0A {
        if skipping {
          skipping = false
        } else {
          lines.append(.text(String(decoding: pending, as: UTF8.self)))
        }
        pending.removeAll(keepingCapacity: true)
        continue
      }
      guard !skipping else { continue }
      pending.append(byte)
      if pending.count > limit {
        lines.append(.tooLong)
        pending.removeAll(keepingCapacity: true)
        skipping = true
      }
    }
    return lines
  }

  /// What is left at the end of the input (a last line without a newline).
  public mutating func finish() -> Line? {
    defer { pending = [] }
    return pending.isEmpty || skipping ? nil : .text(String(decoding: pending, as: UTF8.self))
  }
}
