import FeedRuntime
import Testing
import Venues
import WebSocketClient

@testable import TestSupport
@testable import WebSocketWire

/// The feed machine with Gemini's provider: each first book's newest trade printed once as the
/// starting price (and never again after a reconnect), book changes and heartbeats printing
/// nothing, and the refusal that names no symbol taken for the one subscription still waiting
/// for its book.
@Suite struct GeminiFeedMachineTests {
  typealias Machine = FeedMachine<TestInstant>

  static func machine(_ symbols: [String]) -> Machine {
    Machine(provider: GeminiProvider(), symbols: symbols, mode: .everyTrade, ticketPrefix: "t")
  }

  static func texts(_ messages: [WebSocketMessage]) -> [String] {
    messages.map { if case .text(let t) = $0 { t } else { "<binary>" } }
  }

  static func subscribe(_ symbol: String) -> String {
    #"{"type":"subscribe","subscriptions":[{"name":"l2","symbols":["\#(symbol)"]}]}"#
  }

  static func message(_ text: String) -> SessionEvent { .message(.text(text)) }

  /// A first book whose trades are (price, time), newest first, as Gemini lists them.
  static func book(_ symbol: String, _ trades: [(String, Int)]) -> SessionEvent {
    let entries = trades.map {
      #"{"type":"trade","symbol":"\#(symbol)","timestamp":\#($0.1),"price":"\#($0.0)"}"#
    }
    return message(
      #"{"type":"l2_updates","symbol":"\#(symbol)","changes":[["buy","1.00","2"]],"trades":[\#(entries.joined(separator: ","))],"auction_events":[]}"#
    )
  }

  static func trade(_ symbol: String, _ price: String, _ time: Int) -> SessionEvent {
    message(
      #"{"type":"trade","symbol":"\#(symbol)","event_id":1,"timestamp":\#(time),"price":"\#(price)","quantity":"0.1","side":"buy"}"#
    )
  }

  static let refusal = message(#"{"reason":"NoValidTradingPairs","result":"error"}"#)

  static func stops(_ actions: [FeedAction]) -> Bool {
    actions.contains { if case .stop = $0 { true } else { false } }
  }

  @Test("each first book's newest trade once, then trades; after a reconnect, nothing already printed")
  func history() {
    var m = Self.machine(["BTCUSD", "ETHUSD"])
    #expect(Self.texts(m.opened(at: .zero)) == [Self.subscribe("BTCUSD"), Self.subscribe("ETHUSD")])
    var actions = m.handle(
      [
        Self.book("BTCUSD", [("97412.58", 30), ("97410.40", 20), ("97409.69", 10)]),
        Self.book("ETHUSD", [("3612.10", 25)]), Self.trade("BTCUSD", "97412.61", 40),
        Self.message(#"{"type":"l2_updates","symbol":"BTCUSD","changes":[["sell","97412.61","0.3"]]}"#),
        Self.message(#"{"type":"heartbeat","timestamp":45}"#),
      ], at: .at(1)
    ).actions
    #expect(actions.published == ["BTCUSD 97412.58", "ETHUSD 3612.10", "BTCUSD 97412.61"])
    #expect(actions.reports == [.ignored("l2_updates")])
    _ = m.handle(
      [.disconnected(reason: .failed(.abnormalClosure), attempt: 1, retryIn: .seconds(1))], at: .at(2))
    _ = m.opened(at: .at(3))
    // The new first books repeat trades already printed; one made while away is the new start.
    actions =
      m.handle(
        [
          Self.book("BTCUSD", [("97412.61", 40), ("97412.58", 30)]),
          Self.book("ETHUSD", [("3612.35", 50), ("3612.10", 25)]), Self.trade("BTCUSD", "97412.59", 60),
        ], at: .at(4)
      ).actions
    #expect(actions.published == ["ETHUSD 3612.35", "BTCUSD 97412.59"])
  }

  @Test("an unknown symbol answered after the others' books: taken back alone, the others print")
  func unknownAtStart() {
    var m = Self.machine(["BTCUSD", "ETHUSD", "NOPEUSD"])
    _ = m.opened(at: .zero)
    let actions = m.handle(
      [
        Self.book("BTCUSD", [("1", 1)]), Self.book("ETHUSD", [("2", 2)]), Self.refusal,
        Self.trade("BTCUSD", "3", 3),
      ],
      at: .at(1)
    ).actions
    guard case .changeRefused(let error, let symbols)? = actions.reports.first else {
      Issue.record("\(actions)")
      return
    }
    #expect(symbols == ["NOPEUSD"] && error.symbol == "NOPEUSD" && error.name == "NoValidTradingPairs")
    #expect(!Self.stops(actions))
    #expect(actions.published == ["BTCUSD 1", "ETHUSD 2", "BTCUSD 3"])
    #expect(m.subscriptions.symbols == ["BTCUSD", "ETHUSD"])
    #expect(
      Self.texts(m.unsubscribeAll())
        == [#"{"type":"unsubscribe","subscriptions":[{"name":"l2","symbols":["BTCUSD","ETHUSD"]}]}"#])
  }

  @Test(
    "a refusal while several subscriptions wait for their book: reported without a name, nothing taken back")
  func unknownAmongOthersWaiting() {
    var m = Self.machine(["BTCUSD", "NOPEUSD", "ETHUSD"])
    _ = m.opened(at: .zero)
    let actions = m.handle(
      [Self.book("BTCUSD", [("1", 1)]), Self.refusal, Self.book("ETHUSD", [("2", 2)])], at: .at(1)
    )
    .actions
    #expect(
      actions.reports == [
        .venueError(VenueError(name: "NoValidTradingPairs", message: "no valid trading pairs", fatal: false))
      ])
    #expect(!Self.stops(actions))
    #expect(m.subscriptions.symbols == ["BTCUSD", "NOPEUSD", "ETHUSD"])
  }

  @Test("an unknown symbol added while running is taken back; the rest goes on")
  func unknownAdded() {
    var m = Self.machine(["BTCUSD"])
    _ = m.opened(at: .zero)
    _ = m.handle([Self.book("BTCUSD", [("1", 1)])], at: .at(1))
    #expect(m.handle(.add(["nopeusd"]), at: .at(2)).sent == [Self.subscribe("NOPEUSD")])
    let actions = m.handle([Self.refusal, Self.trade("BTCUSD", "2", 2)], at: .at(3)).actions
    #expect(actions.reports.count == 1)
    #expect(actions.published == ["BTCUSD 2"])
    #expect(m.subscriptions.symbols == ["BTCUSD"])
  }

  @Test("every symbol refused: the run ends (exit 65)")
  func everySymbolRefused() {
    var m = Self.machine(["NOPEUSD"])
    _ = m.opened(at: .zero)
    let actions = m.handle([Self.refusal], at: .at(1)).actions
    let refusal = VenueError(message: "every symbol was refused (NOPEUSD)", fatal: true)
    #expect(actions.last == .stop(.refused(refusal), beforeClose: []))
  }

  @Test("the client owes Gemini nothing: no keepalive, no deadline")
  func noKeepalive() {
    var m = Self.machine(["BTCUSD"])
    _ = m.opened(at: .zero)
    #expect(m.nextDeadline == nil)
    #expect(m.tick(at: .at(3600)).sent == [])
  }
}
