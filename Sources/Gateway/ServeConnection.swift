import Transport
import WebSocketWire

/// One `serve` connection as the event loop keeps it: where it is in its life, what waits to be
/// written, and its deadlines. Confined to the loop's thread.
struct ServeConnection {
  enum Phase {
    /// Reading the upgrade request; `full`: it is read only to be refused with 503.
    case upgrading(request: [UInt8], full: Bool)
    /// Upgraded: reading the client's frames.
    case open(Reader)
    /// A refusal is being written; the connection closes once it is out.
    case refusing
  }

  /// The client's frames, parsed and reassembled within the size limits, and what it may ask.
  struct Reader {
    var parser: FrameParser
    var assembler: MessageAssembler
    var budget: RequestBudget<ContinuousClock.Instant>
  }

  let stream: TCPStream
  var phase: Phase
  /// Set once upgraded.
  var client: ServeClient?
  /// Bytes taken from the outbox (or a handshake answer, a pong) not yet written, from `written`.
  var out: [UInt8] = []
  var written = 0
  /// When a write last made progress (or the first byte began to wait).
  var lastProgress: ContinuousClock.Instant
  /// The upgrade request must have come by then.
  var requestDeadline: ContinuousClock.Instant?
  /// The server closed the client: it has until then to answer with its close.
  var graceDeadline: ContinuousClock.Instant?
  /// Reading is over: what is queued may go out until then, and the socket is closed.
  var finishDeadline: ContinuousClock.Instant?
  /// Whether reading is over (the client closed, left, or broke the protocol and was dropped).
  var readingDone = false
  /// After a protocol error: the client's bytes are read and dropped (see `ServeLoop`).
  var discarding = false
  /// A close frame is queued: nothing more is taken from the outbox, and nothing is written
  /// after it.
  var closeSent = false
  /// The client's close status (1005 when its close had none), for the log.
  var status: CloseStatus?
  /// The clients still connected once this one had left, for the log.
  var left = 0

  init(stream: TCPStream, phase: Phase, now: ContinuousClock.Instant) {
    self.stream = stream
    self.phase = phase
    lastProgress = now
  }

  var hasOutput: Bool { written < out.count }

  /// The earliest of its deadlines, write stall included (no allocation: the loop asks every
  /// connection on every wake-up).
  func nextDeadline(writeTimeout: Duration) -> ContinuousClock.Instant? {
    func earlier(_ a: ContinuousClock.Instant?, _ b: ContinuousClock.Instant?) -> ContinuousClock.Instant? {
      guard let a else { return b }
      guard let b else { return a }
      return min(a, b)
    }
    let stall = hasOutput ? lastProgress + writeTimeout : nil
    return earlier(earlier(requestDeadline, graceDeadline), earlier(finishDeadline, stall))
  }

  mutating func append(_ bytes: [UInt8]) {
    if written == out.count {
      out = bytes
      written = 0
    } else {
      out += bytes
    }
  }
}
