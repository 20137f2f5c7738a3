import Dispatch
import Recording
import TickerSupport
import Transport
import WebSocketServer
import WebSocketWire

/// One accepted client of a `FeedServer`, put together from the parts that serve it: the
/// upgrade (`UpgradeResponder`), the venue (`VenueSession` around the emulation's
/// `VenueEmulator`), the client's frames (`ClientReader`, on a thread of its own), the script
/// (`ScriptReplay`) and the ending (`EndingPlayer`) on the connection's thread, the venue's
/// deadlines on a third, and its lifetime (`ConnectionLife`).
final class ServerConnection: Sendable {
  private let stream: TCPStream
  /// Strong, as in every part of a connection: a connection's threads (its reader, its
  /// deadlines) may outlive `FeedServer.stop()` and the owner's last reference by a moment, and
  /// an unowned reference then crashed the demo ticker at exit. The cycle through
  /// `FeedServer`'s table of connections ends when the connection does.
  private let server: FeedServer
  private let plan: ConnectionPlan
  private let script: SessionScript
  private let life: ConnectionLife
  private let writer: ServerFrameWriter
  private let session: VenueSession

  init(stream: TCPStream, server: FeedServer, plan: ConnectionPlan, index: Int) {
    self.stream = stream
    self.server = server
    self.plan = plan
    let script = plan.script ?? server.script
    self.script = script
    let options = server.options
    life = ConnectionLife(timeScale: options.timeScale, maximumDelay: options.maximumDelay)
    writer = ServerFrameWriter(stream: stream)
    session = VenueSession(
      emulator: Self.emulator(
        options.emulation, script: script, ending: plan.ending, acceptAnySymbol: options.acceptAnySymbol),
      cues: plan.cues, writer: writer, life: life, server: server, index: index)
  }

  /// The emulator for `emulation`, knowing the symbols of `script` (and those an ending blasts),
  /// or every well-formed symbol with `acceptAnySymbol`.
  static func emulator(
    _ emulation: FeedServer.Options.Emulation, script: SessionScript, ending: ConnectionPlan.Ending,
    acceptAnySymbol: Bool = false
  ) -> any VenueEmulator {
    guard let venue = emulation.venue else { return VerbatimEmulator() }
    return venue.emulator(script: script, ending: ending, acceptAnySymbol: acceptAnySymbol)
  }

  /// Drops the connection at once (no close frame): `FeedServer.stop()`.
  func abort() {
    life.finish()
    stream.shutdown()
  }

  func run() {
    defer {
      life.finish()
      stream.close()
    }
    let input = ServerInput(stream: stream)
    let responder = UpgradeResponder(
      input: input, writer: writer, life: life, plan: plan, script: script,
      retryAfter: server.options.retryAfter, compression: server.options.compression)
    let upgraded = responder.respond(
      received: { request in
        let offers = ExtensionHeader.values(in: request.head).joined(separator: ", ")
        server.update {
          $0.connections += 1
          $0.targets.append(request.target)
          $0.extensionOffers.append(offers)
        }
      },
      admit: { [server, session] request in
        // The venue's limit on new connections needs every connection's count: the server's.
        guard server.admitsUpgrade() else {
          let violation = FeedServer.Violation.refusedHandshake("too many connections a second")
          server.update { $0.violations.append(violation) }
          return .refuse(status: 429, reason: "Too Many Requests", violation: violation)
        }
        return session.admit(request)
      })
    guard let (_, leftover, deflate) = upgraded else { return }
    if let deflate { server.update { $0.deflateAgreements.append(deflate.agreement) } }
    let reader = ClientReader(input: input, writer: writer, life: life, session: session, server: server)
    DedicatedThread.start { reader.run(initial: leftover) }
    DedicatedThread.start { [session] in session.runTimers() }
    // A market's trades start at once: the script is the emulator's templates, not a replay.
    let played: SessionScript
    if case .market = plan.ending { played = SessionScript(steps: []) } else { played = script }
    let replay = ScriptReplay(script: played, session: session, writer: writer, life: life)
    if replay.run(awaiting: server.options.awaitSubscriptions) {
      server.update { $0.scriptsCompleted += 1 }
      if !session.isClosing {
        EndingPlayer(session: session, writer: writer, life: life, server: server).play(plan.ending)
      }
    }
    // The venue has a close due (Upbit's, after an error): its timer sends it.
    if session.isClosing { life.waitForInterruption() }
    // The server began to end the connection (a close it sent): give the client time to answer.
    if life.isStopping { life.waitForEnd(seconds: 5) }
  }
}
