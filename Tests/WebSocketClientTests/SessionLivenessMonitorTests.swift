import Testing
import WebSocketClient
@testable import TestSupport

@Suite("Session liveness monitor")
struct SessionLivenessMonitorTests {
  typealias Instant = ManualClock.Instant
  static func at(_ seconds: Int) -> Instant { Instant(.seconds(seconds)) }

  func monitor(
    ping: Duration? = .seconds(30), pong: Duration = .seconds(10), silence: Duration? = .seconds(150),
    openedAt: Int = 100
  ) -> LivenessMonitor<Instant> {
    LivenessMonitor(
      pingInterval: ping, pongTimeout: pong, silenceTimeout: silence, openedAt: Self.at(openedAt))
  }

  @Test func firstPingIsDueOneIntervalAfterOpening() {
    let m = monitor()
    #expect(m.nextDeadline == Self.at(130))
    #expect(m.check(at: Self.at(129)) == .alive)
    #expect(m.check(at: Self.at(130)) == .sendPing)
  }

  @Test func answeredPingsKeepItAliveAndRepeatEveryInterval() {
    var m = monitor()
    m.sentPing(at: Self.at(130))
    #expect(m.nextDeadline == Self.at(140))
    #expect(m.check(at: Self.at(135)) == .alive)
    m.receivedPong(at: Self.at(131))
    #expect(m.lastSignOfLife == Self.at(131))
    #expect(m.nextDeadline == Self.at(160))
    #expect(m.check(at: Self.at(145)) == .alive)
    #expect(m.check(at: Self.at(160)) == .sendPing)
  }

  @Test func aMissedPongIsDeath() {
    var m = monitor()
    m.sentPing(at: Self.at(130))
    #expect(m.check(at: Self.at(139)) == .alive)
    #expect(m.check(at: Self.at(140)) == .pongOverdue)
    // No second ping while one is outstanding, even past the next interval.
    #expect(m.check(at: Self.at(175)) == .pongOverdue)
  }

  @Test func messagesDoNotAnswerAPing() {
    var m = monitor()
    m.sentPing(at: Self.at(130))
    m.receivedMessage(at: Self.at(135))
    #expect(m.check(at: Self.at(140)) == .pongOverdue)
  }

  @Test func silenceIsDeathAndEveryMessageRestartsTheWatch() {
    var m = monitor(ping: nil)
    #expect(m.nextDeadline == Self.at(250))
    #expect(m.check(at: Self.at(249)) == .alive)
    #expect(m.check(at: Self.at(250)) == .silent)
    m.receivedMessage(at: Self.at(200))  // e.g. Finnhub's {"type":"ping"}
    #expect(m.lastMessage == Self.at(200))
    #expect(m.nextDeadline == Self.at(350))
    #expect(m.check(at: Self.at(300)) == .alive)
    #expect(m.check(at: Self.at(350)) == .silent)
  }

  @Test("time our own consumer held the connection back counts against neither silence nor a pong")
  func heldBackRestartsTheWatches() {
    var m = monitor(ping: .seconds(30), pong: .seconds(10), silence: .seconds(60))
    m.sentPing(at: Self.at(130))
    m.heldBack(at: Self.at(139))
    #expect(m.check(at: Self.at(145)) == .alive)
    #expect(m.nextDeadline == Self.at(149))
    #expect(m.check(at: Self.at(149)) == .pongOverdue)
    // The silence watch starts again from there too, and it is no sign of life.
    m.receivedPong(at: Self.at(140))
    m.heldBack(at: Self.at(200))
    #expect(m.lastMessage == Self.at(200))
    #expect(m.lastSignOfLife == Self.at(140))
    #expect(m.check(at: Self.at(259)) == .sendPing)  // the ping due since 160, no silence yet
    #expect(m.check(at: Self.at(260)) == .silent)
  }

  @Test func pongsDoNotCountAsMessagesForTheSilenceWatch() {
    var m = monitor(ping: .seconds(30), silence: .seconds(60))
    m.sentPing(at: Self.at(130))
    m.receivedPong(at: Self.at(130))
    m.sentPing(at: Self.at(160))
    m.receivedPong(at: Self.at(160))
    #expect(m.check(at: Self.at(160)) == .silent)
  }

  @Test func theEarliestDeadlineWins() {
    var m = monitor(ping: .seconds(30), pong: .seconds(10), silence: .seconds(35))
    #expect(m.nextDeadline == Self.at(130))
    m.sentPing(at: Self.at(130))
    #expect(m.nextDeadline == Self.at(135))
    #expect(m.check(at: Self.at(135)) == .silent)
    m.receivedMessage(at: Self.at(134))
    #expect(m.nextDeadline == Self.at(140))
    #expect(m.check(at: Self.at(140)) == .pongOverdue)
  }

  @Test func everythingOffMeansNoDeadline() {
    let m = monitor(ping: nil, silence: nil)
    #expect(m.nextDeadline == nil)
    #expect(m.check(at: Self.at(1_000_000)) == .alive)
  }

  @Test func lateMessagesNeverMoveTimeBackwards() {
    var m = monitor()
    m.receivedMessage(at: Self.at(200))
    m.receivedMessage(at: Self.at(150))
    #expect(m.lastMessage == Self.at(200))
  }
}
