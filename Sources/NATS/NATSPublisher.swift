import Dispatch
import Synchronization
import TickerSupport
import Transport

/// Publishes messages to a NATS server without ever making its caller wait.
///
/// `publish` puts ready-made `PUB` commands into a bounded buffer (`DropOldestBuffer`: at most
/// `Options.bufferCapacity` messages and `Options.bufferBytes` bytes; beyond that the oldest are
/// dropped and counted) and returns at once. A thread of its own connects (`NATSConnection`),
/// writes what the buffer holds, answers the server's PINGs, sends its own every
/// `pingInterval` (`maxPingsOutstanding` unanswered ones mean a dead server), and when the
/// connection fails or cannot be made, tries again after a `Backoff` delay with jitter from the
/// injected random source — for as long as the process runs: nothing here ends the ticker.
/// What happens is told to `report` (from that thread, in order).
///
/// Delivery is NATS core's: at most once. Messages written into a connection that then dies may
/// be lost (they are not sent again: that could duplicate them); `lostInFlight` counts those
/// whose write failed.
public final class NATSPublisher: Sendable {
  public struct Options: Sendable {
    public var url: NATSURL
    /// The client name in CONNECT (`nats server report connections` shows it).
    public var name: String
    public var version: String
    /// Messages held while the server is unreachable or slow.
    public var bufferCapacity: Int
    /// Bytes held at most (whatever the message count).
    public var bufferBytes: Int
    /// Limit for TCP connect + INFO + CONNECT/PING/PONG.
    public var connectTimeout: Double
    /// A write that makes no progress for this long fails the connection.
    public var writeTimeout: Double
    public var pingInterval: Duration
    public var maxPingsOutstanding: Int
    /// Longest wait at `finish` for the server to confirm the last messages.
    public var finishTimeout: Double
    public var backoff: Backoff
    /// The most bytes written at once (what a failing write can lose).
    public var writeChunk: Int
    public var maximumLineLength: Int
    /// `--publish-stream`: the JetStream stream that keeps the last message of each subject,
    /// made (or found as it is) on each connection before anything is published.
    public var stream: String?
    /// CA certificates trusted for TLS besides the system's (`--cacert`).
    public var caCertificateFile: String?
    /// `--nats-nkey` or `--nats-creds`: the key to sign in with.
    public var key: NATSKeyAuth?
    /// How long the server has to answer the stream's creation (none: it has no JetStream).
    public var streamTimeout: Double = 2

    public init(
      url: NATSURL, name: String = "ticker", version: String = "", bufferCapacity: Int = 10_000,
      bufferBytes: Int = 8 << 20, connectTimeout: Double = 5, writeTimeout: Double = 5,
      pingInterval: Duration = .seconds(5), maxPingsOutstanding: Int = 2, finishTimeout: Double = 1,
      backoff: Backoff = Backoff(initialDelay: .milliseconds(250), maximumDelay: .seconds(10)),
      writeChunk: Int = 256 << 10, maximumLineLength: Int = NATSServerParser.defaultMaximumLineLength,
      stream: String? = nil, caCertificateFile: String? = nil, key: NATSKeyAuth? = nil
    ) {
      self.key = key
      self.stream = stream
      self.caCertificateFile = caCertificateFile
      self.url = url
      self.name = name
      self.version = version
      self.bufferCapacity = bufferCapacity
      self.bufferBytes = bufferBytes
      self.connectTimeout = connectTimeout
      self.writeTimeout = writeTimeout
      self.pingInterval = pingInterval
      self.maxPingsOutstanding = maxPingsOutstanding
      self.finishTimeout = finishTimeout
      self.backoff = backoff
      self.writeChunk = writeChunk
      self.maximumLineLength = maximumLineLength
    }
  }

  private struct State: ~Copyable {
    var buffer: DropOldestBuffer
    /// Messages lost before they reached the buffer (the publisher's bus queue overflowed).
    var droppedUpstream = 0
    var published = 0
    var lostInFlight = 0
    var writerWaiting = false
    var stopping = false
    // The current connection (reset by each one; its reader's reports carry its generation, so
    // that a late one from a connection already given up is ignored):
    var generation = 0
    var pongsOwed = 0
    var pingsSent = 0
    var pongsReceived = 0
    var failure: NATSLinkError?
    // The end:
    var threadDone = false
    /// The `.finished` event went out (from the thread, or from `finish` when it gave up on it).
    var finishedReported = false
    var summary: NATSPublisherSummary?
    var doneWaiter: CheckedContinuation<NATSPublisherSummary?, Never>?
  }

