import FeedRuntime
import Testing
import Venues

@testable import Emulators
@testable import Recording
@testable import TestSupport
@testable import TickerSupport

/// Bitfinex's rules as a pure state machine, driven with explicit instants.
@Suite("FeedServer: Bitfinex emulation (pure)")
struct BitfinexEmulatorTests {
  static func emulator(rules: BitfinexRules = BitfinexRules(), acceptAnySymbol: Bool = false) throws
    -> BitfinexEmulator
  {
    BitfinexEmulator(
      script: try VenueTest.fixture("bitfinex"), rules: rules, acceptAnySymbol: acceptAnySymbol)
  }

  static func fixtureMessages() throws -> (client: [String], server: [String]) {
    let fixture = try VenueTest.fixture("bitfinex")
    return (VenueTest.clientMessages(fixture), VenueTest.dataSteps(fixture).map(\.body))
  }

  static func subscribe(_ symbol: String, channel: String = "trades") -> ClientInput {
    .text(#"{"event":"subscribe","channel":"\#(channel)","symbol":"\#(symbol)"}"#)
  }

  static let info = EmulatorAction.text(BitfinexWire.info)

  /// A subscribed emulator (its info sent), and the actions of the subscription.
  static func subscribed(
    _ symbols: [String], rules: BitfinexRules = BitfinexRules(), at now: Duration = .zero
  )
    throws -> (BitfinexEmulator, [EmulatorAction])
  {
    var bitfinex = try emulator(rules: rules)
    var actions: [EmulatorAction] = []
    for symbol in symbols { actions += bitfinex.receive(subscribe(symbol), at: now) }
    return (bitfinex, actions)
  }

  @Test("the recorded session: info, the answer and snapshot word for word, trades, the refusal")
  func recordedSession() throws {
    var bitfinex = try Self.emulator()
    let (client, server) = try Self.fixtureMessages()
    // server: info, subscribed, snapshot, te/tu ×4, the error, a heartbeat, te, tu.
    #expect(bitfinex.nextDeadline == .zero)
    #expect(bitfinex.tick(at: .zero) == [.text(server[0])])
    #expect(
      bitfinex.receive(.text(client[0]), at: VenueTest.at(0.005)) == [.text(server[1]), .text(server[2])])
    #expect(bitfinex.subscribed == ["tBTCUSD"])
    for (i, at) in [(3, 0.4), (4, 0.42), (5, 0.6), (6, 0.62), (7, 0.7), (8, 0.72), (9, 1.8), (10, 1.82)] {
      #expect(
        bitfinex.outgoing(VenueTest.serverStep(.text, server[i]), at: VenueTest.at(at)) == [.text(server[i])])
    }
    #expect(
      bitfinex.receive(.text(client[1]), at: VenueTest.at(4.5))
        == [.text(server[11]), .violation(.invalidRequest("symbol: invalid"))])
    #expect(bitfinex.subscribed == ["tBTCUSD"])
    // The heartbeat is the venue's own, 15 s after the channel last carried something.
    #expect(bitfinex.outgoing(VenueTest.serverStep(.text, server[12]), at: VenueTest.at(5)).isEmpty)
    #expect(bitfinex.nextDeadline == VenueTest.at(16.82))
    #expect(bitfinex.tick(at: VenueTest.at(16.82)) == [.text(server[12])])
    for i in [13, 14] {
      #expect(
        bitfinex.outgoing(VenueTest.serverStep(.text, server[i]), at: VenueTest.at(18)) == [.text(server[i])])
    }
    // The script's own answers, info and snapshot are the emulator's to make, not to replay.
    for reply in [server[0], server[1], server[2], server[11]] {
      #expect(bitfinex.outgoing(VenueTest.serverStep(.text, reply), at: VenueTest.at(19)).isEmpty)
    }
    #expect(bitfinex.requestCount == 2)
  }

  @Test("info comes first, whatever comes first: a request, a scripted step or the timer")
  func infoFirst() throws {
    var bitfinex = try Self.emulator()
    let answer = bitfinex.receive(Self.subscribe("tETHUSD"), at: .zero)
    #expect(answer.first == Self.info)
    #expect(answer.count == 3)
    #expect(bitfinex.tick(at: .zero).isEmpty)
    var other = try Self.emulator()
    #expect(other.outgoing(VenueTest.serverStep(.text, "[17470,\"hb\"]"), at: .zero) == [Self.info])
  }

  @Test("each pair gets a channel of its own, the recorded one first; trades go out on it, rewritten")
  func channels() throws {
    let (_, server) = try Self.fixtureMessages()
    let (subscribed, actions) = try Self.subscribed(["tETHUSD", "tBTCUSD"])
    var bitfinex = subscribed
    #expect(
      actions == [
        Self.info, .text(BitfinexWire.subscribed(channel: 17471, symbol: "tETHUSD")),
        .text(BitfinexWire.snapshot(channel: 17471, [])), .text(server[1]), .text(server[2]),
      ])
    #expect(bitfinex.subscribed == ["tETHUSD", "tBTCUSD"])
    // Unsubscribed and subscribed again: a new channel, and its snapshot has the trades since.
    _ = bitfinex.outgoing(VenueTest.serverStep(.text, server[3]), at: .zero)
    #expect(
      bitfinex.receive(.text(#"{"event":"unsubscribe","chanId":17470}"#), at: .zero)
        == [.text(BitfinexWire.unsubscribed(channel: 17470))])
    #expect(bitfinex.outgoing(VenueTest.serverStep(.text, server[5]), at: .zero).isEmpty)
    let again = bitfinex.receive(Self.subscribe("tBTCUSD"), at: .zero)
    #expect(again.first == .text(BitfinexWire.subscribed(channel: 17472, symbol: "tBTCUSD")))
    guard case .text(let snapshot)? = again.last else {
      Issue.record("no snapshot")
      return
    }
    #expect(snapshot.hasPrefix("[17472,[[1842915709,1791966065612,-1.7023900800000002,97411],[1842915708,"))
    #expect(
      bitfinex.outgoing(VenueTest.serverStep(.text, server[7]), at: .zero)
        == [.text(#"[17472,"te",[1842915710,1791966065705,0.26,97415]]"#)])
  }

  @Test(
    "what Bitfinex refuses: an error echoing the request, and the connection stays",
    arguments: [
      (
        #"{"event":"subscribe","channel":"trades","symbol":"tNOPEUSD"}"#,
        #"{"channel":"trades","symbol":"tNOPEUSD","event":"error","msg":"symbol: invalid","code":10300,"pair":"NOPEUSD"}"#
      ),
      (
        #"{"event":"subscribe","channel":"trades","symbol":"btcusd"}"#,
        #"{"channel":"trades","symbol":"btcusd","event":"error","msg":"symbol: invalid","code":10300,"pair":"btcusd"}"#
      ),
      (
        #"{"event":"subscribe","channel":"book","symbol":"tBTCUSD"}"#,
        #"{"channel":"book","symbol":"tBTCUSD","event":"error","msg":"channel: unknown","code":10300,"pair":"BTCUSD"}"#
      ),
      (
        #"{"event":"unsubscribe","chanId":5}"#,
        #"{"event":"error","msg":"unsubscribe: invalid","code":10400,"chanId":5}"#
      ),
      (#"{"event":"nope"}"#, #"{"event":"error","msg":"event: invalid (nope)","code":10000}"#),
      (#"{"channel":"trades"}"#, #"{"event":"error","msg":"event: invalid","code":10000}"#),
      ("[]", #"{"event":"error","msg":"event: invalid","code":10000}"#),
    ])
  func refused(request: String, answer: String) throws {
    var (bitfinex, _) = try Self.subscribed(["tBTCUSD"])
    let actions = bitfinex.receive(.text(request), at: .zero)
    #expect(actions.first == .text(answer))
    #expect(actions.count == 2)
    #expect(bitfinex.subscribed == ["tBTCUSD"])
    #expect(!bitfinex.isClosing)
  }

  @Test("already subscribed: the open channel named, no harm done; a pair without its t is taken")
  func duplicateAndBarePair() throws {
    var (bitfinex, _) = try Self.subscribed(["tBTCUSD"])
    #expect(
      bitfinex.receive(Self.subscribe("tBTCUSD"), at: .zero) == [
        .text(
          #"{"channel":"trades","symbol":"tBTCUSD","event":"error","msg":"subscribe: dup","code":10301,"chanId":17470,"pair":"BTCUSD"}"#
        )
      ])
    let bare = bitfinex.receive(Self.subscribe("ETHUSD"), at: .zero)
    #expect(bare.first == .text(BitfinexWire.subscribed(channel: 17471, symbol: "tETHUSD")))
    #expect(bitfinex.subscribed == ["tBTCUSD", "tETHUSD"])
    #expect(bitfinex.requestCount == 3)
  }

  @Test("past the channel limit: 10305 naming the pair, and nothing changes")
  func channelLimit() throws {
    var rules = BitfinexRules()
    rules.channelsPerConnection = 2
    var (bitfinex, _) = try Self.subscribed(["tBTCUSD", "tETHUSD"], rules: rules)
    #expect(
      bitfinex.receive(Self.subscribe("tSOLUSD"), at: .zero) == [
        .text(
          #"{"channel":"trades","symbol":"tSOLUSD","event":"error","msg":"subscribe: limit","code":10305,"pair":"SOLUSD"}"#
        ), .violation(.invalidRequest("subscribe: limit")),
      ])
    #expect(bitfinex.subscribed == ["tBTCUSD", "tETHUSD"])
  }

  @Test("ping gets pong with its cid, conf its answer; text that is not JSON gets nothing")
  func pingConfAndNoise() throws {
    var bitfinex = try Self.emulator()
    _ = bitfinex.tick(at: .zero)
    #expect(
      bitfinex.receive(.text(#"{"event":"ping","cid":1234}"#), at: VenueTest.at(2.5))
        == [.text(#"{"event":"pong","ts":1791966053410,"cid":1234}"#)])
    #expect(
      bitfinex.receive(.text(#"{"event":"conf","flags":65536}"#), at: .zero)
        == [.text(#"{"event":"conf","status":"OK","flags":65536}"#)])
    #expect(bitfinex.receive(.text("hello"), at: .zero).isEmpty)
    #expect(bitfinex.receive(.ping([1]), at: .zero).isEmpty)
    #expect(bitfinex.requestCount == 0)
  }

  @Test("a quiet channel gets a heartbeat every 15 s; a channel carrying trades does not")
  func heartbeats() throws {
    let (_, server) = try Self.fixtureMessages()
    var (bitfinex, _) = try Self.subscribed(["tBTCUSD", "tETHUSD"], at: VenueTest.at(1))
    #expect(bitfinex.nextDeadline == VenueTest.at(16))
    _ = bitfinex.outgoing(VenueTest.serverStep(.text, server[3]), at: VenueTest.at(10))
    #expect(bitfinex.tick(at: VenueTest.at(15.9)).isEmpty)
    #expect(bitfinex.tick(at: VenueTest.at(16)) == [.text(#"[17471,"hb"]"#)])
    #expect(bitfinex.nextDeadline == VenueTest.at(25))
    #expect(bitfinex.tick(at: VenueTest.at(25)) == [.text(#"[17470,"hb"]"#)])
    #expect(bitfinex.tick(at: VenueTest.at(31)) == [.text(#"[17471,"hb"]"#)])
    // The synthetic stream's trades count at the deadline (they carry no instant).
    var walk = SyntheticTrades(seed: 3, start: bitfinex.lastPrices)
    _ = bitfinex.synthetic(walk.nextTrades(symbols: ["tBTCUSD"], elapsedMilliseconds: 150))
    #expect(bitfinex.tick(at: VenueTest.at(40)) == [])
    #expect(bitfinex.tick(at: VenueTest.at(46)) == [.text(#"[17471,"hb"]"#)])
    #expect(bitfinex.tick(at: VenueTest.at(55)) == [.text(#"[17470,"hb"]"#)])
  }

  @Test("no channel and a silent client: dropped after 60 s (scaled); a channel keeps the connection")
  func idle() throws {
    var bitfinex = try Self.emulator(rules: BitfinexRules().scaled(by: 0.1))
    _ = bitfinex.tick(at: .zero)
    #expect(bitfinex.nextDeadline == VenueTest.at(6))
    #expect(bitfinex.receive(.text(#"{"event":"ping","cid":1}"#), at: VenueTest.at(5)).count == 1)
    #expect(bitfinex.nextDeadline == VenueTest.at(11))
    #expect(bitfinex.tick(at: VenueTest.at(10.9)).isEmpty)
    #expect(bitfinex.tick(at: VenueTest.at(11)) == [.violation(.idle), .drop])
    #expect(bitfinex.isClosing && bitfinex.nextDeadline == nil)
    var (kept, _) = try Self.subscribed(["tBTCUSD"], rules: BitfinexRules().scaled(by: 0.1))
    for second in stride(from: 1.5, through: 120, by: 1.5) {
      #expect(kept.tick(at: VenueTest.at(second)) == [.text(#"[17470,"hb"]"#)])
    }
    #expect(!kept.isClosing)
    #expect(BitfinexRules().patient().idleTimeout == nil)
  }

  @Test("the demo's leniency: any well-formed pair; without it, only those listed")
  func acceptAnySymbol() throws {
    var strict = try Self.emulator()
    #expect(strict.receive(Self.subscribe("tXLMUSD"), at: .zero).count == 3)  // info, error, violation
    var lenient = try Self.emulator(acceptAnySymbol: true)
    #expect(
      lenient.receive(Self.subscribe("tXLMUSD"), at: .zero) == [
        Self.info, .text(BitfinexWire.subscribed(channel: 17471, symbol: "tXLMUSD")),
        .text(BitfinexWire.snapshot(channel: 17471, [])),
      ])
    #expect(lenient.receive(Self.subscribe("txlmusd"), at: .zero).count == 2)
    #expect(lenient.walkStart(for: "tXLMUSD") == .dollars)
    #expect(lenient.walkStart(for: "tXLM:USD:X") == nil && lenient.walkStart(for: "XLMUSD") == nil)
  }

  @Test("the synthetic stream: te messages, prices as the walk writes them, the amount signed by the side")
  func synthetic() throws {
    var (bitfinex, _) = try Self.subscribed(["tBTCUSD"])
    let start = try #require(bitfinex.lastPrices["tBTCUSD"])
    #expect(start.price == "97409" && start.time == 1_791_966_083_402)
    var walk = SyntheticTrades(seed: 5, start: bitfinex.lastPrices)
    var times: [Int64] = []
    var ids: [Int64] = []
    for _ in 0..<20 {
      let trades = walk.nextTrades(symbols: bitfinex.subscribed, elapsedMilliseconds: 150)
      let actions = bitfinex.synthetic(trades)
      #expect(actions.count == trades.count)
      for (trade, action) in zip(trades, actions) {
        guard case .text(let te) = action else {
          Issue.record("\(action)")
          continue
        }
        #expect(te.hasPrefix(#"[17470,"te",["#))
        let fields = try #require(try VenueTest.json(te).arrayValue?[2].arrayValue)
        ids.append(try #require(fields[0].numberText.flatMap { Int64($0) }))
        times.append(try #require(fields[1].numberText.flatMap { Int64($0) }))
        let amount = try #require(fields[2].numberText)
        #expect(amount.hasPrefix("-") == !trade.up, "\(amount)")
        #expect(Price(amount)?.text == amount && !amount.hasSuffix("0"), "\(amount)")
        #expect(fields[3].numberText == SyntheticTrades.format(cents: trade.cents))
      }
    }
    #expect(times.count >= 20 && times == times.sorted() && times.first.map { $0 > start.time } == true)
    #expect(ids == Array(1_842_915_713..<(1_842_915_713 + Int64(ids.count))))
  }

  @Test(
    "the ticker channel: subscribed naming it, the pair's ticker at once, tickers that decode with bid < ask")
  func ticker() throws {
    var bitfinex = try Self.emulator(acceptAnySymbol: true)
    let provider = BitfinexProvider().topOfBook!
    var context = DecodingContext()
    func decode(_ actions: [EmulatorAction]) -> [ProviderEvent] {
      actions.compactMap { action in
        guard case .text(let text) = action else { return nil }
        return provider.decode(.text(text), context: &context)
      }
    }
    _ = bitfinex.tick(at: .zero)
    let opened = bitfinex.receive(Self.subscribe("tBTCUSD", channel: "ticker"), at: .zero)
    #expect(opened.count == 2, "\(opened)")
    guard case .text(let answer)? = opened.first else { return }
    let id = try #require(try VenueTest.json(answer)["chanId"]?.numberText)
    #expect(
      answer
        == #"{"event":"subscribed","channel":"ticker","chanId":\#(id),"symbol":"tBTCUSD","pair":"BTCUSD"}"#)
    // The opening ticker is around the pair's newest trade before the recording (its snapshot's).
    let first = decode(opened)
    #expect(first.first == .acknowledged(id: nil))
    let opening = try #require(first.last?.quotes.first)
    #expect(opening.symbol == "tBTCUSD" && opening.time == 0)
    #expect(opening.bid < Price("97412")! && opening.ask!.price > Price("97412")!)
    // Its trades are another channel; asking again names the open one.
    let trades = bitfinex.receive(Self.subscribe("tBTCUSD"), at: .zero)
    _ = decode(trades)
    #expect(bitfinex.subscribed == ["tBTCUSD@ticker", "tBTCUSD"])
    #expect(
      bitfinex.receive(Self.subscribe("tBTCUSD", channel: "ticker"), at: .zero) == [
        .text(
          #"{"channel":"ticker","symbol":"tBTCUSD","event":"error","msg":"subscribe: dup","code":10301,"chanId":\#(id),"pair":"BTCUSD"}"#
        )
      ])
    #expect(
      decode(bitfinex.receive(Self.subscribe("tXLMUSD", channel: "ticker"), at: .zero)) == [
        .acknowledged(id: nil)
      ])
    #expect(
      bitfinex.walkStart(for: "tXLMUSD@ticker") == .dollars && bitfinex.walkStart(for: "x@ticker") == nil)
    #expect(bitfinex.market(of: "tXLMUSD@ticker") == Market(base: "XLM", quote: "USD"))
    #expect(bitfinex.market(of: "tXLMUSD") == nil)
    #expect(bitfinex.lastPrices["tBTCUSD@ticker"]?.price == "97409")
    var walk = SyntheticTrades(seed: 11, start: bitfinex.lastPrices)
    walk.admit("tXLMUSD@ticker", from: .dollars)
    var count = 0
    for _ in 0..<20 {
      let steps = walk.nextTrades(symbols: bitfinex.subscribed, elapsedMilliseconds: 150)
      for (step, event) in zip(steps, decode(bitfinex.synthetic(steps))) {
        guard step.symbol.hasSuffix("@ticker") else { continue }
        let quote = try #require(event.quotes.first, "\(event)")
        #expect(quote.symbol == String(step.symbol.dropLast("@ticker".count)))
        #expect(quote.bid < quote.ask!.price)
        #expect(quote.bid.text == SyntheticTrades.format(cents: step.book.bidCents))
        #expect(quote.ask?.price.text == SyntheticTrades.format(cents: step.book.askCents))
        count += 1
      }
    }
    #expect(count >= 20)
    // Unsubscribed by its id: nothing more on it.
    let channel = try #require(Int64(id))
    #expect(
      bitfinex.receive(.text(#"{"event":"unsubscribe","chanId":\#(channel)}"#), at: .zero)
        == [.text(BitfinexWire.unsubscribed(channel: channel))])
    #expect(bitfinex.subscribed == ["tBTCUSD", "tXLMUSD@ticker"])
    #expect(
      bitfinex.synthetic([SyntheticTrade(symbol: "tBTCUSD@ticker", cents: 100, time: 1, volume: 1, up: true)])
        .isEmpty)
  }

  @Test("the ticker's wire shape: ten numbers as JavaScript writes them")
  func tickerWire() {
    var day = BitfinexWire.Day(open: 9_741_000)
    day.trade(cents: 9_700_050, volume: 150_000)
    let text = BitfinexWire.ticker(
      channel: 7, book: SyntheticBook(bidCents: 9_700_000, askCents: 9_700_100, bidSize: 63, askSize: 5000),
      last: 9_700_050, day: day)
    #expect(text == "[7,[97000,0.00063,97001,0.05,-409.5,-0.0042,97000.5,1.5,97410,97000.5]]")
  }
}
