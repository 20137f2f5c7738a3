import CLI
import FeedRuntime
import Outputs
import Testing
import Venues

@testable import Emulators
@testable import Recording
@testable import TestSupport
@testable import TickerSupport
@testable import WebSocketWire

/// OKX's rules as a pure state machine, driven with explicit instants.
@Suite("FeedServer: OKX emulation (pure)")
struct OKXEmulatorTests {
  static func emulator(rules: OKXRules = OKXRules(), acceptAnySymbol: Bool = false) throws -> OKXEmulator {
    OKXEmulator(script: try VenueTest.fixture("okx"), rules: rules, acceptAnySymbol: acceptAnySymbol)
  }

  static func fixtureMessages() throws -> (client: [String], server: [String]) {
    let fixture = try VenueTest.fixture("okx")
    return (VenueTest.clientMessages(fixture), VenueTest.dataSteps(fixture).map(\.body))
  }

  static func request(_ op: String, _ instruments: [String], id: String? = "1") -> String {
    let args = instruments.map { #"{"channel":"tickers","instId":"\#($0)"}"# }.joined(separator: ",")
    return "{" + (id.map { #""id":"\#($0)","# } ?? "") + #""op":"\#(op)","args":[\#(args)]}"#
  }

  static func ack(_ op: String, _ instrument: String, id: String? = "1") -> EmulatorAction {
    .text(OKXWire.answer(op, id: id, channel: "tickers", instrument: instrument))
  }

  static func refusal(_ refusal: OKXWire.Refusal, id: String? = "1") -> [EmulatorAction] {
    [.text(OKXWire.error(id: id, refusal)), .violation(.invalidRequest(refusal.message))]
  }

  @Test("the recorded session: the answers word for word, tickers, ping and pong, an unknown instrument")
  func recordedSession() throws {
    var okx = try Self.emulator()
    let (client, server) = try Self.fixtureMessages()
    // server: ack, three tickers, pong, the error, a ticker.
    #expect(okx.receive(.text(client[0]), at: VenueTest.at(0.006)) == [.text(server[0])])
    #expect(okx.subscribed == ["BTC-USDT"])
    for (i, at) in [(1, 0.1), (2, 0.3), (3, 0.5)] {
      #expect(
        okx.outgoing(VenueTest.serverStep(.text, server[i]), at: VenueTest.at(at)) == [.text(server[i])])
    }
    #expect(okx.receive(.text(client[1]), at: VenueTest.at(20)) == [.text(server[4])])
    #expect(
      okx.receive(.text(client[2]), at: VenueTest.at(20.1))
        == [
          .text(server[5]),
          .violation(
            .invalidRequest(OKXWire.Refusal.doesNotExist(channel: "tickers", instrument: "NOPE-USDT").message)
          ),
        ])
    // The refusal changed nothing and the connection stays: tickers still flow.
    #expect(okx.subscribed == ["BTC-USDT"])
    #expect(
      okx.outgoing(VenueTest.serverStep(.text, server[6]), at: VenueTest.at(20.4)) == [.text(server[6])])
    // The script's own answers are the emulator's to make, not to replay.
    for reply in [server[0], server[4], server[5]] {
      #expect(okx.outgoing(VenueTest.serverStep(.text, reply), at: VenueTest.at(21)).isEmpty)
    }
    #expect(okx.requestCount == 2)
  }

