import Testing
import Venues
import WebSocketClient
import WebSocketWire

@testable import FeedRuntime
@testable import TestSupport

/// What a feed has done (`FeedActivity`), driven through the machine with explicit instants and
/// the wall clock the shell stamps each step with: the figures `--metrics` shows, and
/// `--stale-after`'s reports.
@Suite struct FeedActivityTests {
  typealias Machine = FeedMachine<TestInstant>

  /// The machine, and the wall clock moved with each step's instant (milliseconds from `base`).
  struct Driven {
    static let base: Int64 = 1_768_655_932_000
    var m: Machine

    init(symbols: [String] = ["A", "B"], staleAfter: Duration? = nil) {
      m = Machine(
        provider: TestVenue(), symbols: symbols, mode: .everyTrade, ticketPrefix: "t",
        activity: FeedActivity(staleAfter: staleAfter, tracksSymbols: true))
    }

    mutating func wall(_ seconds: Double) { m.received = Self.base + Int64(seconds * 1000) }

    mutating func connect(at seconds: Double, attempt: Int = 0) {
      wall(seconds)
      _ = m.opened(at: .at(seconds))
      _ = m.handle([.connected(attempt: attempt)], at: .at(seconds))
    }

    mutating func handle(_ events: [SessionEvent], at seconds: Double) -> [FeedAction] {
      wall(seconds)
      return m.handle(events, at: .at(seconds)).actions
    }

    mutating func command(_ command: SubscriptionCommand, at seconds: Double) {
      wall(seconds)
      _ = m.handle(command, at: .at(seconds))
    }

    mutating func tick(at seconds: Double) -> [FeedReport] {
      wall(seconds)
      return m.tick(at: .at(seconds)).reports
    }

    func statistics(at seconds: Double) -> FeedStatistics {
      m.activity.statistics(at: .at(seconds), wall: Self.base + Int64(seconds * 1000), subscribed: 2)
    }
  }

  @Test func countsMessagesPricesAndReconnectsByWhy() {
    var d = Driven()
    d.connect(at: 0)
    _ = d.handle(
      [.message(quote("A", "1", 1)), .message(quote("B", "2", 2)), .message(quote("Z", "3", 3))], at: 1)
    _ = d.handle([.message(.text("hello"))], at: 2)
    _ = d.handle([.disconnected(reason: .silence(.seconds(5)), attempt: 1, retryIn: .zero)], at: 3)
    _ = d.handle(
      [.disconnected(reason: .peerClosed(CloseStatus(code: .goingAway)), attempt: 2, retryIn: .zero)], at: 4)
    let s = d.statistics(at: 6)
    #expect(s.messages == 4)
    #expect(s.pricesReceived == 2)  // Z is not followed
    #expect(s.pricesOutput == 2)
    #expect(s.reconnects == ["silence": 1, "closed": 1])
    #expect(!s.connected && s.everConnected)
    #expect(s.sinceLastMessage == .seconds(4))
    #expect(s.symbols.map(\.symbol) == ["A", "B"])
    #expect(s.symbols.map(\.sinceLastPrice) == [.seconds(5), .seconds(5)])
  }

  @Test func aSymbolsLastPriceIsKeptToATenthOfASecond() {
    var d = Driven(symbols: ["A"])
    d.connect(at: 0)
    _ = d.handle([.message(quote("A", "1", 1))], at: 1)
    _ = d.handle([.message(quote("A", "2", 2))], at: 1.05)  // within the resolution: not noted
    #expect(d.statistics(at: 2).symbols.map(\.sinceLastPrice) == [.seconds(1)])
    _ = d.handle([.message(quote("A", "3", 3))], at: 1.5)
    #expect(d.statistics(at: 2).symbols.map(\.sinceLastPrice) == [.milliseconds(500)])
  }

  @Test func aQuietSymbolIsReportedOnceThenItsRecovery() {
    var d = Driven(staleAfter: .seconds(10))
    d.connect(at: 0)
    // B quotes, A never does; the venue keeps sending (B's prices).
    var reports: [FeedReport] = []
    for second in 1...25 {
      _ = d.handle([.message(quote("B", "\(second)", Int64(second)))], at: Double(second))
      reports += d.tick(at: Double(second) + 0.5)
    }
    #expect(reports == [.stale(symbol: "A", after: .seconds(10.5))])
    #expect(d.statistics(at: 26).staleSymbols == ["A"])
    #expect(
      d.handle([.message(quote("A", "7", 26))], at: 26).reports == [
        .recovered(symbol: "A", after: .seconds(26))
      ])
    #expect(d.statistics(at: 26).staleSymbols == [])
  }

  @Test func nothingIsStaleWhileTheVenueItselfIsSilentOrGone() {
    var d = Driven(symbols: ["A"], staleAfter: .seconds(10))
    d.connect(at: 0)
    // Not a message since the connection opened: the venue is silent, not the symbol.
    #expect(d.tick(at: 15) == [])
    _ = d.handle([.disconnected(reason: .silence(.seconds(15)), attempt: 1, retryIn: .zero)], at: 15)
    #expect(d.tick(at: 30) == [])
    // Back: A is owed a price from the new connection on, not from before.
    d.connect(at: 31, attempt: 1)
    _ = d.handle([.message(.text("hello"))], at: 38)
    #expect(d.tick(at: 39) == [])
    _ = d.handle([.message(.text("hello"))], at: 41)
    #expect(d.tick(at: 41.5) == [.stale(symbol: "A", after: .seconds(10.5))])
  }

  @Test func anUnfollowedSymbolLeavesTheRecord() {
    var d = Driven(staleAfter: .seconds(10))
    d.connect(at: 0)
    d.command(.remove(["B"]), at: 1)
    d.command(.add(["C"]), at: 2)
    #expect(d.statistics(at: 3).symbols.map(\.symbol) == ["A", "C"])
  }

  @Test func theCheckRunsOnItsOwnDeadline() {
    var d = Driven(staleAfter: .seconds(2))
    #expect(d.m.nextDeadline == nil)
    d.connect(at: 0)
    #expect(d.m.nextDeadline == .at(0.5))  // a quarter of the limit
    #expect(FeedActivity<TestInstant>.checkInterval(.seconds(60)) == .seconds(1))
    #expect(FeedActivity<TestInstant>.checkInterval(.milliseconds(100)) == .milliseconds(50))
  }
}