  public let options: Options
  private let state: Mutex<State>
  /// Wakes the publisher's thread: new messages (while it waits), PING/PONG, failure, stop.
  private let wake = DispatchSemaphore(value: 0)
  private let makeRandom: @Sendable () -> any RandomNumberGenerator
  private let report: @Sendable (NATSPublisherEvent) -> Void

  public init(
    _ options: Options,
    makeRandom: @escaping @Sendable () -> any RandomNumberGenerator = { SystemRandomNumberGenerator() },
    report: @escaping @Sendable (NATSPublisherEvent) -> Void
  ) {
    self.options = options
    self.makeRandom = makeRandom
    self.report = report
    state = Mutex(
      State(buffer: DropOldestBuffer(capacity: options.bufferCapacity, byteLimit: options.bufferBytes)))
  }

  /// Starts connecting and publishing (on a thread of its own). Call once.
  public func start() {
    DedicatedThread.start { [self] in
      let summary = run()
      let waiter = state.withLock { state -> CheckedContinuation<NATSPublisherSummary?, Never>? in
        state.threadDone = true
        state.summary = summary
        defer { state.doneWaiter = nil }
        return state.doneWaiter
      }
      waiter?.resume(returning: summary)
    }
  }

  /// Queues `PUB` commands (`NATSCommands.appendPublish`), back to back in `batch.bytes`, each
  /// ending where `batch.ends` says. Never blocks.
  public func publish(_ batch: PublishBatch) {
    guard !batch.ends.isEmpty else { return }
    let signal = state.withLock { state -> Bool in
      var from = 0
      for end in batch.ends {
        state.buffer.append(batch.bytes[from..<end])
        from = end
      }
      guard state.writerWaiting else { return false }
      state.writerWaiting = false
      return true
    }
    if signal { wake.signal() }
  }

  /// Counts messages lost before they reached `publish` (reported with the buffer's drops).
  public func countDropped(_ count: Int) {
    state.withLock { $0.droppedUpstream += count }
  }

  /// Messages dropped so far (buffer overflow and upstream).
  public var dropped: Int { state.withLock { $0.buffer.dropped + $0.droppedUpstream } }

  /// Published (written to the connection), waiting in the buffer, and dropped, so far
  /// (`--metrics`).
  public var counts: (published: Int, buffered: Int, dropped: Int) {
    state.withLock { ($0.published, $0.buffer.count, $0.buffer.dropped + $0.droppedUpstream) }
  }

  /// Stops: what is buffered is sent if connected (waiting at most `finishTimeout` for the
  /// server to confirm it), then the connection is closed. Returns the summary (nil if the
  /// thread was still busy connecting when the time ran out: it is then abandoned).
  @discardableResult
  public func finish() async -> NATSPublisherSummary? {
    state.withLock { $0.stopping = true }
    wake.signal()
    return await withCheckedContinuation {
      (continuation: CheckedContinuation<NATSPublisherSummary?, Never>) in
      let done = state.withLock { state -> NATSPublisherSummary?? in
        if state.threadDone { return .some(state.summary) }
        state.doneWaiter = continuation
        return .none
      }
      if let done {
        continuation.resume(returning: done)
        return
      }
      // A connect attempt blocks up to `connectTimeout`: do not wait for it beyond the limit.
      Timeout.after(seconds: options.finishTimeout + 0.5) { [self] in
        let (waiter, summary) = state.withLock { state in
          defer { state.doneWaiter = nil }
          guard state.doneWaiter != nil, !state.finishedReported else {
            return (state.doneWaiter, NATSPublisherSummary?.none)
          }
          state.finishedReported = true
          return (
            state.doneWaiter,
            NATSPublisherSummary(
              published: state.published, dropped: state.buffer.dropped + state.droppedUpstream,
              lostInFlight: state.lostInFlight, unsent: state.buffer.count)
          )
        }
        // What is known now; the thread, still connecting, is left behind.
        if let summary { report(.finished(summary)) }
        waiter?.resume(returning: nil)
      }
    }
  }

  private var isStopping: Bool { state.withLock { $0.stopping } }

  // MARK: The publisher's thread

