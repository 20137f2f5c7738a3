import FeedRuntime
import Outputs
import Testing
import Venues
import WebSocketClient

@testable import FeedRuntime
@testable import Outputs
@testable import Recording
@testable import TestSupport
@testable import WebSocketWire

/// The feed machine driven by hand: explicit instants, exact wire messages, exact actions.
@Suite struct FeedMachineTests {
  typealias Machine = FeedMachine<TestInstant>

  static func machine(
    _ venue: TestVenue = TestVenue(), symbols: [String] = ["A"], mode: PriceStageMode = .everyTrade
  ) -> Machine {
    Machine(provider: venue, symbols: symbols, mode: mode, ticketPrefix: "t")
  }

  static func texts(_ messages: [WebSocketMessage]) -> [String] {
    messages.map { if case .text(let t) = $0 { t } else { "<binary>" } }
  }

  // MARK: The current set on the wire

  @Test func aFreshConnectionGetsTheCurrentSet() {
    var m = Self.machine(symbols: ["A", "B"])
    #expect(Self.texts(m.opened(at: .zero)) == ["sub A,B #1"])
    #expect(m.handle(.add(["c"]), at: .at(1)).sent == ["sub C #2"])
    #expect(m.handle(.remove(["A"]), at: .at(2)).sent == ["unsub A #3"])
    #expect(m.handle(.replace(["C", "D"]), at: .at(3)).sent == ["unsub B #4", "sub D #5"])
    // Lost, then reconnected: the set as it is now, not the one it started with.
    _ = m.handle(
      [.disconnected(reason: .failed(.abnormalClosure), attempt: 1, retryIn: .seconds(1))], at: .at(4))
    #expect(m.handle(.add(["E"]), at: .at(5)).sent == [])  // not connected: nothing to send now
    #expect(Self.texts(m.opened(at: .at(6))) == ["sub C,D,E #6"])
  }

  @Test func changesThatChangeNothingSayNothingOnTheWire() {
    var m = Self.machine(symbols: ["A", "B"])
    _ = m.opened(at: .zero)
    let again = m.handle(.add(["A", "b"]), at: .at(1))
    #expect(again.sent == [])
    #expect(again.reports == [.subscriptionChanged(added: [], removed: [], now: ["A", "B"])])
    #expect(m.handle(.remove(["Z"]), at: .at(2)).sent == [])
    #expect(m.handle(.replace(["B", "A"]), at: .at(3)).sent == [])
  }

  @Test func aWholeListVenueGetsTheWholeListEveryTime() {
    var m = Self.machine(TestVenue(style: .wholeList), symbols: ["A"])
    #expect(Self.texts(m.opened(at: .zero)) == ["list A #t-1"])
    #expect(m.handle(.add(["B"]), at: .at(1)).sent == ["list A,B #t-2"])
    #expect(m.handle(.remove(["A"]), at: .at(2)).sent == ["list B #t-3"])
    #expect(m.handle(.add(["B"]), at: .at(3)).sent == [])
  }

  @Test func aSymbolTheVenueCannotHaveChangesNothing() {
    var m = Self.machine()
    _ = m.opened(at: .zero)
    let actions = m.handle(.add(["B", "no good"]), at: .at(1))
    #expect(actions.sent == [])
    #expect(actions.reports == [.controlError(.invalidSymbol("no good", "no spaces"))])
    #expect(m.subscriptions.symbols == ["A"])
  }

  @Test func controlLines() {
    var m = Self.machine()
    _ = m.opened(at: .zero)
    #expect(m.handle(controlLine: "+b,c", at: .at(1)).sent == ["sub B,C #2"])
    #expect(m.handle(controlLine: "?", at: .at(2)).reports == [.currentSet(["A", "B", "C"])])
    #expect(m.handle(controlLine: "hello", at: .at(3)).reports == [.controlError(.unknownCommand("hello"))])
    #expect(m.handle(controlLine: "", at: .at(4)).isEmpty)
    #expect(m.subscriptions.symbols == ["A", "B", "C"])
  }

  // MARK: Quotes

