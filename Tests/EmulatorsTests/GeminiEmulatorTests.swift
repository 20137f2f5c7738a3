import Testing
import Venues

@testable import Emulators
@testable import JSON
@testable import Recording
@testable import TestSupport

/// Gemini's market data v2 as a pure state machine, driven with explicit instants.
@Suite("FeedServer: Gemini emulation (pure)")
struct GeminiEmulatorTests {
  static func emulator(rules: GeminiRules = GeminiRules(), acceptAnySymbol: Bool = false) throws
    -> GeminiEmulator
  {
    GeminiEmulator(script: try VenueTest.fixture("gemini"), rules: rules, acceptAnySymbol: acceptAnySymbol)
  }

  static func fixtureMessages() throws -> (client: [String], server: [String]) {
    let fixture = try VenueTest.fixture("gemini")
    return (VenueTest.clientMessages(fixture), VenueTest.dataSteps(fixture).map(\.body))
  }

  static func request(_ type: String, _ symbols: [String]) -> String {
    let list = symbols.map { #""\#($0)""# }.joined(separator: ",")
    return #"{"type":"\#(type)","subscriptions":[{"name":"l2","symbols":[\#(list)]}]}"#
  }

  static func refusal(_ reason: String) -> [EmulatorAction] {
    [.text(#"{"reason":"\#(reason)","result":"error"}"#), .violation(.invalidRequest(reason))]
  }

  static func texts(_ actions: [EmulatorAction]) -> [String] {
    actions.compactMap { if case .text(let text) = $0 { text } else { nil } }
  }

  /// A first book with nothing in it (a symbol the script never traded).
  static func emptyBook(_ symbol: String) -> String {
    #"{"type":"l2_updates","symbol":"\#(symbol)","changes":[],"trades":[],"auction_events":[]}"#
  }

  @Test(
    "the recorded session: the first book and the refusal word for word, trades and book changes replayed")
  func recordedSession() throws {
    var gemini = try Self.emulator()
    let (client, server) = try Self.fixtureMessages()
    // server: the first book, a trade, a book change, two trades, a change, a heartbeat, a change,
    // a trade, a change, the refusal, a change, a heartbeat, a trade, a change.
    // Subscribed at once, answered when the recorded answer goes by: its first book, remade.
    #expect(gemini.receive(.text(client[0]), at: VenueTest.at(0.005)).isEmpty)
    #expect(gemini.subscribed == ["BTCUSD"])
    #expect(
      gemini.outgoing(VenueTest.serverStep(.text, server[0]), at: VenueTest.at(0.098)) == [.text(server[0])])
    // The script's heartbeats and refusal are the emulator's to make, not to replay.
    for index in [6, 10, 12] {
      #expect(gemini.outgoing(VenueTest.serverStep(.text, server[index]), at: VenueTest.at(1)).isEmpty)
    }
    for index in [1, 2, 3, 4, 5, 7, 8, 9, 11, 13, 14] {
      #expect(
        gemini.outgoing(VenueTest.serverStep(.text, server[index]), at: VenueTest.at(1)) == [
          .text(server[index])
        ])
    }
    #expect(
      gemini.receive(.text(client[1]), at: VenueTest.at(7.3))
        == [.text(server[10]), .violation(.invalidRequest("NoValidTradingPairs"))])
    // The refusal changed nothing and the connection stays.
    #expect(gemini.subscribed == ["BTCUSD"] && !gemini.isClosing)
    #expect(gemini.requestCount == 2)
    #expect(
      gemini.lastPrices["BTCUSD"]?.price == "97412.55"
        && gemini.lastPrices["BTCUSD"]?.time == 1_791_469_275_681)
  }

  @Test("a later subscription's first book: the changes and the trades that went by, 50 trades at most")
  func firstBookMovesOn() throws {
    var gemini = try Self.emulator()
    let (client, server) = try Self.fixtureMessages()
    _ = gemini.receive(.text(client[0]), at: .zero)
    for body in server { _ = gemini.outgoing(VenueTest.serverStep(.text, body), at: VenueTest.at(1)) }
    #expect(gemini.receive(.text(Self.request("unsubscribe", ["BTCUSD"])), at: VenueTest.at(2)).isEmpty)
    #expect(gemini.subscribed.isEmpty)
    let again = Self.texts(gemini.receive(.text(Self.request("subscribe", ["BTCUSD"])), at: VenueTest.at(3)))
    #expect(again.count == 1)
    let book = try VenueTest.json(try #require(again.first))
    let trades = try #require(book["trades"]?.arrayValue)
    #expect(trades.count == 50)
    #expect(
      trades.prefix(6).compactMap { $0["price"]?.stringValue }
        == ["97412.55", "97412.59", "97412.55", "97412.58", "97412.61", "97412.58"])
    let changes = try #require(book["changes"]?.arrayValue).map { entry in
      (entry.arrayValue ?? []).compactMap(\.stringValue)
    }
    // 97412.58 was taken, 97412.55 partly, 97412.52 placed; the ask at 97412.59 came and went.
    #expect(
      changes.prefix(3) == [
        ["buy", "97412.55", "0.02626"], ["buy", "97412.52", "0.4"], ["buy", "97412.39", "0.5"],
      ])
    #expect(changes.first { $0.first == "sell" } == ["sell", "97412.61", "0.31187"])
    #expect(!changes.contains { $0[1] == "97412.58" || $0[1] == "97412.59" })
    #expect(book["auction_events"]?.arrayValue?.count == 2)
  }

  @Test("each symbol newly subscribed gets its first book; a request naming none Gemini lists is refused")
  func subscriptions() throws {
    var gemini = try Self.emulator()
    let answers = Self.texts(
      gemini.receive(.text(Self.request("subscribe", ["ETHUSD", "NOPEUSD", "SOLUSD", "ETHUSD"])), at: .zero))
    #expect(answers == [Self.emptyBook("ETHUSD"), Self.emptyBook("SOLUSD")])
    #expect(gemini.subscribed == ["ETHUSD", "SOLUSD"])
    // Subscribed again: nothing new. Lower case is not Gemini's spelling.
    #expect(gemini.receive(.text(Self.request("subscribe", ["ETHUSD"])), at: .zero).isEmpty)
    for symbols in [["NOPEUSD"], ["btcusd"], []] {
      #expect(
        gemini.receive(.text(Self.request("subscribe", symbols)), at: .zero)
          == Self.refusal("NoValidTradingPairs"))
    }
    // Other feeds than l2 are not emulated: nothing of Gemini's listed in them.
    #expect(
      gemini.receive(
        .text(#"{"type":"subscribe","subscriptions":[{"name":"candles_1m","symbols":["BTCUSD"]}]}"#),
        at: .zero)
        == Self.refusal("NoValidTradingPairs"))
    // Unsubscribing is not answered; a symbol not subscribed changes nothing.
    #expect(gemini.receive(.text(Self.request("unsubscribe", ["ETHUSD", "BTCUSD"])), at: .zero).isEmpty)
    #expect(gemini.subscribed == ["SOLUSD"])
    #expect(gemini.requestCount == 7)
    #expect(gemini.isReady(awaiting: 2) && !gemini.isReady(awaiting: 8))
  }

  @Test("messages that are no request: an error of the emulation's own, the connection stays")
  func notRequests() throws {
    var gemini = try Self.emulator()
    for text in ["nope", "[]", "ping"] {
      #expect(gemini.receive(.text(text), at: .zero) == Self.refusal("InvalidJson"))
    }
    for text in [
      #"{"type":"ping"}"#, #"{"type":"subscribe"}"#, #"{"type":"subscribe","subscriptions":[{"name":"l2"}]}"#,
      #"{"type":"subscribe","subscriptions":[{"name":"l2","symbols":[1]}]}"#, #"{"subscriptions":[]}"#,
    ] {
      #expect(gemini.receive(.text(text), at: .zero) == Self.refusal("InvalidRequest"), "\(text)")
    }
    #expect(
      gemini.receive(.binary(Array(Self.request("subscribe", ["ETHUSD"]).utf8)), at: .zero) == [
        .text(Self.emptyBook("ETHUSD"))
      ])
    #expect(gemini.receive(.ping([1]), at: .zero).isEmpty && gemini.receive(.pong([]), at: .zero).isEmpty)
    #expect(gemini.requestCount == 1 && !gemini.isClosing)
  }

  @Test("trades and book changes go out only for symbols subscribed, a symbol's first book before them")
  func filtering() throws {
    var gemini = try Self.emulator()
    let (_, server) = try Self.fixtureMessages()
    let trade = VenueTest.serverStep(.text, server[1])
    let change = VenueTest.serverStep(.text, server[2])
    #expect(gemini.outgoing(change, at: .zero).isEmpty)
    _ = gemini.receive(.text(Self.request("subscribe", ["ETHUSD"])), at: .zero)
    #expect(gemini.outgoing(change, at: .zero).isEmpty)
    #expect(gemini.receive(.text(Self.request("subscribe", ["BTCUSD"])), at: .zero).isEmpty)
    // The recorded first book has not come yet: the symbol's is sent before its trade.
    let first = gemini.outgoing(trade, at: .zero)
    #expect(first.count == 2 && first.last == .text(server[1]))
    let book = try VenueTest.json(try #require(Self.texts(first).first))
    #expect(book["type"]?.stringValue == "l2_updates" && book["trades"]?.arrayValue?.count == 50)
    #expect(gemini.outgoing(VenueTest.serverStep(.text, server[0]), at: .zero).isEmpty)
    #expect(gemini.outgoing(change, at: .zero) == [.text(server[2])])
    _ = gemini.receive(.text(Self.request("unsubscribe", ["BTCUSD"])), at: .zero)
    #expect(gemini.outgoing(trade, at: .zero).isEmpty)
  }

  @Test("a heartbeat every 5 s from the connection's start, subscribed or not; scaled; none when off")
  func heartbeats() throws {
    var gemini = try Self.emulator()
    #expect(gemini.nextDeadline == VenueTest.at(5))
    #expect(gemini.tick(at: VenueTest.at(4.999)).isEmpty)
    // A second before the script's first trade, plus the time since the connection opened.
    #expect(gemini.tick(at: VenueTest.at(5)) == [.text(#"{"type":"heartbeat","timestamp":1791469269458}"#)])
    #expect(gemini.nextDeadline == VenueTest.at(10))
    _ = gemini.receive(.text(Self.request("subscribe", ["BTCUSD"])), at: VenueTest.at(6))
    #expect(gemini.nextDeadline == VenueTest.at(10))
    #expect(gemini.tick(at: VenueTest.at(10)).count == 1)
    var fast = try Self.emulator(rules: GeminiRules().scaled(by: 0.1))
    #expect(fast.nextDeadline == VenueTest.at(0.5))
    #expect(fast.tick(at: VenueTest.at(0.5)).count == 1)
    var rules = GeminiRules()
    rules.heartbeatInterval = nil
    let silent = try Self.emulator(rules: rules)
    #expect(silent.nextDeadline == nil)
  }

  @Test("the feed is at /v2/marketdata; v1's per-symbol paths are not emulated")
  func paths() throws {
    let gemini = try Self.emulator()
    #expect(gemini.admit(try VenueTest.request("/v2/marketdata")) == .accept)
    #expect(gemini.admit(try VenueTest.request("/v2/marketdata?heartbeat=true")) == .accept)
    #expect(
      gemini.admit(try VenueTest.request("/v1/marketdata/BTCUSD"))
        == .refuse(
          status: 404, reason: "Not Found", violation: .refusedHandshake("unknown path /v1/marketdata/BTCUSD")
        ))
  }

  @Test("the demo's leniency: any symbol of Gemini's shape; without it, only those listed")
  func acceptAnySymbol() throws {
    var strict = try Self.emulator()
    #expect(
      strict.receive(.text(Self.request("subscribe", ["FILUSD"])), at: .zero)
        == Self.refusal("NoValidTradingPairs"))
    var lenient = try Self.emulator(acceptAnySymbol: true)
    #expect(
      lenient.receive(.text(Self.request("subscribe", ["FILUSD"])), at: .zero) == [
        .text(Self.emptyBook("FILUSD"))
      ])
    for symbol in ["filusd", "FIL-USD", "NOPE", "BTCGUSDPERP"] {
      #expect(
        lenient.receive(.text(Self.request("subscribe", [symbol])), at: .zero)
          == Self.refusal("NoValidTradingPairs"),
        "\(symbol)")
      #expect(lenient.walkStart(for: symbol) == nil)
    }
    #expect(lenient.walkStart(for: "FILUSD") == .dollars)
  }

  @Test(
    "the synthetic stream: trade messages with every field, two decimals, numbered after the script's; book changes between"
  )
  func synthetic() throws {
    var gemini = try Self.emulator()
    _ = gemini.receive(.text(Self.request("subscribe", ["BTCUSD", "ETHUSD"])), at: .zero)
    let start = try #require(gemini.lastPrices["BTCUSD"])
    #expect(start.price == "97412.55" && start.time == 1_791_469_275_681)
    var walk = SyntheticTrades(seed: 5, start: gemini.lastPrices)
    var times: [Int64] = []
    var ids: [Int64] = []
    let provider = GeminiProvider()
    for _ in 0..<20 {
      for action in gemini.synthetic(walk.nextTrades(symbols: gemini.subscribed, elapsedMilliseconds: 150)) {
        guard case .text(let text) = action else {
          Issue.record("\(action)")
          continue
        }
        let value = try VenueTest.json(text)
        // Each trade's book changes follow it: nothing to print for trades.
        if value["type"]?.stringValue == "l2_updates" {
          #expect(provider.decode(.text(text)) == .ignored("l2_updates"))
          continue
        }
        #expect(
          value.objectValue?.keys == ["type", "symbol", "event_id", "timestamp", "price", "quantity", "side"])
        let price = try #require(value["price"]?.stringValue)
        #expect(price.split(separator: ".").last?.count == 2, "\(price)")
        let quantity = try #require(value["quantity"]?.stringValue)
        #expect(!quantity.hasSuffix("0") && Price(quantity) != nil, "\(quantity)")
        #expect(["buy", "sell"].contains(value["side"]?.stringValue))
        times.append(try #require(value["timestamp"]?.numberText.flatMap { Int64($0) }))
        ids.append(try #require(value["event_id"]?.numberText.flatMap { Int64($0) }))
        #expect(provider.decode(.text(text)).quotes.map(\.price.text) == [price])
      }
    }
    #expect(times.count >= 20 && times == times.sorted() && times.first.map { $0 > start.time } == true)
    #expect(
      ids == ids.sorted() && Set(ids).count == ids.count && ids.first.map { $0 > 294_811_712_448 } == true)
  }

  @Test("the emulator's replies are what the provider takes them for")
  func replies() throws {
    var gemini = try Self.emulator()
    let provider = GeminiProvider()
    let (_, server) = try Self.fixtureMessages()
    _ = gemini.receive(.text(Self.request("subscribe", ["BTCUSD"])), at: .zero)
    let book = try #require(
      Self.texts(gemini.outgoing(VenueTest.serverStep(.text, server[0]), at: .zero)).first)
    guard case .history(let past) = provider.decode(.text(book)) else {
      Issue.record("not history")
      return
    }
    #expect(past.count == 50 && past.last?.price.text == "97412.58")
    let refused = try #require(
      Self.texts(gemini.receive(.text(Self.request("subscribe", ["NOPEUSD"])), at: .zero)).first)
    var context = DecodingContext()
    context.historyDue = ["NOPEUSD"]
    #expect(provider.decode(.text(refused), context: &context).venueSymbol == "NOPEUSD")
    let beat = try #require(Self.texts(gemini.tick(at: VenueTest.at(5))).first)
    #expect(provider.decode(.text(beat)) == .keepalive)
  }
}

extension GeminiEmulatorTests {
  @Test("the fuzz seeds decode alike through every path and frame")
  func fuzzSeeds() {
    let provider = GeminiProvider()
    for (name, text) in GeminiProvider.fuzzSeeds {
      let model = provider.decodeThroughModel(.text(text))
      #expect(provider.decode(.text(text)) == model, "\(name)")
      #expect(provider.decode(.binary(Array(text.utf8))) == model, "\(name)")
      if let fast = provider.fastDecode(.text(text)) { #expect(fast == model, "\(name)") }
    }
    #expect(GeminiProvider.fuzzSeeds.contains { provider.fastDecode(.text($0.text)) != nil })
  }
}

extension ProviderEvent {
  /// The symbol an error names, if it is one.
  fileprivate var venueSymbol: String? {
    if case .error(let error) = self { error.symbol } else { nil }
  }
}