  private func run() -> NATSPublisherSummary {
    var random = makeRandom()
    var retry = 0
    var connectedBefore = false
    var droppedAtLastReport = 0
    while !isStopping {
      let connection: NATSConnection
      do {
        connection = try NATSConnection.open(
          url: options.url, name: options.name, version: options.version, timeout: options.connectTimeout,
          caCertificateFile: options.caCertificateFile, key: options.key,
          maximumLineLength: options.maximumLineLength,
          maximumPayload: options.stream == nil ? nil : NATSServerInfo.defaultMaxPayload)
        if let stream = options.stream {
          report(.stream(stream, Self.makeStream(stream, on: connection, timeout: options.streamTimeout)))
        }
      } catch {
        retry += 1
        let delay = nextDelay(retry, &random)
        let (held, dropped) = state.withLock { ($0.buffer.count, $0.buffer.dropped + $0.droppedUpstream) }
        report(.connectFailed(error, attempt: retry, retryIn: delay, buffered: held, dropped: dropped))
        sleep(delay)
        continue
      }
      let dropped = self.dropped
      report(
        .connected(
          connection.info, reconnected: connectedBefore,
          droppedSinceLastConnection: dropped - droppedAtLastReport))
      droppedAtLastReport = dropped
      connectedBefore = true
      let began = ContinuousClock.now
      let ending = serve(connection)
      connection.shutdown()
      connection.close()
      guard let ending else { break }
      if options.backoff.resets(afterHealthy: began.duration(to: .now)) { retry = 0 }
      retry += 1
      if isStopping { break }
      let delay = nextDelay(retry, &random)
      report(.lost(ending, retryIn: delay))
      sleep(delay)
    }
    let (summary, reported) = state.withLock { state in
      let unsent = state.buffer.dropAll()
      defer { state.finishedReported = true }
      return (
        NATSPublisherSummary(
          published: state.published, dropped: state.buffer.dropped - unsent + state.droppedUpstream,
          lostInFlight: state.lostInFlight, unsent: unsent),
        state.finishedReported
      )
    }
    if !reported { report(.finished(summary)) }
    return summary
  }

  /// Creates `stream` on `connection` (before its reader starts): what came of it.
  private static func makeStream(_ stream: String, on connection: NATSConnection, timeout: Double)
    -> StreamOutcome
  {
    let (subject, body) = JetStreamAPI.createStream(stream)
    do throws(NATSLinkError) {
      guard let answer = try connection.request(subject, body, timeout: timeout) else { return .noJetStream }
      switch JetStreamAPI.answer(answer) {
      case .success: return .kept
      case .failure(let error): return .refused(error)
      }
    } catch {
      return .failed(error)
    }
  }

  private func nextDelay(_ retry: Int, _ random: inout any RandomNumberGenerator) -> Duration {
    options.backoff.delay(forRetry: retry, unit: Double.random(in: 0..<1, using: &random))
  }

  /// Waits `delay`, or less if stopped meanwhile.
  private func sleep(_ delay: Duration) {
    let end = ContinuousClock.now.advanced(by: delay)
    while !isStopping {
      let left = ContinuousClock.now.duration(to: end)
      if left <= .zero { return }
      _ = wake.wait(timeout: Self.dispatchTime(after: left))
    }
  }

  /// Now plus `duration` (at least 1 ms, at most a day) for a semaphore wait.
  private static func dispatchTime(after duration: Duration) -> DispatchTime {
    let (seconds, attoseconds) = duration.components
    let nanoseconds = min(max(seconds, 0), 86_400) * 1_000_000_000 + max(attoseconds, 0) / 1_000_000_000
    return .now() + .nanoseconds(Int(max(nanoseconds, 1_000_000)))
  }

  private enum Step {
    case write(commands: [UInt8], messages: Int, pongs: Int, ping: Bool)
    case wait(until: ContinuousClock.Instant)
    case failed(NATSLinkError)
    case finish
  }

  /// Publishes on `connection` until it fails (the reason) or the publisher stops (nil).
  private func serve(_ connection: NATSConnection) -> NATSLinkError? {
    startReader(of: connection, generation: beginConnection())
    var nextPing = ContinuousClock.now.advanced(by: options.pingInterval)
    while true {
      let now = ContinuousClock.now
      let pingDue = now >= nextPing
      switch nextStep(pingDue: pingDue, nextPing: nextPing) {
      case .failed(let reason): return reason
      case .finish: return finish(connection)
      case .wait(let until):
        _ = wake.wait(timeout: Self.dispatchTime(after: now.duration(to: until)))
        state.withLock { $0.writerWaiting = false }
      case .write(let commands, let messages, let pongs, let ping):
        if ping { nextPing = now.advanced(by: options.pingInterval) }
        if let failure = write(commands, messages: messages, pongs: pongs, ping: ping, on: connection) {
          return failure
        }
      }
    }
  }