  @Test func onlySubscribedSymbolsArePublished() {
    var m = Self.machine(symbols: ["A"])
    _ = m.opened(at: .zero)
    let (actions, stopped) = m.handle(
      [.message(quote("A", "1", 1)), .message(quote("B", "2", 2)), .message(quote("A", "3", 3))], at: .at(1))
    #expect(stopped == nil)
    #expect(actions.published == ["A 1", "A 3"])
    #expect(actions.reports == [.notSubscribed(count: 1, example: "B")])
  }

  /// Finnhub's decoder vouches for quotes whose symbols it took from the filter's table, and the
  /// machine then skips its own filter pass: a message mixing subscribed and other symbols, or
  /// one only the model path reads, is still filtered and reported.
  @Test func finnhubQuotesAreFilteredWhateverTheDecoderVouchesFor() {
    var m = FeedMachine<TestInstant>(
      provider: FinnhubProvider(), symbols: ["A"], mode: .everyTrade, ticketPrefix: "t")
    _ = m.opened(at: .zero)
    func trades(_ symbols: [String]) -> SessionEvent {
      let items = symbols.enumerated().map { #"{"p":\#($0.offset + 1),"s":"\#($0.element)","t":1}"# }
      return .message(.text(#"{"data":[\#(items.joined(separator: ","))],"type":"trade"}"#))
    }
    let all = m.handle([trades(["A", "A"])], at: .at(1)).actions
    #expect(all.published == ["A 1", "A 2"])
    #expect(all.reports == [])
    let mixed = m.handle([trades(["A", "B", "A"])], at: .at(2)).actions
    #expect(mixed.published == ["A 1", "A 3"])
    #expect(mixed.reports == [.notSubscribed(count: 1, example: "B")])
    // An escape sends the message to the model path, which vouches for nothing.
    let model = m.handle([trades(["\\u0041", "C"])], at: .at(3)).actions
    #expect(model.published == ["A 1"])
    #expect(model.reports == [.notSubscribed(count: 1, example: "C")])
  }

  @Test func aRemovedSymbolsPendingPriceIsPublishedAndItsStateDropped() {
    var m = Self.machine(symbols: ["A", "B"], mode: .debounced(interval: .seconds(1), maxWait: .seconds(1)))
    _ = m.opened(at: .zero)
    #expect(
      m.handle([.message(quote("A", "5", 1)), .message(quote("B", "7", 2))], at: .at(0.1)).actions.published
        == [])
    let removed = m.handle(.remove(["A"]), at: .at(0.2))
    #expect(removed.published == ["A 5"])
    #expect(removed.sent == ["unsub A #2"])
    // B is still pending; A is gone and prints nothing more.
    #expect(m.tick(at: .at(1.1)).published == ["B 7"])
    #expect(m.handle([.message(quote("A", "5", 3))], at: .at(1.2)).actions.published == [])
    // Subscribed again, A starts afresh: the same price prints again (its dedupe state went).
    _ = m.handle(.add(["A"]), at: .at(1.3))
    _ = m.handle([.message(quote("A", "5", 4))], at: .at(1.4))
    #expect(m.tick(at: .at(2.5)).published == ["A 5"])
  }

  /// Whether the timer fired on time or late, what prints is the same: a removal first releases
  /// what was due, in deadline order, and so does the end of the run.
  @Test func aRemovalAfterAMissedDeadlineReleasesWhatWasDueFirst() {
    let mode = PriceStageMode.debounced(interval: .seconds(1), maxWait: .seconds(1))
    var onTime = Self.machine(symbols: ["A", "B"], mode: mode)
    var late = Self.machine(symbols: ["A", "B"], mode: mode)
    var printed: [[String]] = [[], []]
    for (index, timerOnTime) in [true, false].enumerated() {
      var m = timerOnTime ? onTime : late
      _ = m.opened(at: .zero)
      printed[index] += m.handle([.message(quote("A", "5", 1))], at: .at(0.1)).actions.published
      printed[index] += m.handle([.message(quote("B", "7", 2))], at: .at(0.2)).actions.published
      printed[index] += m.handle([.message(quote("A", "6", 3))], at: .at(0.5)).actions.published
      if timerOnTime {
        printed[index] += m.tick(at: .at(1.1)).published  // A, due at 1.1 (max wait)
        printed[index] += m.tick(at: .at(1.2)).published  // B, due at 1.2
      }
      printed[index] += m.handle(.remove(["A"]), at: .at(2.0)).published
      if timerOnTime { onTime = m } else { late = m }
    }
    #expect(printed[0] == ["A 6", "B 7"])
    #expect(printed[1] == printed[0])
  }

  @Test func theEndReleasesWhatWasDueInDeadlineOrderThenTheRest() {
    let mode = PriceStageMode.debounced(interval: .seconds(1), maxWait: .seconds(5))
    var m = Self.machine(symbols: ["A", "B", "C"], mode: mode)
    _ = m.opened(at: .zero)
    _ = m.handle([.message(quote("A", "5", 1))], at: .at(0.1))
    _ = m.handle([.message(quote("B", "7", 2))], at: .at(0.5))
    _ = m.handle([.message(quote("A", "6", 3))], at: .at(0.9))  // A now due at 1.9, after B (1.5)
    _ = m.handle([.message(quote("C", "9", 4))], at: .at(1.4))  // due at 2.4, after the end
    // Ended at 2.0 with the timer behind: B and A as the timer would have released them, then C.
    #expect(m.flush(at: .at(2.0)).map { "\($0.symbol) \($0.price.text)" } == ["B 7", "A 6", "C 9"])
  }

  @Test func aLargeMessageStopsTheBatchForTheShell() {
    var m = Self.machine()
    _ = m.opened(at: .zero)
    let big = WebSocketMessage.text(String(repeating: " ", count: LargeMessage.threshold))
    let (actions, stopped) = m.handle(
      [.message(quote("A", "1", 1)), .message(big), .message(quote("A", "2", 2))], at: .at(1))
    #expect(actions.published == ["A 1"])
    #expect(stopped == 1)
    #expect(m.handle([.message(quote("A", "1", 1)), .message(big)], from: 2, at: .at(1)).stoppedAt == nil)
  }

  // MARK: Answers from the venue

  @Test func aRefusedChangeTakesItsSymbolsBack() {
    var m = Self.machine(TestVenue(acknowledgement: .byID), symbols: ["A"])
    _ = m.opened(at: .zero)
    _ = m.handle([.message(.text("ack 1"))], at: .at(0.1))
    #expect(m.handle(.add(["B", "C"]), at: .at(1)).sent == ["sub B,C #2"])
    let refused = m.handle([.message(.text("err 2 Invalid request: invalid stream"))], at: .at(1.1)).actions
    #expect(
      refused.reports == [
        .changeRefused(
          VenueError(message: "Invalid request: invalid stream", requestID: 2, fatal: false),
          symbols: ["B", "C"])
      ])
    #expect(m.subscriptions.symbols == ["A"])
    #expect(m.handle([.message(quote("B", "1", 1))], at: .at(1.2)).actions.published == [])
    // The next connection gets the set without them.
    _ = m.handle(
      [.disconnected(reason: .peerClosed(CloseStatus(code: .policyViolation)), attempt: 1, retryIn: .zero)],
      at: .at(2))
    #expect(Self.texts(m.opened(at: .at(3))) == ["sub A #3"])
  }

  @Test func aRefusedFirstSubscriptionEndsTheRun() {
    var m = Self.machine(TestVenue(acknowledgement: .inOrder), symbols: ["A"])
    _ = m.opened(at: .zero)
    let error = VenueError(message: "no such symbol", requestID: 1, fatal: false)
    let actions = m.handle([.message(.text("err 1 no such symbol"))], at: .at(1)).actions
    #expect(actions == [.report(.venueError(error)), .stop(.refused(error), beforeClose: [])])
    #expect(m.refusal == error)
  }

  @Test func answersInOrderMatchTheirRequests() {
    var m = Self.machine(TestVenue(acknowledgement: .inOrder), symbols: ["A"])
    _ = m.opened(at: .zero)
    _ = m.handle(.add(["B"]), at: .at(1))
    _ = m.handle(.add(["C"]), at: .at(2))
    // The first answer is for the initial subscription, the error for the add of B.
    _ = m.handle([.message(.text("ack"))], at: .at(3))
    let refused = m.handle([.message(.text("err 0 B is not a valid product"))], at: .at(4)).actions
    #expect(refused.reports.count == 1)
    #expect(m.subscriptions.symbols == ["A", "C"])
  }

  @Test func aFatalErrorStopsAndAClosingVenueIsLeft() {
    var m = Self.machine()
    _ = m.opened(at: .zero)
    let fatal = VenueError(name: "FATAL", message: "WRONG_FORMAT", fatal: true)
    #expect(
      m.handle([.message(.text("fatal WRONG_FORMAT"))], at: .at(1)).actions == [
        .report(.venueError(fatal)), .stop(.refused(fatal), beforeClose: []),
      ])
    var other = Self.machine()
    _ = other.opened(at: .zero)
    #expect(
      other.handle([.message(.text("bye maintenance"))], at: .at(1)).actions == [
        .report(.closingSoon("maintenance")), .reconnect(reason: "maintenance"),
      ])
    #expect(
      other.handle([.message(.text("up")), .message(.text("news"))], at: .at(2)).actions == [
        .report(.ignored("news"))
      ])
  }

  // MARK: Time

  @Test func sendsArePacedUnderTheVenuesLimit() {
    var m = Self.machine(TestVenue(limits: VenueLimits(messagesPerSecond: 3)), symbols: ["A"])
    _ = m.opened(at: .zero)  // one message: one of the two allowed per second (one is kept for pongs)
    #expect(m.handle(.add(["B"]), at: .at(0.1)).sent == ["sub B #2"])
    #expect(m.handle(.add(["C"]), at: .at(0.2)).sent == [])
    #expect(m.handle(.add(["D"]), at: .at(0.3)).sent == [])
    // Two in any 1.5 s (a second and a margin for the way to the venue).
    #expect(m.nextDeadline == .at(1.5))
    #expect(m.tick(at: .at(1.4)).sent == [])
    #expect(m.tick(at: .at(1.5)).sent == ["sub C #3"])
    #expect(m.tick(at: .at(1.6)).sent == ["sub D #4"])
    #expect(m.nextDeadline == nil)
  }

  @Test func theVenuesKeepaliveGoesOutOnTime() {
    let ping = KeepaliveDuty(message: .text("PING"), interval: .seconds(25))
    var m = Self.machine(TestVenue(keepalive: ping))
    _ = m.opened(at: .zero)
    #expect(m.nextDeadline == .at(25))
    #expect(m.tick(at: .at(24)).sent == [])
    #expect(m.tick(at: .at(25)).sent == ["PING"])
    #expect(m.nextDeadline == .at(50))
    _ = m.handle([.disconnected(reason: .failed(.abnormalClosure), attempt: 1, retryIn: .zero)], at: .at(30))
    #expect(m.nextDeadline == nil)
  }

  @Test func aSymbolThatNeverQuotesIsWarnedAboutOnce() {
    var m = Self.machine(TestVenue(firstQuoteDeadline: .seconds(5)), symbols: ["A", "NOPE"])
    _ = m.opened(at: .zero)
    _ = m.handle([.message(quote("A", "1", 1))], at: .at(1))
    #expect(m.nextDeadline == .at(5))
    #expect(m.tick(at: .at(5)).reports == [.noQuoteYet(symbol: "NOPE", after: .seconds(5))])
    _ = m.handle([.disconnected(reason: .failed(.abnormalClosure), attempt: 1, retryIn: .zero)], at: .at(6))
    _ = m.opened(at: .at(7))
    #expect(m.nextDeadline == nil)
  }

  @Test func unsubscribingBeforeClosing() {
    var m = Self.machine(symbols: ["A", "B"])
    #expect(m.unsubscribeAll() == [])
    _ = m.opened(at: .zero)
    #expect(Self.texts(m.unsubscribeAll()) == ["unsub A,B #2"])
  }

  // MARK: Alerts and --until

  static func rule(_ text: String, ends: Bool) -> AlertBook.Rule {
    guard case .success(let condition) = AlertCondition.parse(text) else { fatalError(text) }
    return AlertBook.Rule(condition: condition, ends: ends)
  }

  @Test func alertsAreJudgedOnEveryTradeBeforeDebounce() {
    // A long debounce: only the last price would print, but the spike in between still counts.
    var m = Machine(
      provider: TestVenue(), symbols: ["A"],
      mode: PriceStageMode(debounce: .seconds(10), maxWait: .seconds(10), everyTrade: false),
      alerts: [Self.rule("A>10", ends: false)])
    _ = m.opened(at: .zero)
    let actions = m.handle(
      [.message(quote("A", "9", 1)), .message(quote("A", "11", 2)), .message(quote("A", "9.5", 3))],
      at: .at(1)
    ).actions
    #expect(actions.published == [])
    let fired = actions.reports.compactMap { if case .alert(let f) = $0 { f.quote.price.text } else { nil } }
    #expect(fired == ["11"])
  }

  @Test func untilStopsTheRunAndNothingIsPublishedAfter() {
    var m = Machine(
      provider: TestVenue(), symbols: ["A"], mode: .everyTrade, alerts: [Self.rule("A>=10", ends: true)])
    _ = m.opened(at: .zero)
    let actions = m.handle(
      [.message(quote("A", "9", 1)), .message(quote("A", "10", 2)), .message(quote("A", "11", 3))], at: .at(1)
    ).actions
    // Published up to the quote that met it, then the stop; what came after it is not.
    #expect(actions.published == ["A 9", "A 10"])
    #expect(actions.last == .stop(.stopped(.untilMet), beforeClose: []))
    #expect(m.untilMet)
    let later = m.handle([.message(quote("A", "12", 4))], at: .at(2)).actions
    #expect(later.published == [])
    #expect(later.reports.isEmpty)
  }

  @Test func alertSymbolsAreMatchedInTheServersSpelling() {
    var m = Machine(
      provider: TestVenue(), symbols: ["A"], mode: .everyTrade, alerts: [Self.rule("A<5", ends: false)])
    _ = m.opened(at: .zero)
    let actions = m.handle([.message(quote("A", "4", 1))], at: .at(1)).actions
    #expect(actions.reports.count == 1)
  }

  @Test func quotesAreStampedWithTheirReceiveTime() {
    var m = Self.machine()
    _ = m.opened(at: .zero)
    m.received = 1_768_655_933_012
    let actions = m.handle([.message(quote("A", "1", 1))], at: .at(1)).actions
    let quotes = actions.flatMap { action -> [Quote] in
      if case .publish(let q) = action { return q }
      return []
    }
    #expect(quotes.map(\.received) == [1_768_655_933_012])
    // A venue's message without a trade time: placed at its arrival.
    let untimed = m.handle([.message(quote("A", "2", 0))], at: .at(2)).actions.flatMap { action -> [Quote] in
      if case .publish(let q) = action { return q }
      return []
    }
    #expect(untimed.map(\.time) == [1_768_655_933_012])
  }

  // MARK: Every symbol refused

  @Test func theRunEndsWhenEverySymbolWasRefused() {
    var m = Self.machine(symbols: ["A", "B"])
    _ = m.opened(at: .zero)
    let first = m.handle([.message(.text("nosym A"))], at: .at(1)).actions
    #expect(!first.contains { if case .stop = $0 { true } else { false } })
    #expect(first.reports.count == 1)  // the venue's error itself is still reported
    let second = m.handle([.message(.text("nosym B"))], at: .at(2)).actions
    let refusal = VenueError(message: "every symbol was refused (A, B)", fatal: true)
    #expect(second.last == .stop(.refused(refusal), beforeClose: []))
    #expect(m.refusal == refusal)
  }

  @Test func removingTheLastGoodSymbolEndsTheRunToo() {
    var m = Self.machine(symbols: ["A", "B"])
    _ = m.opened(at: .zero)
    _ = m.handle([.message(.text("nosym A"))], at: .at(1))
    let actions = m.handle(.remove(["B"]), at: .at(2))
    #expect(
      actions.last
        == .stop(.refused(VenueError(message: "every symbol was refused (A)", fatal: true)), beforeClose: []))
  }

  @Test func askingAgainForARefusedSymbolForgetsTheRefusal() {
    var m = Self.machine(symbols: ["A", "B"])
    _ = m.opened(at: .zero)
    _ = m.handle([.message(.text("nosym A"))], at: .at(1))
    _ = m.handle(.remove(["A"]), at: .at(2))
    _ = m.handle(.add(["A"]), at: .at(3))
    // Only B refused now: A was asked for again and may yet quote.
    let actions = m.handle([.message(.text("nosym B"))], at: .at(4)).actions
    #expect(!actions.contains { if case .stop = $0 { true } else { false } })
  }
}
