import FeedRuntime
import Testing
import Venues
import WebSocketClient

@testable import TestSupport
@testable import WebSocketWire

/// What venues send besides live trades: history on subscribing (a snapshot, trades folded into a
/// book, a back-fill that looks live) and channel ids that mean something only with what came
/// before. `TestVenue` plus "hist SYMBOL PRICE TIME[,PRICE TIME…]", "chan ID SYMBOL" and
/// "cq ID PRICE TIME" (a quote naming its channel only).
@Suite struct HistoryFeedMachineTests {
  typealias Machine = FeedMachine<TestInstant>

  struct HistoryVenue: Provider {
    var backFills = false
    var base = TestVenue()

    var name: String { "history" }
    var displayName: String { "History" }
    var defaultURL: WebSocketURL { base.defaultURL }
    var exampleSymbol: String { "A" }
    func market(of symbol: String) -> Market? { nil }
    func mainMarket(for asset: String) -> String? { nil }
    var subscriptionStyle: SubscriptionStyle { .incremental }
    func canonicalSymbol(_ symbol: String) -> Result<String, SymbolError> { base.canonicalSymbol(symbol) }
    func subscriptionMessages(from old: [String], to new: [String], ids: inout RequestIDs)
      -> [WebSocketMessage]
    {
      base.subscriptionMessages(from: old, to: new, ids: &ids)
    }
    var usesDecodingContext: Bool { true }
    var backFillsOnSubscribe: Bool { backFills }
    var sendsHistory: Bool { true }

    func decode(_ message: WebSocketMessage) -> ProviderEvent {
      var context = DecodingContext()
      return decode(message, context: &context)
    }

    func decode(_ message: WebSocketMessage, context: inout DecodingContext) -> ProviderEvent {
      guard case .text(let text) = message else { return .malformed("binary") }
      let words = text.split(separator: " ").map(String.init)
      switch words.first {
      case "hist" where words.count >= 4:
        var quotes: [Quote] = []
        var rest = words.dropFirst(2)
        while rest.count >= 2, let price = Price(rest.first!), let time = Int64(rest.dropFirst().first!) {
          quotes.append(Quote(symbol: words[1], price: price, time: time))
          rest = rest.dropFirst(2)
        }
        return .history(quotes)
      case "chan" where words.count == 3:
        context.channels[words[1]] = words[2]
        return .acknowledged(id: nil)
      case "cq" where words.count == 4:
        guard let symbol = context.channels[words[1]], let price = Price(words[2]), let time = Int64(words[3])
        else { return .ignored("unknown channel \(words[1])") }
        return .quotes([Quote(symbol: symbol, price: price, time: time)])
      default:
        return base.decode(message)
      }
    }
  }

  static func machine(_ venue: HistoryVenue = HistoryVenue(), symbols: [String] = ["A"]) -> Machine {
    Machine(provider: venue, symbols: symbols, mode: .everyTrade, ticketPrefix: "t")
  }

  static func messages(_ texts: String...) -> [SessionEvent] { texts.map { .message(.text($0)) } }

  @Test("history: each symbol's newest trade once, as its starting price; never one older than printed")
  func history() {
    var m = Self.machine(symbols: ["A", "B"])
    _ = m.opened(at: .zero)
    var actions = m.handle(Self.messages("hist A 1 10 3 30 2 20", "hist B 7 5"), at: .at(1)).actions
    #expect(actions.published == ["A 3", "B 7"])
    actions = m.handle(Self.messages("q A 4 40"), at: .at(2)).actions
    #expect(actions.published == ["A 4"])
    // The snapshot again (a reconnect): nothing newer than what was printed.
    actions = m.handle(Self.messages("hist A 3 30 4 40", "hist B 6 4"), at: .at(3)).actions
    #expect(actions.published.isEmpty)
    // A trade made while disconnected is newer: it is the starting price.
    actions = m.handle(Self.messages("hist A 4 40 5 50"), at: .at(4)).actions
    #expect(actions.published == ["A 5"])
    // History of a symbol not followed is filtered as any quote is.
    actions = m.handle(Self.messages("hist C 1 1"), at: .at(5)).actions
    #expect(actions.published.isEmpty)
  }

  @Test("a channel id means its symbol on the connection that assigned it, and nothing after it closes")
  func channels() {
    var m = Self.machine()
    _ = m.opened(at: .zero)
    var actions = m.handle(Self.messages("cq 7 1 1", "chan 7 A", "cq 7 2 2"), at: .at(1)).actions
    #expect(actions.published == ["A 2"])
    #expect(actions.reports.contains(.ignored("unknown channel 7")))
    _ = m.handle(
      [.disconnected(reason: .failed(.abnormalClosure), attempt: 1, retryIn: .seconds(1))], at: .at(2))
    _ = m.opened(at: .at(3))
    actions = m.handle(Self.messages("cq 7 3 3"), at: .at(4)).actions
    #expect(actions.published.isEmpty)
  }

  @Test("a back-filling venue: the first quotes of each newly subscribed symbol are history")
  func backFill() {
    var m = Self.machine(HistoryVenue(backFills: true), symbols: ["A"])
    _ = m.opened(at: .zero)
    var actions = m.handle(Self.messages("q A 1 10", "q A 2 20", "q A 3 30"), at: .at(1)).actions
    // The first message was the back-fill (one trade here); the rest are live.
    #expect(actions.published == ["A 1", "A 2", "A 3"])
    _ = m.handle(.add(["B"]), at: .at(2))
    actions = m.handle(Self.messages("q B 9 5", "q B 8 6"), at: .at(3)).actions
    #expect(actions.published == ["B 9", "B 8"])
    // Reconnected: A's back-fill again holds nothing newer than what was printed.
    _ = m.handle(
      [.disconnected(reason: .failed(.abnormalClosure), attempt: 1, retryIn: .seconds(1))], at: .at(4))
    _ = m.opened(at: .at(5))
    actions = m.handle(Self.messages("q A 3 30", "q B 8 6", "q A 4 40"), at: .at(6)).actions
    #expect(actions.published == ["A 4"])
  }
}
