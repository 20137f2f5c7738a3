import Synchronization
import WebSocketClient

@testable import TestSupport
@testable import TickerSupport
@testable import WebSocketWire

/// A `SourceSession` on a `FakeEngine` and a `ManualClock`, with a fixed jitter source, an
/// `onConnect` that sends `"subscribe"` and records which connection it saw, and the event
/// stream read one event at a time.
final class SessionHarness {
  let clock = ManualClock()
  let engine: FakeEngine
  let session: SourceSession
  private let connectLog = ConnectLog()
  private var iterator: MessageChannel<SessionEvent>.AsyncIterator

  static let subscribe = WebSocketMessage.text("subscribe")

  init(
    _ attempts: [FakeEngine.Attempt], configuration: SessionConfiguration = quietConfiguration,
    random: UInt64 = 0
  ) {
    engine = FakeEngine(attempts)
    let log = connectLog
    let url = WebSocketURL(isSecure: true, host: "ws.example", port: 443, target: "/?token=secret")
    session = SourceSession(
      source: WebSocketSource(engine: engine, url: url), configuration: configuration, clock: clock,
      makeRandom: { ConstantRandom(random) }
    ) { connection throws(WebSocketError) in
      log.ids.withLock { $0.append(ObjectIdentifier(connection)) }
      try await connection.send(SessionHarness.subscribe)
    }
    iterator = session.events.makeAsyncIterator()
  }

  /// No pings, no silence watchdog: only what a test scripts happens.
  static let quietConfiguration = SessionConfiguration(pingInterval: nil, silenceTimeout: nil)

  /// The connections `onConnect` was called with, in order.
  var connected: [ObjectIdentifier] { connectLog.ids.withLock { $0 } }

  func start() -> Self {
    session.start()
    return self
  }

  /// The next event (nil once the stream finished).
  func next() async -> SessionEvent? {
    try? await iterator.next()
  }

  /// Every remaining event up to and including `.ended`.
  func rest() async -> [SessionEvent] {
    var events: [SessionEvent] = []
    while let event = try? await iterator.next() { events.append(event) }
    return events
  }
}

final class ConnectLog: Sendable {
  let ids = Mutex<[ObjectIdentifier]>([])
}

extension FakeConnection {
  var id: ObjectIdentifier { ObjectIdentifier(self) }
}
