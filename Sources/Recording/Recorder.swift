import Dispatch
import FeedRuntime
import Synchronization
import TickerSupport
import Venues
import WebSocketClient

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `--record FILE`: appends what a feed receives to a recording (`RecordingLine`). The feed's
/// task only hands each batch of events over (no encoding, no I/O on its path); a writer task of
/// the recorder's own encodes and appends them, whole lines per `write(2)`, so a killed ticker
/// leaves a file that is valid up to its last complete line. The hand-over is bounded (batches
/// and bytes): a disk slower than the feed holds the feed back rather than losing frames or
/// growing memory.
///
/// Appending to an existing recording starts a new run section (a new header line); a file
/// that is not a recording, or one of other venues, is refused.
///
/// A run of several venues records them all in one file: each venue's feed is given its own
/// `venue(_:)` view, whose lines name the venue, in the order the feeds handed their batches over.
public final class Recorder: FeedRecorder {
  public enum OpenError: Error, Sendable, Equatable, CustomStringConvertible {
    case cannotOpen(path: String, errno: Int32)
    case notRegularFile(path: String)
    /// The file has content that is not a recording (nothing is appended to it).
    case notARecording(path: String, why: String)
    /// The file is a recording of another provider.
    case otherProvider(path: String, recorded: String)
    /// The file ends in a cut-off line.
    case cutOff(path: String)

    public var description: String {
      switch self {
      case .cannotOpen(let path, let errno): "cannot open \(path) for recording: \(Errno.text(errno))"
      case .notRegularFile(let path): "cannot record to \(path): not a regular file"
      case .notARecording(let path, let why):
        "refusing to record to \(path): it is not a ticker recording (\(why)); choose a new file"
      case .otherProvider(let path, let recorded):
        "refusing to record to \(path): it is a recording of \(recorded); choose a new file"
      case .cutOff(let path):
        "refusing to record to \(path): its last line is cut off; choose a new file"
      }
    }
  }

  enum Item: Sendable {
    case batch([SessionEvent], at: Int64, received: Int64, venue: Int)
    case end(RecordedEnd, at: Int64, received: Int64, venue: Int)
  }

  public static let queueBatches = 4096
  public static let queueBytes = 4 << 20
  /// Fewer batches than this waiting: wait `coalesceFor` for more before writing.
  static let coalesceBelow = 16
  static let coalesceFor = Duration.milliseconds(10)

  private let channel = MessageChannel<Item>(capacity: Recorder.queueBatches, costLimit: Recorder.queueBytes)
  private let writer = Mutex<Task<Void, Never>?>(nil)
  private let fd: Int32
  /// The errno of the write that failed, once one did.
  private let failure = LateBound<Int32>()
  /// The venues whose feeds have not finished yet (`VenueRecorder.finish`).
  private let venuesLeft: Mutex<Int>