  @Test("each item of a request is answered on its own, with the request's id (or none)")
  func itemByItem() throws {
    var okx = try Self.emulator()
    #expect(
      okx.receive(
        .text(Self.request("subscribe", ["ETH-USDT", "NOPE-USDT", "SOL-USDT"], id: "42")), at: .zero)
        == [
          Self.ack("subscribe", "ETH-USDT", id: "42"),
          .text(OKXWire.error(id: "42", .doesNotExist(channel: "tickers", instrument: "NOPE-USDT"))),
          Self.ack("subscribe", "SOL-USDT", id: "42"),
          .violation(
            .invalidRequest(OKXWire.Refusal.doesNotExist(channel: "tickers", instrument: "NOPE-USDT").message)
          ),
        ])
    #expect(okx.subscribed == ["ETH-USDT", "SOL-USDT"])
    // Without an id, the answers carry none; subscribing twice changes nothing.
    #expect(
      okx.receive(.text(Self.request("subscribe", ["ETH-USDT"], id: nil)), at: .zero) == [
        Self.ack("subscribe", "ETH-USDT", id: nil)
      ])
    #expect(okx.subscribed == ["ETH-USDT", "SOL-USDT"])
    #expect(
      okx.receive(.text(Self.request("unsubscribe", ["ETH-USDT", "BTC-USDT"], id: "7")), at: .zero)
        == [Self.ack("unsubscribe", "ETH-USDT", id: "7"), Self.ack("unsubscribe", "BTC-USDT", id: "7")])
    #expect(okx.subscribed == ["SOL-USDT"])
    #expect(okx.requestCount == 3)
  }

  @Test(
    "what OKX refuses, with its code; nothing changes and the connection stays",
    arguments: [
      (
        #"{"id":"1","op":"subscribe","args":[{"channel":"trades","instId":"BTC-USDT"}]}"#,
        OKXWire.Refusal.doesNotExist(channel: "trades", instrument: "BTC-USDT")
      ),
      (
        #"{"id":"1","op":"subscribe","args":[{"channel":"tickers","instId":"btc-usdt"}]}"#,
        .doesNotExist(channel: "tickers", instrument: "btc-usdt")
      ),
      (#"{"id":"1","op":"subscribe","args":[{"channel":"tickers"}]}"#, .empty("instId")),
      (#"{"id":"1","op":"subscribe","args":[{"instId":"BTC-USDT"}]}"#, .empty("channel")),
      (#"{"id":"1","op":"subscribe","args":["tickers:BTC-USDT"]}"#, .invalidArgs),
      (#"{"id":"1","op":"subscribe","args":[]}"#, .invalidArgs),
      (#"{"id":"1","op":"subscribe"}"#, .invalidArgs),
      (#"{"id":"1","op":"login","args":[{"apiKey":"x"}]}"#, .notOnThisURL),
      (#"{"id":"1","op":"order","args":[]}"#, .invalidOp("order")),
    ])
  func refused(request: String, refusal: OKXWire.Refusal) throws {
    var okx = try Self.emulator()
    _ = okx.receive(.text(Self.request("subscribe", ["BTC-USDT"])), at: .zero)
    #expect(okx.receive(.text(request), at: .zero) == Self.refusal(refusal))
    #expect(okx.subscribed == ["BTC-USDT"])
    #expect(!okx.isClosing)
  }

  @Test("messages that are no request: 60012 naming them, without an id")
  func notRequests() throws {
    var okx = try Self.emulator()
    for text in ["nope", #"{"op":1}"#, #"{"id":"a b","op":"subscribe","args":[]}"#, "[]", "PING"] {
      #expect(okx.receive(.text(text), at: .zero) == Self.refusal(.invalidRequest(text), id: nil))
    }
    #expect(
      okx.receive(.binary(Array("ping".utf8)), at: .zero) == Self.refusal(.invalidRequest("ping"), id: nil))
    #expect(okx.requestCount == 0)
  }

  @Test("the text ping gets the text pong; control frames get nothing from the venue")
  func pingPong() throws {
    var okx = try Self.emulator()
    #expect(okx.receive(.text("ping"), at: .zero) == [.text("pong")])
    #expect(okx.receive(.ping(Array("x".utf8)), at: .zero).isEmpty)
    #expect(okx.receive(.pong([]), at: .zero).isEmpty)
  }

  @Test("tickers go out only for instruments subscribed on tickers")
  func filtering() throws {
    var okx = try Self.emulator()
    let (_, server) = try Self.fixtureMessages()
    let ticker = VenueTest.serverStep(.text, server[1])
    #expect(okx.outgoing(ticker, at: .zero).isEmpty)  // nothing subscribed
    _ = okx.receive(.text(Self.request("subscribe", ["ETH-USDT"])), at: .zero)
    #expect(okx.outgoing(ticker, at: .zero).isEmpty)  // another instrument
    _ = okx.receive(.text(Self.request("subscribe", ["BTC-USDT"])), at: .zero)
    #expect(okx.outgoing(ticker, at: .zero) == [.text(server[1])])
    _ = okx.receive(.text(Self.request("unsubscribe", ["BTC-USDT"])), at: .zero)
    #expect(okx.outgoing(ticker, at: .zero).isEmpty)
  }

  @Test("no subscription within 30 s: closed with 4004, whatever the client says meanwhile")
  func noSubscription() throws {
    var okx = try Self.emulator()
    #expect(okx.nextDeadline == VenueTest.at(30))
    #expect(okx.receive(.text("ping"), at: VenueTest.at(10)) == [.text("pong")])
    // A refused subscribe is no subscription.
    _ = okx.receive(.text(Self.request("subscribe", ["NOPE-USDT"])), at: VenueTest.at(20))
    #expect(okx.nextDeadline == VenueTest.at(30))
    #expect(okx.tick(at: VenueTest.at(29.999)).isEmpty)
    #expect(
      okx.tick(at: VenueTest.at(30))
        == [
          .violation(.noSubscription),
          .close(CloseStatus(code: CloseCode(4004), reason: "No data received in 30s")),
        ])
    #expect(okx.isClosing && okx.nextDeadline == nil)
    #expect(okx.receive(.text("ping"), at: VenueTest.at(31)).isEmpty)
  }

  @Test("subscribed: 30 s after the last push, closed with 4004; a pong is a push, a client message is not")
  func quiet() throws {
    var okx = try Self.emulator()
    let (_, server) = try Self.fixtureMessages()
    _ = okx.receive(.text(Self.request("subscribe", ["BTC-USDT"])), at: VenueTest.at(1))
    #expect(okx.nextDeadline == VenueTest.at(31))
    _ = okx.outgoing(VenueTest.serverStep(.text, server[1]), at: VenueTest.at(5))
    #expect(okx.nextDeadline == VenueTest.at(35))
    // A ticker of an instrument not subscribed is not pushed: the deadline stays.
    let other =
      #"{"arg":{"channel":"tickers","instId":"ETH-USDT"},"data":[{"instId":"ETH-USDT","last":"1","ts":"1"}]}"#
    #expect(okx.outgoing(VenueTest.serverStep(.text, other), at: VenueTest.at(6)).isEmpty)
    #expect(okx.nextDeadline == VenueTest.at(35))
    #expect(okx.receive(.ping([1]), at: VenueTest.at(20)).isEmpty)
    #expect(okx.nextDeadline == VenueTest.at(35))
    #expect(okx.receive(.text("ping"), at: VenueTest.at(25)) == [.text("pong")])
    #expect(okx.nextDeadline == VenueTest.at(55))
    #expect(okx.tick(at: VenueTest.at(54.9)).isEmpty)
    #expect(
      okx.tick(at: VenueTest.at(55))
        == [
          .violation(.quiet), .close(CloseStatus(code: CloseCode(4004), reason: "No data received in 30s")),
        ])
  }

  @Test("a client that pings every 20 s is never closed; the quiet timeout scales")
  func keptByPings() throws {
    var okx = try Self.emulator(rules: OKXRules().scaled(by: 0.1))
    _ = okx.receive(.text(Self.request("subscribe", ["BTC-USDT"])), at: .zero)
    #expect(okx.nextDeadline == VenueTest.at(3))
    for second in stride(from: 2.0, through: 60, by: 2) {
      #expect(okx.tick(at: VenueTest.at(second - 0.001)).isEmpty)
      #expect(okx.receive(.text("ping"), at: VenueTest.at(second)) == [.text("pong")])
    }
    #expect(!okx.isClosing)
  }

  @Test("more than 480 requests in an hour: 60014, and nothing changes; an hour later they pass again")
  func requestsPerHour() throws {
    var rules = OKXRules()
    rules.requestsPerHour = 3
    var okx = try Self.emulator(rules: rules)
    for (i, instrument) in ["BTC-USDT", "ETH-USDT", "SOL-USDT"].enumerated() {
      #expect(
        okx.receive(.text(Self.request("subscribe", [instrument])), at: VenueTest.at(Double(i))).count == 1)
    }
    #expect(
      okx.receive(.text(Self.request("subscribe", ["XRP-USDT"], id: "9")), at: VenueTest.at(10))
        == [.text(OKXWire.error(id: "9", .tooFrequent)), .violation(.tooManyMessages)])
    #expect(okx.subscribed == ["BTC-USDT", "ETH-USDT", "SOL-USDT"])
    // Pings are no requests.
    #expect(okx.receive(.text("ping"), at: VenueTest.at(11)) == [.text("pong")])
    #expect(
      okx.receive(.text(Self.request("subscribe", ["XRP-USDT"])), at: VenueTest.at(3605))
        == [Self.ack("subscribe", "XRP-USDT")])
  }

  @Test("the demo's leniency: any well-formed instrument; without it, only those listed")
  func acceptAnySymbol() throws {
    var strict = try Self.emulator()
    #expect(strict.receive(.text(Self.request("subscribe", ["XLM-EUR"])), at: .zero).count == 2)
    var lenient = try Self.emulator(acceptAnySymbol: true)
    #expect(
      lenient.receive(.text(Self.request("subscribe", ["XLM-EUR"])), at: .zero) == [
        Self.ack("subscribe", "XLM-EUR")
      ])
    #expect(lenient.receive(.text(Self.request("subscribe", ["xlm-eur"])), at: .zero).count == 2)
    #expect(lenient.receive(.text(Self.request("subscribe", ["BTC-USDT-SWAP"])), at: .zero).count == 2)
  }

  @Test("the synthetic stream: tickers pushes with every field, prices as OKX writes them")
  func synthetic() throws {
    var okx = try Self.emulator(rules: OKXRules().scaled(by: 0.1))
    _ = okx.receive(.text(Self.request("subscribe", ["BTC-USDT", "XLM-EUR"])), at: .zero)
    let start = try #require(okx.lastPrices["BTC-USDT"])
    #expect(start.price == "79415.2" && start.time == 1_791_278_091_826)
    var walk = SyntheticTrades(seed: 5, start: okx.lastPrices)
    var times: [Int64] = []
    for _ in 0..<20 {
      for action in okx.synthetic(walk.nextTrades(symbols: okx.subscribed, elapsedMilliseconds: 150)) {
        guard case .text(let text) = action else {
          Issue.record("\(action)")
          continue
        }
        let value = try VenueTest.json(text)
        #expect(value["arg"]?["channel"]?.stringValue == "tickers")
        let entry = try #require(value["data"]?.arrayValue?.first)
        #expect(entry["instId"]?.stringValue == "BTC-USDT" && entry["instType"]?.stringValue == "SPOT")
        let last = try #require(entry["last"]?.stringValue)
        #expect(Price(last)?.text == last && !(last.contains(".") && last.hasSuffix("0")), "\(last)")
        #expect(entry["lastSz"]?.stringValue.flatMap(Price.init) != nil)
        #expect(entry["sodUtc8"]?.stringValue == "78702.9")  // the rest of the recorded ticker
        times.append(try #require(entry["ts"]?.stringValue.flatMap { Int64($0) }))
      }
    }
    #expect(times.count >= 20 && times == times.sorted() && times.first.map { $0 > start.time } == true)
    // Untimed pushes count at the deadline: the connection is not closed while they flow.
    #expect(okx.tick(at: VenueTest.at(3)).isEmpty)
    #expect(okx.nextDeadline == VenueTest.at(6))
    #expect(okx.tick(at: VenueTest.at(6)).count == 2)  // and then nothing was pushed
  }
}

