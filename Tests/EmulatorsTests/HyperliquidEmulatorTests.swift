import FeedRuntime
import Testing
import Venues
import WebSocketClient

@testable import Emulators
@testable import JSON
@testable import Recording
@testable import TestSupport
@testable import WebSocketWire

/// Hyperliquid's rules as a pure state machine, driven with explicit instants; and its recorded
/// session through the feed runtime.
@Suite("FeedServer: Hyperliquid emulation (pure)")
struct HyperliquidEmulatorTests {
  static func emulator(rules: HyperliquidRules = HyperliquidRules(), acceptAnySymbol: Bool = false) throws
    -> HyperliquidEmulator
  {
    HyperliquidEmulator(
      script: try VenueTest.fixture("hyperliquid"), rules: rules, acceptAnySymbol: acceptAnySymbol)
  }

  static func fixtureMessages() throws -> (client: [String], server: [String]) {
    let fixture = try VenueTest.fixture("hyperliquid")
    return (VenueTest.clientMessages(fixture), VenueTest.dataSteps(fixture).map(\.body))
  }

  static func request(_ method: String, _ coin: String) -> String {
    #"{"method":"\#(method)","subscription":{"type":"trades","coin":"\#(coin)"}}"#
  }

  static func refusal(_ refusal: HyperliquidWire.Refusal) -> [EmulatorAction] {
    [.text(HyperliquidWire.error(refusal.message)), .violation(.invalidRequest(refusal.message))]
  }

  static func fill(_ coin: String, _ price: String, _ time: Int) -> String {
    #"{"coin":"\#(coin)","side":"B","px":"\#(price)","sz":"0.1","time":\#(time),"hash":"0x00","tid":\#(time)}"#
  }

  static func trades(_ fills: String...) -> SessionScript.Step {
    VenueTest.serverStep(.text, #"{"channel":"trades","data":["# + fills.joined(separator: ",") + "]}")
  }

  @Test(
    "the recorded session: the greeting, the answer, the back-fill and fills, ping and pong, a coin refused")
  func recordedSession() throws {
    var hyperliquid = try Self.emulator()
    let (client, server) = try Self.fixtureMessages()
    // server: greeting, answer, back-fill, three blocks, pong, the error, a block.
    #expect(hyperliquid.nextDeadline == .zero)
    #expect(hyperliquid.tick(at: .zero) == [.text(server[0])])
    #expect(hyperliquid.receive(.text(client[0]), at: VenueTest.at(0.007)) == [.text(server[1])])
    #expect(hyperliquid.subscribed == ["BTC"])
    for (i, at) in [(2, 0.01), (3, 1.9), (4, 2.4), (5, 3.6)] {
      #expect(
        hyperliquid.outgoing(VenueTest.serverStep(.text, server[i]), at: VenueTest.at(at)) == [
          .text(server[i])
        ])
    }
    #expect(hyperliquid.receive(.text(client[1]), at: VenueTest.at(29.7)) == [.text(server[6])])
    #expect(
      hyperliquid.receive(.text(client[2]), at: VenueTest.at(29.8))
        == [
          .text(server[7]),
          .violation(.invalidRequest(#"Invalid subscription: {"type":"trades","coin":"NOPE"}"#)),
        ])
    // The refusal changed nothing and the connection stays: fills still flow.
    #expect(hyperliquid.subscribed == ["BTC"])
    #expect(
      hyperliquid.outgoing(VenueTest.serverStep(.text, server[8]), at: VenueTest.at(30.2)) == [
        .text(server[8])
      ])
    // The script's greeting, answers, pong and errors are the emulator's to make, not to replay.
    for reply in [server[0], server[1], server[6], server[7]] {
      #expect(hyperliquid.outgoing(VenueTest.serverStep(.text, reply), at: VenueTest.at(31)).isEmpty)
    }
    #expect(hyperliquid.requestCount == 2)
    #expect(hyperliquid.lastPrices["BTC"]?.price == "97435.0")
    #expect(hyperliquid.lastPrices["BTC"]?.time == 1_791_303_638_350)
  }

