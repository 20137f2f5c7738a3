import FeedRuntime
import Testing
import Venues
import WebSocketClient

@testable import TestSupport
@testable import WebSocketWire

/// The feed machine with OKX's provider: one request per instrument matched to its answer by
/// id, an unknown instrument taken back alone (from the first subscription as from a change),
/// the run ended when every instrument was refused, and the text `ping` on its interval.
@Suite struct OKXFeedMachineTests {
  typealias Machine = FeedMachine<TestInstant>

  static func machine(_ symbols: [String]) -> Machine {
    Machine(provider: OKXProvider(), symbols: symbols, mode: .everyTrade, ticketPrefix: "t")
  }

  static func texts(_ messages: [WebSocketMessage]) -> [String] {
    messages.map { if case .text(let t) = $0 { t } else { "<binary>" } }
  }

  static func subscribe(_ instrument: String, _ id: Int) -> String {
    #"{"id":"\#(id)","op":"subscribe","args":[{"channel":"tickers","instId":"\#(instrument)"}]}"#
  }

  static func ack(_ instrument: String, _ id: Int) -> SessionEvent {
    .message(
      .text(
        #"{"id":"\#(id)","event":"subscribe","arg":{"channel":"tickers","instId":"\#(instrument)"},"connId":"a"}"#
      ))
  }

  static func unknown(_ instrument: String, _ id: Int) -> SessionEvent {
    .message(
      .text(
        #"{"id":"\#(id)","event":"error","code":"60018","msg":"Wrong URL or channel:tickers,instId:\#(instrument) doesn't exist. Please use the correct URL, channel and parameters referring to API document.","connId":"a"}"#
      ))
  }

  static func ticker(_ instrument: String, _ last: String, _ ts: Int) -> SessionEvent {
    .message(
      .text(
        #"{"arg":{"channel":"tickers","instId":"\#(instrument)"},"data":[{"instType":"SPOT","instId":"\#(instrument)","last":"\#(last)","lastSz":"0.1","ts":"\#(ts)"}]}"#
      ))
  }

  @Test("an unknown instrument of the first subscription is taken back alone; the others print")
  func unknownAtStart() {
    var m = Self.machine(["BTC-USDT", "NOPE-USDT", "ETH-USDT"])
    #expect(
      Self.texts(m.opened(at: .zero))
        == [Self.subscribe("BTC-USDT", 1), Self.subscribe("NOPE-USDT", 2), Self.subscribe("ETH-USDT", 3)])
    let actions = m.handle(
      [
        Self.ack("BTC-USDT", 1), Self.unknown("NOPE-USDT", 2), Self.ack("ETH-USDT", 3),
        Self.ticker("BTC-USDT", "79412.6", 1),
      ],
      at: .at(1)
    ).actions
    guard case .changeRefused(let error, let symbols)? = actions.reports.first else {
      Issue.record("\(actions)")
      return
    }
    #expect(symbols == ["NOPE-USDT"] && error.symbol == "NOPE-USDT" && error.requestID == 2)
    #expect(!actions.contains { if case .stop = $0 { true } else { false } })
    #expect(actions.published == ["BTC-USDT 79412.6"])
    #expect(m.subscriptions.symbols == ["BTC-USDT", "ETH-USDT"])
    // Taken back on the wire too: closing unsubscribes only what the venue has.
    #expect(
      Self.texts(m.unsubscribeAll()) == [
        #"{"id":"4","op":"unsubscribe","args":[{"channel":"tickers","instId":"BTC-USDT"}]}"#,
        #"{"id":"5","op":"unsubscribe","args":[{"channel":"tickers","instId":"ETH-USDT"}]}"#,
      ])
  }

  @Test("an unknown instrument added while running is taken back; the rest goes on")
  func unknownAdded() {
    var m = Self.machine(["BTC-USDT"])
    _ = m.opened(at: .zero)
    _ = m.handle([Self.ack("BTC-USDT", 1)], at: .at(1))
    #expect(
      m.handle(.add(["sol-usdt", "nope-usdt"]), at: .at(2)).sent
        == [Self.subscribe("SOL-USDT", 2), Self.subscribe("NOPE-USDT", 3)])
    // The answers come in any order: each finds its request by id.
    let actions = m.handle([Self.unknown("NOPE-USDT", 3), Self.ack("SOL-USDT", 2)], at: .at(3)).actions
    #expect(actions.reports.count == 1)
    #expect(m.subscriptions.symbols == ["BTC-USDT", "SOL-USDT"])
  }

  @Test("every instrument refused: the run ends (exit 65)")
  func everyInstrumentRefused() {
    var m = Self.machine(["NOPE-USDT", "BAD-USDT"])
    _ = m.opened(at: .zero)
    let first = m.handle([Self.unknown("NOPE-USDT", 1)], at: .at(1)).actions
    #expect(!first.contains { if case .stop = $0 { true } else { false } })
    let second = m.handle([Self.unknown("BAD-USDT", 2)], at: .at(1)).actions
    let refusal = VenueError(message: "every symbol was refused (BAD-USDT, NOPE-USDT)", fatal: true)
    #expect(second.last == .stop(.refused(refusal), beforeClose: []))
    #expect(m.refusal == refusal)
  }

  @Test("a request OKX cannot read refuses the first subscription as such (exit 65)")
  func invalidRequestAtStart() {
    var m = Self.machine(["BTC-USDT"])
    _ = m.opened(at: .zero)
    let error = #"{"id":"1","event":"error","code":"60012","msg":"Invalid request: x","connId":"a"}"#
    let actions = m.handle([.message(.text(error))], at: .at(1)).actions
    guard case .stop(.refused(let refusal), _)? = actions.last else {
      Issue.record("\(actions)")
      return
    }
    #expect(refusal.name == "60012" && refusal.fatal)
  }

  @Test("the text ping every 20 s, whatever arrives; pong is proof of life, not news")
  func keepalive() {
    var m = Self.machine(["BTC-USDT"])
    _ = m.opened(at: .zero)
    #expect(m.nextDeadline == .at(20))
    #expect(m.tick(at: .at(19.9)).sent == [])
    _ = m.handle([Self.ticker("BTC-USDT", "1", 1)], at: .at(19.95))
    #expect(m.tick(at: .at(20)).sent == ["ping"])
    #expect(m.handle([.message(.text("pong"))], at: .at(20.03)).actions.isEmpty)
    #expect(m.nextDeadline == .at(40))
  }
}