/// The top of book (`--bid-ask`) in the emulation: the `bbo-tbt` channel.
@Suite("FeedServer: OKX emulation, top of book")
struct OKXEmulatorBookTests {
  @Test("bbo-tbt subscriptions are answered per instrument; the synthetic pushes decode to bid < ask")
  func syntheticBook() throws {
    var okx = try OKXEmulatorTests.emulator(acceptAnySymbol: true)
    let provider = try #require(OKXProvider().topOfBook)
    var ids = RequestIDs(prefix: "unused")
    var answers: [ProviderEvent] = []
    for case .text(let request) in provider.subscriptionMessages(
      from: [], to: ["BTC-USDT", "XLM-EUR"], ids: &ids)
    {
      for case .text(let answer) in okx.receive(.text(request), at: .zero) {
        answers.append(provider.decode(.text(answer)))
      }
    }
    #expect(answers == [.acknowledged(id: 1), .acknowledged(id: 2)])
    #expect(okx.bookInstruments == ["BTC-USDT", "XLM-EUR"] && okx.instruments.isEmpty)
    #expect(okx.subscribed == ["BTC-USDT", "XLM-EUR"])
    var walk = SyntheticTrades(seed: 9, start: okx.lastPrices)
    walk.admit("XLM-EUR", from: try #require(okx.walkStart(for: "XLM-EUR")))
    var quotes: [Quote] = []
    var sequences: [Int64] = []
    for _ in 0..<20 {
      for case .text(let text) in okx.synthetic(
        walk.nextTrades(symbols: okx.subscribed, elapsedMilliseconds: 150))
      {
        let value = try VenueTest.json(text)
        #expect(value["arg"]?["channel"]?.stringValue == "bbo-tbt", "\(text)")
        sequences += [value["data"]?.arrayValue?.first?["seqId"]?.numberText.flatMap { Int64($0) } ?? -1]
        quotes += provider.decode(.text(text)).quotes
      }
    }
    #expect(quotes.count >= 20 && quotes.count == sequences.count)
    #expect(sequences == sequences.sorted() && Set(sequences).count == sequences.count)
    #expect(Set(quotes.map(\.symbol)) == ["BTC-USDT", "XLM-EUR"])
    for quote in quotes {
      let ask = try #require(quote.ask)
      #expect(quote.bid < ask.price && quote.time > 0, "\(quote)")
    }
  }

  @Test(
    "one instrument on both channels: a ticker and a bbo-tbt push per trade; unsubscribing one keeps the other"
  )
  func bothChannels() throws {
    var okx = try OKXEmulatorTests.emulator()
    let both =
      #"{"id":"5","op":"subscribe","args":[{"channel":"tickers","instId":"ETH-USDT"},{"channel":"bbo-tbt","instId":"ETH-USDT"}]}"#
    #expect(
      okx.receive(.text(both), at: .zero) == [
        .text(OKXWire.answer("subscribe", id: "5", channel: "tickers", instrument: "ETH-USDT")),
        .text(OKXWire.answer("subscribe", id: "5", channel: "bbo-tbt", instrument: "ETH-USDT")),
      ])
    #expect(okx.subscribed == ["ETH-USDT"])
    var walk = SyntheticTrades(seed: 3, start: okx.lastPrices)
    walk.admit("ETH-USDT", from: .dollars)
    let trades = walk.nextTrades(symbols: okx.subscribed, elapsedMilliseconds: 150)
    let channels = okx.synthetic(trades).compactMap { action -> String? in
      guard case .text(let text) = action else { return nil }
      return try? VenueTest.json(text)["arg"]?["channel"]?.stringValue
    }
    #expect(channels.count == 2 * trades.count && Set(channels) == ["tickers", "bbo-tbt"])
    _ = okx.receive(
      .text(#"{"id":"6","op":"unsubscribe","args":[{"channel":"bbo-tbt","instId":"ETH-USDT"}]}"#), at: .zero)
    #expect(okx.bookInstruments.isEmpty && okx.instruments == ["ETH-USDT"])
  }

  @Test("an unlisted instrument on bbo-tbt is refused with 60018 naming the channel")
  func unlisted() throws {
    var okx = try OKXEmulatorTests.emulator()
    let request = #"{"id":"7","op":"subscribe","args":[{"channel":"bbo-tbt","instId":"NOPE-USDT"}]}"#
    let refusal = OKXWire.Refusal.doesNotExist(channel: "bbo-tbt", instrument: "NOPE-USDT")
    #expect(okx.receive(.text(request), at: .zero) == OKXEmulatorTests.refusal(refusal, id: "7"))
    guard
      case .error(let error) = OKXProvider(stream: .topOfBook).decode(.text(OKXWire.error(id: "7", refusal)))
    else {
      Issue.record("not an error")
      return
    }
    #expect(error.symbol == "NOPE-USDT" && error.requestID == 7)
  }
}
