import Dispatch
import FeedRuntime
import Outputs
import Synchronization
import Testing
import Venues

@testable import FeedRuntime
@testable import Outputs
@testable import TickerSupport

#if canImport(Glibc)
  import Glibc
#endif

/// Stdout's direct path: the publisher writes a small batch itself while the output's task waits
/// and stdout takes the bytes without waiting; a slow reader sends what is left, and all that
/// follows, through the task, in order.
@Suite struct StdoutOutputTests {
  static let ignoringBrokenPipes: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

  /// A pipe: (read end, write end).
  static func pipe(size: Int32? = nil) -> (Int32, Int32) {
    var fds: [Int32] = [0, 0]
    #expect(Glibc.pipe(&fds) == 0)
    // F_SETPIPE_SZ (1031): a small pipe fills after a few lines.
    if let size { _ = fcntl(fds[1], 1031, size) }
    return (fds[0], fds[1])
  }

  /// Writes into `fd` without waiting until it is full; the bytes written.
  static func fill(_ fd: Int32) -> Int {
    let flags = fcntl(fd, F_GETFL)
    _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
    defer { _ = fcntl(fd, F_SETFL, flags) }
    let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 512)
    var total = 0
    while true {
      let n = chunk.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
      if n <= 0 { return total }
      total += n
    }
  }

  /// Everything `fd` holds until its write ends are closed.
  static func readAll(_ fd: Int32) -> [UInt8] {
    var out: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if n <= 0 { return out }
      out += chunk[0..<n]
    }
  }

  /// Reads `fd` to its end on a thread of its own, once `begin` is signalled or `bound` passes
  /// (which only bounds a failure; the test then fails on what was published before reading),
  /// running `beginning` first.
  static func readOnThread(
    _ fd: Int32, after begin: DispatchSemaphore? = nil, bound: DispatchTimeInterval = .seconds(20),
    beginning: @escaping @Sendable () -> Void = {}
  ) async -> [UInt8] {
    await withCheckedContinuation { continuation in
      DedicatedThread.start {
        _ = begin?.wait(timeout: .now() + bound)
        beginning()
        continuation.resume(returning: readAll(fd))
      }
    }
  }

  static func quote(_ i: Int) -> Quote { Quote(symbol: "A", price: Price("\(i)")!, time: Int64(i)) }

  static func lines(_ bytes: some Sequence<UInt8>) -> [String] {
    String(decoding: Array(bytes), as: UTF8.self).split(separator: "\n").map(String.init)
  }

  @Test("writing without waiting: a pipe with room takes the bytes, a full one refuses them")
  func withoutWaiting() {
    _ = Self.ignoringBrokenPipes
    let (r, w) = Self.pipe()
    defer { close(r) }
    let writer = FileDescriptorWriter(fd: w)
    let bytes = Array("1\n".utf8)
    let first = bytes.withUnsafeBytes { writer.writeWithoutWaiting($0) }
    // Kernels without RWF_NOWAIT on pipes say so; the direct path is then never taken.
    guard first != .unsupported else { return }
    #expect(first == .wrote(2))
    _ = Self.fill(w)
    #expect(bytes.withUnsafeBytes { writer.writeWithoutWaiting($0) } == .wouldBlock)
    close(r)
    #expect(bytes.withUnsafeBytes { writer.writeWithoutWaiting($0) } == .failed(.readerGone))
    close(w)
  }

  @Test("onFull: a write larger than the empty pipe says so before it waits; one that fits says nothing")
  func onFullAnnouncesTheWait() async {
    _ = Self.ignoringBrokenPipes
    guard Self.pipeTakesNoWait() else { return }
    // Fits: nothing to announce.
    let (r0, w0) = Self.pipe()
    let quiet = Mutex(0)
    let roomy = FileDescriptorWriter(fd: w0) { quiet.withLock { $0 += 1 } }
    #expect((try? roomy.write(Array("1\n".utf8))) != nil)
    #expect(quiet.withLock { $0 } == 0)
    close(w0)
    close(r0)
    // The pipe is empty before this write, which fits only in part: a poll for room sees room,
    // and the write then waits in the kernel. The reader starts only once it is told (or after
    // the bound, and then the count below fails the test).
    let (r, w) = Self.pipe(size: 4096)
    let full = DispatchSemaphore(value: 0)
    let announced = Mutex(0)
    let writer = FileDescriptorWriter(fd: w) {
      announced.withLock { $0 += 1 }
      full.signal()
    }
    let reader = Task { await Self.readOnThread(r, after: full) }
    let big = [UInt8](repeating: 2, count: 64 << 10)
    // A write that waits, on a thread of its own (never one of the concurrency pool's).
    let thread = ThreadExecutor()
    defer { thread.stop() }
    let wrote = await Task(executorPreference: thread) { (try? writer.write(big)) != nil }.value
    #expect(wrote)
    #expect(announced.withLock { $0 } >= 1)
    close(w)
    #expect(await reader.value.count == big.count)
    close(r)
  }

  @Test("a full pipe: the direct write keeps the lines for the consumer, which writes them first")
  func directWriteFallsBack() async throws {
    _ = Self.ignoringBrokenPipes
    guard Self.pipeTakesNoWait() else { return }
    let (r, w) = Self.pipe()
    let writer = QuoteWriter(formatter: PriceOnlyFormatter(), writer: FileDescriptorWriter(fd: w), limit: nil)
    #expect(writer.writeDirectly([Self.quote(1)]) == .delivered)
    let filler = Self.fill(w)
    // Nobody reads: the direct write must not wait, so it leaves the line to the consumer, and
    // declines what comes after it until the consumer has written it.
    #expect(writer.writeDirectly([Self.quote(2)]) == .unfinished)
    #expect(writer.writeDirectly([Self.quote(3)]) == .declined)
    let reader = Task { await Self.readOnThread(r) }
    // The consumer: the empty batch the bus sends, then the declined batch from the queue. On a
    // thread of its own, as StdoutOutput's task: these writes wait for the reader.
    let thread = ThreadExecutor()
    defer { thread.stop() }
    try await Task(executorPreference: thread) {
      try writer.write([])
      try writer.write([Self.quote(3)])
    }.value
    close(w)
    let all = await reader.value
    #expect(all.count == 2 + filler + 4)
    #expect(Array(all.prefix(2)) == Array("1\n".utf8))
    #expect(Self.lines(all.dropFirst(2 + filler)) == ["2", "3"])
    #expect(writer.written == 3)
    close(r)
  }

  /// Whether this kernel writes pipes without waiting (RWF_NOWAIT); false on older ones.
  static func pipeTakesNoWait() -> Bool {
    let (r, w) = pipe()
    defer {
      close(r)
      close(w)
    }
    return [UInt8(10)].withUnsafeBytes { FileDescriptorWriter(fd: w).writeWithoutWaiting($0) } != .unsupported
  }

  @Test(
    "--count reached or the reader gone on the direct path: the consumer is told, nothing more is written")
  func directWriteStops() throws {
    _ = Self.ignoringBrokenPipes
    guard Self.pipeTakesNoWait() else { return }
    let (r, w) = Self.pipe()
    let counted = QuoteWriter(formatter: PriceOnlyFormatter(), writer: FileDescriptorWriter(fd: w), limit: 2)
    #expect(counted.writeDirectly([Self.quote(1)]) == .delivered)
    #expect(counted.writeDirectly([Self.quote(2), Self.quote(3)]) == .unfinished)
    #expect(throws: StopReason.countReached) { try counted.write([]) }
    close(w)
    #expect(Self.lines(Self.readAll(r)) == ["1", "2"])
    close(r)

    let (r2, w2) = Self.pipe()
    close(r2)
    let orphan = QuoteWriter(
      formatter: PriceOnlyFormatter(), writer: FileDescriptorWriter(fd: w2), limit: nil)
    #expect(orphan.writeDirectly([Self.quote(1)]) == .unfinished)
    #expect(throws: StopReason.readerGone) { try orphan.write([]) }
    close(w2)
  }

  @Test("a large batch: every line as the formatter makes it, in writes of about 64 KiB, up to --count")
  func largeBatchWritesEveryLine() throws {
    _ = Self.ignoringBrokenPipes
    let quotes = (0..<5000).map {
      Quote(symbol: "BINANCE:S\($0 % 7)", price: Price("\($0).5")!, time: Int64($0))
    }
    var formatter = TextFormatter()
    let expected = quotes.prefix(4321).map { formatter.format($0) }.joined()
    let (r, w) = Self.pipe()
    // The reader's thread starts before the writes that need it (never a task on the pool,
    // which the blocked write may be holding).
    let read = Mutex<[UInt8]>([])
    let done = DispatchSemaphore(value: 0)
    DedicatedThread.start {
      let bytes = Self.readAll(r)
      read.withLock { $0 = bytes }
      done.signal()
    }
    let writer = QuoteWriter(formatter: TextFormatter(), writer: FileDescriptorWriter(fd: w), limit: 4321)
    #expect(throws: StopReason.countReached) { try writer.write(quotes) }
    close(w)
    done.wait()
    #expect(String(decoding: read.withLock { $0 }, as: UTF8.self) == expected)
    #expect(writer.written == 4321)
    close(r)
  }

  /// A feed that only has a bus, and remembers why it was stopped.
  final class BusFeed: QuoteFeed {
    let bus = QuoteBus()
    let stops = Mutex<[StopReason]>([])
    func subscribe(_ symbols: [String]) {}
    func unsubscribe(_ symbols: [String]) {}
    func stop(_ reason: StopReason) { stops.withLock { $0.append(reason) } }
    func run() async -> FeedOutcome { .stopped(.signal(2)) }
  }

  @Test("a pipe nobody reads yet: publishing never waits in a write; every line comes out once, in order")
  func slowReader() async throws {
    _ = Self.ignoringBrokenPipes
    let (r, w) = Self.pipe(size: 4096)
    let feed = BusFeed()
    let writer = QuoteWriter(formatter: PriceOnlyFormatter(), writer: FileDescriptorWriter(fd: w), limit: nil)
    let output = StdoutOutput.start(on: feed, writer: writer)
    let published = Tally()
    let count = 2000
    // 4 KiB of pipe hold 585 lines of 7 bytes, the queue 64 batches more: the publisher gets
    // past the pipe's room without anybody reading (a write that waited would hold it there).
    // The reader starts once the publisher is 600 lines in (or after 20 s: then the check of
    // `seenAtStart` fails).
    let past = DispatchSemaphore(value: 0)
    let publisher = Task {
      for i in 0..<count {
        await feed.bus.publish([Self.quote(100_000 + i)])
        published.add()
        if i == 599 { past.signal() }
      }
      feed.bus.finish()
    }
    let seenAtStart = Tally()
    let reader = Task {
      await Self.readOnThread(r, after: past) {
        for _ in 0..<published.value { seenAtStart.add() }
      }
    }
    await publisher.value
    await output.value
    close(w)
    let lines = Self.lines(await reader.value)
    #expect(lines == (0..<count).map { String(100_000 + $0) })
    #expect(seenAtStart.value >= 600)
    #expect(feed.stops.withLock { $0 }.isEmpty)
    close(r)
  }
}

final class Tally: Sendable {
  private let count = Atomic<Int>(0)
  func add() { count.add(1, ordering: .sequentiallyConsistent) }
  var value: Int { count.load(ordering: .sequentiallyConsistent) }
}
