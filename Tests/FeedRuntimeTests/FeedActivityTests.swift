import Testing
import Venues
import WebSocketClient
import WebSocketWire

@testable import FeedRuntime
@testable import TestSupport

/// What a feed has done (`FeedActivity`), driven through the machine with explicit instants:
/// the figures `--metrics` shows, and `--stale-after`'s reports.
@Suite struct FeedActivityTests {
  typealias Machine = FeedMachine<TestInstant>

  static func machine(symbols: [String] = ["A", "B"], staleAfter: Duration? = nil) -> Machine {
    Machine(
      provider: TestVenue(), symbols: symbols, mode: .everyTrade, ticketPrefix: "t",
      activity: FeedActivity(staleAfter: staleAfter, tracksSymbols: true))
  }

  static func connect(_ m: inout Machine, at instant: TestInstant, attempt: Int = 0) {
    _ = m.opened(at: instant)
    _ = m.handle([.connected(attempt: attempt)], at: instant)
  }

  @Test func countsMessagesPricesAndReconnectsByWhy() {
    var m = Self.machine()
    Self.connect(&m, at: .zero)
    _ = m.handle(
      [.message(quote("A", "1", 1)), .message(quote("B", "2", 2)), .message(quote("Z", "3", 3))], at: .at(1))
    m.received = 2_000  // the wall clock the shell stamps each batch with
    _ = m.handle([.message(.text("hello"))], at: .at(2))
    _ = m.handle([.disconnected(reason: .silence(.seconds(5)), attempt: 1, retryIn: .zero)], at: .at(3))
    _ = m.handle(
      [.disconnected(reason: .peerClosed(CloseStatus(code: .goingAway)), attempt: 2, retryIn: .zero)],
      at: .at(4))
    let s = m.activity.statistics(at: .at(6), wall: 6_000, subscribed: 2)
    #expect(s.messages == 4)
    #expect(s.pricesReceived == 2)  // Z is not followed
    #expect(s.pricesOutput == 2)
    #expect(s.reconnects == ["silence": 1, "closed": 1])
    #expect(!s.connected && s.everConnected)
    #expect(s.sinceLastMessage == .seconds(4))
    #expect(s.symbols.map(\.symbol) == ["A", "B"])
    #expect(s.symbols.map(\.sinceLastPrice) == [.seconds(5), .seconds(5)])
  }

  @Test func aQuietSymbolIsReportedOnceThenItsRecovery() {
    var m = Self.machine(staleAfter: .seconds(10))
    Self.connect(&m, at: .zero)
    // B quotes, A never does; the venue keeps sending (B's prices).
    var reports: [FeedReport] = []
    for second in 1...25 {
      _ = m.handle([.message(quote("B", "\(second)", Int64(second)))], at: .at(Double(second)))
      reports += m.tick(at: .at(Double(second) + 0.5)).reports
    }
    #expect(reports == [.stale(symbol: "A", after: .seconds(10.5))])
    #expect(m.activity.statistics(at: .at(26), wall: 26_000, subscribed: 2).staleSymbols == ["A"])
    let back = m.handle([.message(quote("A", "7", 26))], at: .at(26))
    #expect(back.actions.reports == [.recovered(symbol: "A", after: .seconds(26))])
    #expect(m.activity.statistics(at: .at(26), wall: 26_000, subscribed: 2).staleSymbols == [])
  }

  @Test func nothingIsStaleWhileTheVenueItselfIsSilentOrGone() {
    var m = Self.machine(symbols: ["A"], staleAfter: .seconds(10))
    Self.connect(&m, at: .zero)
    // Not a message since the connection opened: the venue is silent, not the symbol.
    #expect(m.tick(at: .at(15)).reports == [])
    _ = m.handle([.disconnected(reason: .silence(.seconds(15)), attempt: 1, retryIn: .zero)], at: .at(15))
    #expect(m.tick(at: .at(30)).reports == [])
    // Back: A is owed a price from the new connection on, not from before.
    Self.connect(&m, at: .at(31), attempt: 1)
    _ = m.handle([.message(.text("hello"))], at: .at(38))
    #expect(m.tick(at: .at(39)).reports == [])
    _ = m.handle([.message(.text("hello"))], at: .at(41))
    #expect(m.tick(at: .at(41.5)).reports == [.stale(symbol: "A", after: .seconds(10.5))])
  }

  @Test func anUnfollowedSymbolLeavesTheRecord() {
    var m = Self.machine(staleAfter: .seconds(10))
    Self.connect(&m, at: .zero)
    _ = m.handle(.remove(["B"]), at: .at(1))
    _ = m.handle(.add(["C"]), at: .at(2))
    #expect(
      m.activity.statistics(at: .at(3), wall: 3_000, subscribed: 2).symbols.map(\.symbol) == ["A", "C"])
  }

  @Test func theCheckRunsOnItsOwnDeadline() {
    var m = Self.machine(staleAfter: .seconds(2))
    #expect(m.nextDeadline == nil)
    Self.connect(&m, at: .zero)
    #expect(m.nextDeadline == .at(0.5))  // a quarter of the limit
    #expect(FeedActivity<TestInstant>.checkInterval(.seconds(60)) == .seconds(1))
    #expect(FeedActivity<TestInstant>.checkInterval(.milliseconds(100)) == .milliseconds(50))
  }
}