  @Test("fills go out only for coins subscribed; a later subscription gets the coin's recent fills first")
  func backFill() throws {
    var hyperliquid = try Self.emulator()
    _ = hyperliquid.tick(at: .zero)
    #expect(hyperliquid.outgoing(Self.trades(Self.fill("ETH", "3012.5", 1)), at: .zero).isEmpty)
    let many = (2...13).map { Self.fill("ETH", "30\($0).0", $0) }
    #expect(hyperliquid.outgoing(VenueTest.serverStep(.text, HyperliquidWire.trades([])), at: .zero).isEmpty)
    for fill in many { _ = hyperliquid.outgoing(Self.trades(fill), at: .zero) }
    let answer = hyperliquid.receive(.text(Self.request("subscribe", "ETH")), at: .zero)
    #expect(answer.first == .text(HyperliquidWire.answer("subscribe", coin: "ETH")))
    #expect(answer.count == 2)
    // The last ten fills, oldest first, as one trades message: the provider reads them all.
    guard case .text(let backFill)? = answer.last else {
      Issue.record("no back-fill")
      return
    }
    #expect(HyperliquidProvider().decode(.text(backFill)).quotes.map(\.time) == Array(4...13).map(Int64.init))
    let step = Self.trades(Self.fill("ETH", "3014.0", 14))
    #expect(hyperliquid.outgoing(step, at: .zero) == [.text(step.body)])
    // A message holding fills of two coins keeps those of subscribed coins.
    let mixed = Self.trades(Self.fill("SOL", "150.1", 15), Self.fill("ETH", "3015.0", 15))
    #expect(
      hyperliquid.outgoing(mixed, at: .zero) == [
        .text(#"{"channel":"trades","data":["# + Self.fill("ETH", "3015.0", 15) + "]}")
      ])
    #expect(
      hyperliquid.receive(.text(Self.request("unsubscribe", "ETH")), at: .zero)
        == [.text(HyperliquidWire.answer("unsubscribe", coin: "ETH"))])
    #expect(hyperliquid.outgoing(step, at: .zero).isEmpty)
    #expect(hyperliquid.subscribed.isEmpty)
  }

  @Test(
    "what Hyperliquid refuses, quoting it; nothing changes and the connection stays",
    arguments: [
      (
        Self.request("subscribe", "NOPE"),
        HyperliquidWire.Refusal.invalid(subscription: #"{"type":"trades","coin":"NOPE"}"#)
      ),
      (Self.request("subscribe", "btc"), .invalid(subscription: #"{"type":"trades","coin":"btc"}"#)),
      (
        #"{"method":"subscribe","subscription":{"type":"l2Book","coin":"BTC"}}"#,
        .invalid(subscription: #"{"type":"l2Book","coin":"BTC"}"#)
      ),
      (
        #"{"method":"subscribe","subscription":{"type":"trades"}}"#,
        .invalid(subscription: #"{"type":"trades"}"#)
      ),
      (
        Self.request("subscribe", "BTC"), .alreadySubscribed(subscription: #"{"type":"trades","coin":"BTC"}"#)
      ),
      (
        Self.request("unsubscribe", "ETH"),
        .alreadyUnsubscribed(subscription: #"{"type":"trades","coin":"ETH"}"#)
      ),
      (#"{"method":"subscribe"}"#, .unreadable(#"{"method":"subscribe"}"#)),
      (#"{"method":"post","id":1,"request":{}}"#, .unreadable(#"{"method":"post","id":1,"request":{}}"#)),
      ("ping", .unreadable("ping")),
      ("[1]", .unreadable("[1]")),
    ])
  func refused(request: String, refusal: HyperliquidWire.Refusal) throws {
    var hyperliquid = try Self.emulator()
    _ = hyperliquid.receive(.text(Self.request("subscribe", "BTC")), at: .zero)
    #expect(hyperliquid.receive(.text(request), at: .zero) == Self.refusal(refusal))
    #expect(hyperliquid.subscribed == ["BTC"])
    #expect(!hyperliquid.isClosing)
    // Each refusal decodes as an error; one of a coin names that coin.
    guard case .error(let error) = HyperliquidProvider().decode(.text(HyperliquidWire.error(refusal.message)))
    else {
      Issue.record("not an error")
      return
    }
    if case .invalid(let subscription) = refusal, subscription.contains(#""type":"trades","coin":""#) {
      #expect(error.symbol != nil)
    } else {
      #expect(error.symbol == nil)
    }
  }

  @Test("with any symbol accepted (the demo): any coin of the venue's shape")
  func lenient() throws {
    var hyperliquid = try Self.emulator(acceptAnySymbol: true)
    #expect(
      hyperliquid.receive(.text(Self.request("subscribe", "XLM")), at: .zero)
        == [.text(HyperliquidWire.answer("subscribe", coin: "XLM"))])
    #expect(hyperliquid.receive(.text(Self.request("subscribe", "xlm")), at: .zero).count == 2)
    #expect(hyperliquid.subscribed == ["XLM"])
    #expect(hyperliquid.walkStart(for: "XLM") == .dollars && hyperliquid.walkStart(for: "kPEPE") == .dollars)
    #expect(hyperliquid.walkStart(for: "xlm") == nil && hyperliquid.walkStart(for: "PURR/USDC") == nil)
  }

  @Test("a connection the venue sent nothing to for 60 s is closed; the ping's pong keeps it")
  func idle() throws {
    var hyperliquid = try Self.emulator()
    _ = hyperliquid.tick(at: .zero)  // the greeting
    _ = hyperliquid.receive(.text(Self.request("subscribe", "BTC")), at: VenueTest.at(1))
    #expect(hyperliquid.nextDeadline == VenueTest.at(61))
    #expect(hyperliquid.tick(at: VenueTest.at(60.9)).isEmpty)
    #expect(
      hyperliquid.receive(.text(#"{"method":"ping"}"#), at: VenueTest.at(60.9)) == [
        .text(HyperliquidWire.pong)
      ])
    #expect(hyperliquid.tick(at: VenueTest.at(61)).isEmpty)
    // A WebSocket ping is no message to the client.
    #expect(hyperliquid.receive(.ping([1]), at: VenueTest.at(100)).isEmpty)
    #expect(hyperliquid.tick(at: VenueTest.at(120.8)).isEmpty)
    #expect(
      hyperliquid.tick(at: VenueTest.at(120.9))
        == [.violation(.idle), .close(CloseStatus(code: .goingAway, reason: "idle"))])
    #expect(hyperliquid.isClosing && hyperliquid.nextDeadline == nil)
    #expect(hyperliquid.receive(.text(#"{"method":"ping"}"#), at: VenueTest.at(121)).isEmpty)
    // Scaled, and patient (the demo's) without the deadline.
    var scaled = try Self.emulator(rules: HyperliquidRules().scaled(by: 0.1))
    _ = scaled.tick(at: .zero)
    #expect(scaled.nextDeadline == VenueTest.at(6))
    let patient = try Self.emulator(rules: HyperliquidRules().patient())
    var started = patient
    _ = started.tick(at: .zero)
    #expect(started.nextDeadline == nil)
    #expect(HyperliquidProvider.idleDeadline(HyperliquidRules()) == 60)
  }

  @Test("more messages than the window allows, more subscriptions than the limit: refused")
  func limits() throws {
    var rules = HyperliquidRules()
    rules.messagesPerWindow = 3
    rules.messageWindow = 1
    var hyperliquid = try Self.emulator(rules: rules)
    for _ in 0..<3 { #expect(hyperliquid.receive(.text(#"{"method":"ping"}"#), at: .zero).count == 1) }
    #expect(
      hyperliquid.receive(.text(Self.request("subscribe", "BTC")), at: VenueTest.at(0.5))
        == [.text(HyperliquidWire.error("Too many messages")), .violation(.tooManyMessages)])
    #expect(hyperliquid.subscribed.isEmpty)
    #expect(hyperliquid.receive(.text(Self.request("subscribe", "BTC")), at: VenueTest.at(1.1)).count == 1)

    var few = HyperliquidRules()
    few.subscriptionLimit = 2
    var limited = try Self.emulator(rules: few)
    _ = limited.receive(.text(Self.request("subscribe", "BTC")), at: .zero)
    _ = limited.receive(.text(Self.request("subscribe", "ETH")), at: .zero)
    #expect(
      limited.receive(.text(Self.request("subscribe", "SOL")), at: .zero)
        == Self.refusal(.tooManySubscriptions(subscription: #"{"type":"trades","coin":"SOL"}"#)))
    #expect(limited.subscribed == ["BTC", "ETH"])
  }

  @Test("the synthetic stream: a trades message per trade of a subscribed coin, in the venue's shape")
  func synthetic() throws {
    var hyperliquid = try Self.emulator(rules: HyperliquidRules().scaled(by: 0.1))
    _ = hyperliquid.tick(at: .zero)
    _ = hyperliquid.receive(.text(Self.request("subscribe", "BTC")), at: .zero)
    var walk = SyntheticTrades(seed: 2026, start: hyperliquid.lastPrices)
    var count = 0
    for _ in 0..<20 {
      let trades = walk.nextTrades(symbols: ["BTC", "ETH"], elapsedMilliseconds: 150)
      for (trade, action) in zip(trades.filter { $0.symbol == "BTC" }, hyperliquid.synthetic(trades)) {
        guard case .text(let text) = action else {
          Issue.record("not text")
          continue
        }
        let fill = try #require(HyperliquidWire.fills(text).first)
        #expect(fill.keys == ["coin", "side", "px", "sz", "time", "hash", "tid", "users"])
        #expect(fill["side"]?.stringValue == (trade.up ? "B" : "A"))
        #expect(fill["hash"]?.stringValue?.utf8.count == 66)
        let quotes = HyperliquidProvider().decode(.text(text)).quotes
        #expect(quotes.map(\.price) == [Price(SyntheticTrades.format(cents: trade.cents))!])
        #expect(quotes.first?.price.text.contains(".") == true)
        #expect(quotes.first?.volume?.text.hasSuffix("0") == false)
        count += 1
      }
    }
    #expect(count > 10)
    // The stream's sends keep the connection: at its deadline it is counted as now.
    #expect(hyperliquid.tick(at: VenueTest.at(6)).isEmpty)
    #expect(
      hyperliquid.tick(at: VenueTest.at(12)) == [
        .violation(.idle), .close(CloseStatus(code: .goingAway, reason: "idle")),
      ])
    #expect(
      HyperliquidWire.price(cents: 9_743_200) == "97432.0"
        && HyperliquidWire.price(cents: 9_743_217) == "97432.17")
  }

  // MARK: Through the feed runtime

  static func published(_ actions: [FeedAction]) -> [String] {
    actions.flatMap { action -> [String] in
      guard case .publish(let quotes) = action else { return [] }
      return quotes.map(\.price.text)
    }
  }

  @Test(
    "the recorded session through the feed runtime: the back-fill prints its newest trade once, never again")
  func runtime() throws {
    let provider = HyperliquidProvider()
    var machine = FeedMachine<TestInstant>(provider: provider, symbols: ["BTC"], mode: .everyTrade)
    let (_, server) = try Self.fixtureMessages()
    let events = server.map { SessionEvent.message(.text($0)) }
    #expect(machine.opened(at: .zero) == [.text(Self.request("subscribe", "BTC"))])
    let first = Self.published(machine.handle(events, at: .at(1)).actions)
    #expect(Array(first.prefix(3)) == HyperliquidProvider.demoPrices)
    #expect(
      first == ["97432.0", "97431.0", "97432.0", "97433.0", "97432.0", "97434.0", "97435.0", "97435.0"])
    // Reconnected: the same back-fill holds nothing newer than what was printed.
    _ = machine.handle(
      [.disconnected(reason: .failed(.abnormalClosure), attempt: 1, retryIn: .seconds(1))], at: .at(2))
    _ = machine.opened(at: .at(3))
    let again = Self.published(machine.handle(Array(events.prefix(3)), at: .at(4)).actions)
    #expect(again.isEmpty)
    // A coin refused by name while running is taken back alone.
    let change = machine.handle(.add(["NOPE"]), at: .at(5))
    #expect(change.contains(.send([.text(Self.request("subscribe", "NOPE"))])))
    let refused = machine.handle([events[7]], at: .at(6)).actions
    #expect(
      refused.contains {
        if case .report(.changeRefused(_, let symbols)) = $0 { symbols == ["NOPE"] } else { false }
      })
    #expect(machine.subscriptions.symbols == ["BTC"])
  }
}