  /// A new connection becomes the current one, with no PING, PONG or failure yet: its generation.
  private func beginConnection() -> Int {
    state.withLock { state in
      state.generation += 1
      state.pongsOwed = 0
      state.pingsSent = 0
      state.pongsReceived = 0
      state.failure = nil
      return state.generation
    }
  }

  /// Starts `connection`'s reader, whose PINGs, PONGs, errors and end go into the state (and
  /// wake the publisher's thread) while `generation` is still the current connection.
  private func startReader(of connection: NATSConnection, generation: Int) {
    /// Runs `change` on the state if `connection` is still the current one.
    @Sendable func current(_ change: (inout State) -> Void) -> Bool {
      state.withLock { state in
        guard state.generation == generation else { return false }
        change(&state)
        return true
      }
    }
    connection.startReader(
      message: { [self] message in
        switch message {
        case .ping:
          if current({ $0.pongsOwed = min($0.pongsOwed + 1, 1_000_000) }) { wake.signal() }
        case .pong:
          if current({ $0.pongsReceived += 1 }) { wake.signal() }
        case .ok, .info, .message: break
        case .error(let error) where error.keepsConnection:
          if current({ _ in }) { report(.serverError(error)) }
        case .error(let error):
          if current({ $0.failure = $0.failure ?? .refused(error) }) { wake.signal() }
        }
      },
      end: { reason in
        if current({ $0.failure = $0.failure ?? reason }) { self.wake.signal() }
      })
  }

  /// What the publisher's thread does next: fail (the reader's failure, or too many PINGs
  /// unanswered when the next is due), write what is buffered with the PONGs owed and the PING
  /// due, finish when stopping with nothing left, or else wait until `nextPing`.
  private func nextStep(pingDue: Bool, nextPing: ContinuousClock.Instant) -> Step {
    state.withLock { state -> Step in
      if let failure = state.failure { return .failed(failure) }
      if pingDue && state.pingsSent - state.pongsReceived >= options.maxPingsOutstanding {
        return .failed(.noPong(pings: options.maxPingsOutstanding))
      }
      let (commands, messages) = state.buffer.take(maxBytes: options.writeChunk)
      let pongs = min(state.pongsOwed, 1024)
      state.pongsOwed -= pongs
      if messages > 0 || pongs > 0 || pingDue {
        if pingDue { state.pingsSent += 1 }
        return .write(commands: commands, messages: messages, pongs: pongs, ping: pingDue)
      }
      if state.stopping { return .finish }
      state.writerWaiting = true
      return .wait(until: nextPing)
    }
  }

  /// Writes `commands` (`messages` of them) after `pongs` PONGs and before a PING if `ping`,
  /// counting them published or lost; the connection's failure, if the write failed.
  private func write(
    _ commands: [UInt8], messages: Int, pongs: Int, ping: Bool, on connection: NATSConnection
  ) -> NATSLinkError? {
    var bytes = commands
    if pongs > 0 || ping {
      var control: [UInt8] = []
      for _ in 0..<pongs { control += NATSCommands.pong }
      bytes = control + bytes + (ping ? NATSCommands.ping : [])
    }
    do throws(NATSLinkError) {
      try connection.write(bytes, timeout: options.writeTimeout)
      state.withLock { $0.published += messages }
      return nil
    } catch {
      state.withLock { $0.lostInFlight += messages }
      return state.withLock { $0.failure } ?? error
    }
  }

  /// The end of a healthy connection: everything buffered was written; a PING's PONG says the
  /// server has read it all (waiting at most `finishTimeout`).
  private func finish(_ connection: NATSConnection) -> NATSLinkError? {
    let target = state.withLock { state -> Int in
      state.pingsSent += 1
      return state.pingsSent
    }
    do throws(NATSLinkError) {
      try connection.write(NATSCommands.ping, timeout: options.finishTimeout)
    } catch {
      return nil
    }
    let end = DispatchTime.now() + options.finishTimeout
    while state.withLock({ $0.pongsReceived < target && $0.failure == nil }) {
      if wake.wait(timeout: end) == .timedOut { break }
    }
    return nil
  }
}
