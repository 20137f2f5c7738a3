import FeedRuntime
import Testing
import Venues

@testable import FeedRuntime
@testable import TestSupport
@testable import WebSocketWire

/// The feed machine with Kraken's provider and Kraken's own message shapes: answers per symbol,
/// a refused pair taken back alone (from the first subscription or a change), the ping every
/// 25 s, and the pacing of requests.
@Suite struct KrakenFeedMachineTests {
  typealias Machine = FeedMachine<TestInstant>

  static func machine(_ symbols: [String]) -> Machine {
    Machine(provider: KrakenProvider(), symbols: symbols, mode: .everyTrade, ticketPrefix: "t")
  }

  static func texts(_ messages: [WebSocketMessage]) -> [String] {
    messages.map { if case .text(let t) = $0 { t } else { "<binary>" } }
  }

  static func accepted(_ pair: String, id: Int) -> WebSocketMessage {
    .text(
      #"{"method":"subscribe","req_id":\#(id),"result":{"channel":"ticker","snapshot":true,"symbol":"\#(pair)"},"success":true,"time_in":"2026-09-21T14:02:11.462301Z","time_out":"2026-09-21T14:02:11.462318Z"}"#
    )
  }

  static func refused(_ pair: String, id: Int) -> WebSocketMessage {
    .text(
      #"{"error":"Currency pair not supported \#(pair)","method":"subscribe","req_id":\#(id),"success":false,"symbol":"\#(pair)","time_in":"2026-09-21T14:02:13.020113Z","time_out":"2026-09-21T14:02:13.020129Z"}"#
    )
  }

  static func ticker(_ pair: String, _ last: String, second: Int) -> WebSocketMessage {
    .text(
      #"{"channel":"ticker","type":"update","data":[{"symbol":"\#(pair)","bid":1.0,"bid_qty":1.0,"ask":1.0,"ask_qty":1.0,"last":\#(last),"volume":1.0,"vwap":1.0,"low":1.0,"high":1.0,"change":0.0,"change_pct":0.0,"timestamp":"2026-09-21T14:02:\#(second).000000Z"}]}"#
    )
  }

  static func error(_ pair: String, id: Int) -> VenueError {
    VenueError(message: "Currency pair not supported \(pair)", requestID: id, fatal: false, symbol: pair)
  }