  /// Opens (creating or appending to) `path` and writes `header`. `onFailure` is called once,
  /// from the writer task, if writing fails later (errno); recording stops then.
  public static func open(
    path: String, header: RecordingHeader, onFailure: @escaping @Sendable (Int32) -> Void = { _ in }
  ) throws(OpenError) -> Recorder {
    // O_NONBLOCK: a FIFO without a reader fails at once instead of blocking the open.
    let fd = POSIX.openFile(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC | O_NONBLOCK, 0o644)
    guard fd >= 0 else { throw .cannotOpen(path: path, errno: errno) }
    var info = stat()
    guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
      close(fd)
      throw .notRegularFile(path: path)
    }
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
    if info.st_size > 0 {
      do throws(OpenError) {
        try check(existing: fd, size: Int64(info.st_size), path: path, header: header)
      } catch {
        close(fd)
        throw error
      }
    }
    let recorder = Recorder(fd: fd, venues: header.venues.count)
    recorder.start(header: header, onFailure: onFailure)
    return recorder
  }

  /// An existing file: its first line must be a recording's header of the same venues, and its
  /// last byte a newline.
  private static func check(existing fd: Int32, size: Int64, path: String, header new: RecordingHeader)
    throws(OpenError)
  {
    var last: UInt8 = 0
    guard pread(fd, &last, 1, off_t(size - 1)) == 1 else { throw .cannotOpen(path: path, errno: errno) }
    var buffer = [UInt8](repeating: 0, count: 64 << 10)
    let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
    guard n > 0 else { throw .cannotOpen(path: path, errno: errno) }
    guard let newline = buffer[0..<n].firstIndex(of: 0x0A) else {
      throw .notARecording(path: path, why: "its first line is not a recording header")
    }
    var reader = RecordingReader()
    let first: RecordingLine?
    do throws(RecordingError) {
      first = try reader.read(buffer[0..<newline])
    } catch {
      if case .notARecording(let why) = error { throw .notARecording(path: path, why: why) }
      throw .notARecording(path: path, why: "\(error)")
    }
    guard case .header(let header)? = first else {
      throw .notARecording(path: path, why: "its first line is not a recording header")
    }
    guard header.venues.map(\.name) == new.venues.map(\.name) else {
      throw .otherProvider(path: path, recorded: header.providerNames)
    }
    guard last == 0x0A else { throw .cutOff(path: path) }
  }

  private init(fd: Int32, venues: Int) {
    self.fd = fd
    venuesLeft = Mutex(venues)
  }

  /// What venue `index`'s feed records to, in a run of several venues.
  public func venue(_ index: Int) -> VenueRecorder { VenueRecorder(recorder: self, venue: index) }

  /// A venue's feed finished: the last one finishes the file (the others' lines are all handed
  /// over by then).
  func venueFinished() async -> Int32? {
    let last = venuesLeft.withLock { left -> Bool in
      left -= 1
      return left == 0
    }
    return last ? await finish() : nil
  }

  private func start(header: RecordingHeader, onFailure: @escaping @Sendable (Int32) -> Void) {
    let channel = channel
    let file = FileState(fd: fd, recordsTicks: header.isSeveral, failure: failure, onFailure: onFailure)
    // Encoding and writing run on a thread of their own, never on the concurrency pool that the
    // feed's task and the outputs share (on 2 cores it has 2 threads).
    let queue = DispatchQueue(label: "ticker.recorder")
    let task = Task.detached {
      var ok = await Self.onQueue(queue) { file.write(header: header) }
      while ok, var items = try? await channel.nextBatch() {
        if items.count < Self.coalesceBelow {
          // At a live pace a write per batch would wake two threads for every message; what
          // arrives in the next few milliseconds goes in the same write instead.
          try? await Task.sleep(for: Self.coalesceFor)
          while channel.bufferedCount > 0, let more = try? await channel.nextBatch() { items += more }
        }
        ok = await Self.onQueue(queue) { [items] in file.write(items) }
      }
      channel.cancel()
      await Self.onQueue(queue) { file.close() }
    }
    writer.withLock { $0 = task }
  }

  private static func onQueue<T: Sendable>(_ queue: DispatchQueue, _ work: @escaping @Sendable () -> T) async
    -> T
  {
    await withCheckedContinuation { done in queue.async { done.resume(returning: work()) } }
  }

  /// The writer's state: used only on the recorder's queue, one call at a time (so its lock is
  /// never contended).
  private final class FileState: Sendable {
    private struct Output {
      var out: [UInt8] = []
      var encoder = RecordingEncoder()
      var batch = 0
    }

    let fd: Int32
    /// Of several venues, each venue's timer ticks are lines too (`RecordedStep.What.tick`).
    let recordsTicks: Bool
    let failure: LateBound<Int32>
    let onFailure: @Sendable (Int32) -> Void
    private let output = Mutex(Output())

    init(
      fd: Int32, recordsTicks: Bool, failure: LateBound<Int32>, onFailure: @escaping @Sendable (Int32) -> Void
    ) {
      self.fd = fd
      self.recordsTicks = recordsTicks
      self.failure = failure
      self.onFailure = onFailure
    }

    func write(header: RecordingHeader) -> Bool {
      output.withLock { output in
        output.out.removeAll(keepingCapacity: true)
        output.encoder.append(.header(header), to: &output.out)
        return Recorder.write(output.out, to: fd, failure: failure, onFailure: onFailure)
      }
    }

    func write(_ items: [Item]) -> Bool {
      output.withLock { output in
        output.out.removeAll(keepingCapacity: true)
        for item in items {
          switch item {
          case .batch(let events, let at, let received, let venue):
            output.batch += 1
            Recorder.encode(
              events, at: at, received: received, venue: venue, ticks: recordsTicks, batch: &output.batch,
              into: &output.out, encoder: &output.encoder)
            // Written in parts of about a megabyte (whole lines each), so that a large backlog
            // does not grow one buffer.
            if output.out.count >= 1 << 20 {
              guard Recorder.write(output.out, to: fd, failure: failure, onFailure: onFailure) else {
                return false
              }
              output.out.removeAll(keepingCapacity: true)
            }
          case .end(let end, let at, let received, let venue):
            output.batch += 1
            output.encoder.append(
              .step(
                RecordedStep(at: at, received: received, batch: output.batch, what: .end(end), venue: venue)),
              to: &output.out)
          }
        }
        // Whole lines per write: a killed ticker leaves complete lines only.
        return Recorder.write(output.out, to: fd, failure: failure, onFailure: onFailure)
      }
    }

    func close() { POSIX.closeDescriptor(fd) }
  }

  /// One batch of the feed's events as lines. Posts the recording has no line for (timer
  /// ticks, stop requests) still divide the batch where the machine divided it.
  static func encode(
    _ events: [SessionEvent], at: Int64, received: Int64, venue: Int = 0, ticks: Bool = false,
    batch: inout Int, into out: inout [UInt8], encoder: inout RecordingEncoder
  ) {
    for event in events {
      let what: RecordedStep.What
      switch event {
      case .message(let message): what = .message(message)
      case .connected(let attempt): what = .connected(attempt: attempt)
      case .disconnected(let reason, let attempt, let retryIn):
        what = .disconnected(attempt: attempt, retryIn: retryIn, reason: Self.summary(reason))
      case .ended: continue
      case .post(let post):
        switch post.value {
        case is FeedPost.Opened: what = .opened
        case FeedPost.Request.command(let command) as FeedPost.Request: what = .command(command)
        case FeedPost.Request.controlLine(let line) as FeedPost.Request: what = .control(line)
        case is FeedPost.Tick where ticks:
          // Its own batch: what the machine took after it is another.
          encoder.append(
            .step(RecordedStep(at: at, received: received, batch: batch, what: .tick, venue: venue)), to: &out
          )
          batch += 1
          continue
        default:
          batch += 1
          continue
        }
      }
      encoder.append(
        .step(RecordedStep(at: at, received: received, batch: batch, what: what, venue: venue)), to: &out)
    }
  }

  /// Why a connection ended, without anything a server or a URL could have put in it (a token).
  static func summary(_ reason: DisconnectReason) -> String {
    switch reason {
    case .failed: "failed"
    case .peerClosed(let status): "peer closed \(status.code.rawValue)"
    case .pongTimeout: "pong timeout"
    case .silence: "silence"
    case .requested: "reconnect requested"
    }
  }

  private static func write(
    _ bytes: [UInt8], to fd: Int32, failure: LateBound<Int32>, onFailure: @Sendable (Int32) -> Void
  ) -> Bool {
    do throws(FileDescriptorWriter.Failure) {
      try FileDescriptorWriter(fd: fd).write(bytes)
      return true
    } catch {
      let code: Int32
      switch error {
      case .failed(let e): code = e
      case .readerGone: code = EPIPE
      }
      failure.bind(code)
      onFailure(code)
      return false
    }
  }

  // MARK: The feed's side

  /// One batch of events the machine is about to be given at `at` (ns since the start).
  public func record(_ events: [SessionEvent], at: Int64, received: Int64) async {
    await record(events, at: at, received: received, venue: 0)
  }

  func record(_ events: [SessionEvent], at: Int64, received: Int64, venue: Int) async {
    var bytes = 64
    for event in events { if case .message(let message) = event { bytes += message.byteCount + 64 } }
    await channel.send(.batch(events, at: at, received: received, venue: venue), cost: bytes)
  }

  /// The run ended: the last line.
  public func end(_ outcome: FeedOutcome, at: Int64, received: Int64) async {
    await end(outcome, at: at, received: received, venue: 0)
  }

  func end(_ outcome: FeedOutcome, at: Int64, received: Int64, venue: Int) async {
    await channel.send(.end(RecordedEnd(outcome), at: at, received: received, venue: venue), cost: 64)
  }

  /// Waits until everything handed over is written and the file is closed; the errno of a
  /// failed write, if one failed.
  public func finish() async -> Int32? {
    channel.finish()
    let task = writer.withLock { $0 }
    await task?.value
    return failure.value
  }
}