  @Test func oneRequestSubscribesEveryPairAndEachAnswerNamesOne() {
    var m = Self.machine(["BTC/USD", "ETH/USD"])
    #expect(
      Self.texts(m.opened(at: .zero)) == [
        #"{"method":"subscribe","params":{"channel":"ticker","symbol":["BTC/USD","ETH/USD"]},"req_id":1}"#
      ])
    let actions = m.handle(
      [.message(Self.accepted("BTC/USD", id: 1)), .message(Self.accepted("ETH/USD", id: 1))], at: .at(0.1)
    ).actions
    #expect(actions.isEmpty)
    #expect(
      m.handle([.message(Self.ticker("ETH/USD", "2500.5", second: 12))], at: .at(1)).actions.published == [
        "ETH/USD 2500.5"
      ])
  }

  @Test func aPairRefusedInTheFirstSubscriptionIsTakenBackAndTheRestGoesOn() {
    var m = Self.machine(["BTC/USD", "XBT/USD"])
    _ = m.opened(at: .zero)
    let actions = m.handle(
      [.message(Self.accepted("BTC/USD", id: 1)), .message(Self.refused("XBT/USD", id: 1))], at: .at(0.1)
    ).actions
    #expect(actions == [.report(.changeRefused(Self.error("XBT/USD", id: 1), symbols: ["XBT/USD"]))])
    #expect(m.subscriptions.symbols == ["BTC/USD"])
    #expect(m.refusal == nil)
    #expect(
      m.handle([.message(Self.ticker("BTC/USD", "80912.4", second: 12))], at: .at(1)).actions.published == [
        "BTC/USD 80912.4"
      ])
    // The next connection asks only for what is left.
    _ = m.handle([.disconnected(reason: .failed(.abnormalClosure), attempt: 1, retryIn: .zero)], at: .at(2))
    #expect(
      Self.texts(m.opened(at: .at(3))) == [
        #"{"method":"subscribe","params":{"channel":"ticker","symbol":["BTC/USD"]},"req_id":2}"#
      ])
  }

  @Test func aPairRefusedInAChangeIsTakenBackAlone() {
    var m = Self.machine(["BTC/USD"])
    _ = m.opened(at: .zero)
    #expect(
      m.handle(.add(["eth/usd", "foo/usd"]), at: .at(1)).sent == [
        #"{"method":"subscribe","params":{"channel":"ticker","symbol":["ETH/USD","FOO/USD"]},"req_id":2}"#
      ])
    let actions = m.handle(
      [.message(Self.refused("FOO/USD", id: 2)), .message(Self.accepted("ETH/USD", id: 2))], at: .at(1.1)
    ).actions
    #expect(actions.reports == [.changeRefused(Self.error("FOO/USD", id: 2), symbols: ["FOO/USD"])])
    #expect(m.subscriptions.symbols == ["BTC/USD", "ETH/USD"])
    #expect(
      m.handle([.message(Self.ticker("FOO/USD", "1.0", second: 13))], at: .at(2)).actions.published == [])
  }

  @Test func everyPairRefusedEndsTheRun() {
    var m = Self.machine(["XBT/USD", "FOO/USD"])
    _ = m.opened(at: .zero)
    let first = m.handle([.message(Self.refused("XBT/USD", id: 1))], at: .at(0.1)).actions
    #expect(first == [.report(.changeRefused(Self.error("XBT/USD", id: 1), symbols: ["XBT/USD"]))])
    let second = m.handle([.message(Self.refused("FOO/USD", id: 1))], at: .at(0.2)).actions
    let all = VenueError(message: "every symbol was refused (FOO/USD, XBT/USD)", fatal: true)
    #expect(
      second == [
        .report(.changeRefused(Self.error("FOO/USD", id: 1), symbols: ["FOO/USD"])),
        .stop(.refused(all), beforeClose: []),
      ])
    #expect(m.refusal == all)
  }

  @Test func aRefusalOfAPairNoLongerFollowedIsOnlyReported() {
    var m = Self.machine(["BTC/USD", "FOO/USD"])
    _ = m.opened(at: .zero)
    _ = m.handle(.remove(["FOO/USD"]), at: .at(0.05))
    let actions = m.handle([.message(Self.refused("FOO/USD", id: 1))], at: .at(0.1)).actions
    #expect(actions == [.report(.venueError(Self.error("FOO/USD", id: 1)))])
    #expect(m.subscriptions.symbols == ["BTC/USD"])
  }

  @Test func refusalsThatNameNoPairAreReportedAndChangeNothing() {
    var m = Self.machine(["BTC/USD"])
    _ = m.opened(at: .zero)
    let rate = WebSocketMessage.text(
      #"{"error":"Exceeded msg rate","method":"subscribe","req_id":1,"success":false}"#)
    let unsubscribe = WebSocketMessage.text(
      #"{"error":"Subscription Not Found","method":"unsubscribe","req_id":1,"success":false,"symbol":"BTC/USD"}"#
    )
    let actions = m.handle([.message(rate), .message(unsubscribe)], at: .at(0.1)).actions
    #expect(
      actions.reports == [
        .venueError(VenueError(message: "Exceeded msg rate", requestID: 1, fatal: false)),
        .venueError(VenueError(message: "Subscription Not Found", requestID: 1, fatal: false)),
      ])
    #expect(!actions.contains { if case .stop = $0 { true } else { false } })
    #expect(m.subscriptions.symbols == ["BTC/USD"])
  }

  @Test func thePingGoesOutEvery25SecondsAndItsPongAndHeartbeatsAreSilent() {
    var m = Self.machine(["BTC/USD"])
    _ = m.opened(at: .zero)
    #expect(m.nextDeadline == .at(25))
    #expect(m.tick(at: .at(25)).sent == [#"{"method":"ping"}"#])
    #expect(m.nextDeadline == .at(50))
    let pong = WebSocketMessage.text(
      #"{"method":"pong","time_in":"2026-09-21T14:02:36.408921Z","time_out":"2026-09-21T14:02:36.408937Z"}"#)
    let quiet = m.handle([.message(pong), .message(.text(#"{"channel":"heartbeat"}"#))], at: .at(25.1))
      .actions
    #expect(quiet.isEmpty)
  }

  @Test func changesArePacedUnderFiveASecond() {
    var m = Self.machine(["BTC/USD"])
    _ = m.opened(at: .zero)  // one of the four allowed in any 1.5 s
    var sent: [String] = []
    for (i, pair) in ["ETH/USD", "SOL/USD", "XRP/USD", "ADA/USD", "DOT/USD"].enumerated() {
      sent += m.handle(.add([pair]), at: .at(0.1 * Double(i + 1))).sent
    }
    #expect(sent.count == 3)
    #expect(m.tick(at: .at(1.5)).sent.count == 1)
    #expect(m.tick(at: .at(1.6)).sent.count == 1)
    #expect(m.nextDeadline == .at(25))  // the ping; nothing else waits
  }

  @Test func unsubscribingBeforeClosingIsOneRequest() {
    var m = Self.machine(["BTC/USD", "ETH/USD"])
    _ = m.opened(at: .zero)
    #expect(
      Self.texts(m.unsubscribeAll()) == [
        #"{"method":"unsubscribe","params":{"channel":"ticker","symbol":["BTC/USD","ETH/USD"]},"req_id":2}"#
      ])
  }
}
