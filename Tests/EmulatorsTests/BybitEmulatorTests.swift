import Testing
import Venues

@testable import Emulators
@testable import Recording
@testable import TestSupport
@testable import TickerSupport

/// Bybit's rules as a pure state machine, driven with explicit instants.
@Suite("FeedServer: Bybit emulation (pure)")
struct BybitEmulatorTests {
  static func emulator(rules: BybitRules = BybitRules(), acceptAnySymbol: Bool = false) throws
    -> BybitEmulator
  {
    BybitEmulator(script: try VenueTest.fixture("bybit"), rules: rules, acceptAnySymbol: acceptAnySymbol)
  }

  static func fixtureMessages() throws -> (client: [String], server: [String]) {
    let fixture = try VenueTest.fixture("bybit")
    return (VenueTest.clientMessages(fixture), VenueTest.dataSteps(fixture).map(\.body))
  }

  static func request(_ op: String, _ topics: [String], id: String? = "1") -> String {
    let args = topics.map { #""\#($0)""# }.joined(separator: ",")
    return "{" + (id.map { #""req_id":"\#($0)","# } ?? "") + #""op":"\#(op)","args":[\#(args)]}"#
  }

  static func subscribe(_ symbols: [String], id: String? = "1") -> String {
    request("subscribe", symbols.map { "publicTrade." + $0 }, id: id)
  }

  static func refusal(_ refusal: BybitWire.Refusal, op: String? = "subscribe", id: String? = "1")
    -> [EmulatorAction]
  {
    [.text(BybitWire.refusal(refusal, op: op, requestID: id)), .violation(.invalidRequest(refusal.message))]
  }

  @Test("the recorded session: the answers word for word, trades, ping and pong, an unknown symbol")
  func recordedSession() throws {
    var bybit = try Self.emulator()
    let (client, server) = try Self.fixtureMessages()
    // server: ack, three trade messages, pong, the refusal, a trade message.
    #expect(bybit.receive(.text(client[0]), at: VenueTest.at(0.005)) == [.text(server[0])])
    #expect(bybit.subscribed == ["BTCUSDT"])
    for (i, at) in [(1, 0.2), (2, 0.5), (3, 0.6)] {
      #expect(
        bybit.outgoing(VenueTest.serverStep(.text, server[i]), at: VenueTest.at(at)) == [.text(server[i])])
    }
    #expect(bybit.receive(.text(client[1]), at: VenueTest.at(20)) == [.text(server[4])])
    #expect(
      bybit.receive(.text(client[2]), at: VenueTest.at(20.1))
        == [
          .text(server[5]),
          .violation(.invalidRequest(BybitWire.Refusal.invalidSymbol(topic: "publicTrade.NOPEUSDT").message)),
        ])
    // The refusal changed nothing and the connection stays: trades still flow.
    #expect(bybit.subscribed == ["BTCUSDT"])
    #expect(
      bybit.outgoing(VenueTest.serverStep(.text, server[6]), at: VenueTest.at(20.4)) == [.text(server[6])])
    // The script's own answers are the emulator's to make, not to replay.
    for reply in [server[0], server[4], server[5]] {
      #expect(bybit.outgoing(VenueTest.serverStep(.text, reply), at: VenueTest.at(21)).isEmpty)
    }
    #expect(bybit.requestCount == 2)
  }

  @Test("a request is answered once, echoing req_id (or without one); several topics go in together")
  func answers() throws {
    var bybit = try Self.emulator()
    #expect(
      bybit.receive(.text(Self.subscribe(["ETHUSDT", "SOLUSDT"], id: "42")), at: .zero)
        == [.text(BybitWire.answer(op: "subscribe", requestID: "42"))])
    #expect(bybit.subscribed == ["ETHUSDT", "SOLUSDT"])
    #expect(
      bybit.receive(.text(Self.subscribe(["BTCUSDT"], id: nil)), at: .zero)
        == [
          .text(
            #"{"success":true,"ret_msg":"subscribe","conn_id":"d3kq8v6f1lq9eoj0c2ng-5zvw1","op":"subscribe"}"#
          )
        ])
    #expect(
      bybit.receive(
        .text(Self.request("unsubscribe", ["publicTrade.ETHUSDT", "publicTrade.XRPUSDT"], id: "7")), at: .zero
      )
        == [
          .text(
            #"{"success":true,"ret_msg":"unsubscribe","conn_id":"d3kq8v6f1lq9eoj0c2ng-5zvw1","req_id":"7","op":"unsubscribe"}"#
          )
        ])
    #expect(bybit.subscribed == ["SOLUSDT", "BTCUSDT"])
    #expect(bybit.requestCount == 3)
  }

  @Test("one bad topic refuses its whole request, naming the first; nothing changes and the connection stays")
  func wholeRequestRefused() throws {
    var bybit = try Self.emulator()
    _ = bybit.receive(.text(Self.subscribe(["BTCUSDT"])), at: .zero)
    #expect(
      bybit.receive(.text(Self.subscribe(["ETHUSDT", "NOPEUSDT", "XLMUSDT"], id: "3")), at: .zero)
        == Self.refusal(.invalidSymbol(topic: "publicTrade.NOPEUSDT"), id: "3"))
    #expect(bybit.subscribed == ["BTCUSDT"])
    #expect(!bybit.isClosing)
  }

  @Test(
    "what Bybit refuses, in its words",
    arguments: [
      (
        #"{"req_id":"1","op":"subscribe","args":["publicTrade.btcusdt"]}"#,
        BybitWire.Refusal.invalidSymbol(topic: "publicTrade.btcusdt")
      ),
      (
        #"{"req_id":"1","op":"subscribe","args":["orderbook.50.BTCUSDT"]}"#,
        .handlerNotFound(topic: "orderbook.50.BTCUSDT")
      ),
      (#"{"req_id":"1","op":"subscribe","args":["publicTrade."]}"#, .handlerNotFound(topic: "publicTrade.")),
      (
        #"{"req_id":"1","op":"subscribe","args":["publicTrade.BTCUSDT"]}"#,
        .alreadySubscribed(topic: "publicTrade.BTCUSDT")
      ),
      (#"{"req_id":"1","op":"subscribe","args":[]}"#, .invalidArgs),
      (#"{"req_id":"1","op":"subscribe"}"#, .invalidArgs),
      (#"{"req_id":"1","op":"subscribe","args":[1]}"#, .invalidArgs),
      (
        #"{"req_id":"1","op":"subscribe","args":["publicTrade.A1","publicTrade.A2","publicTrade.A3","publicTrade.A4","publicTrade.A5","publicTrade.A6","publicTrade.A7","publicTrade.A8","publicTrade.A9","publicTrade.A10","publicTrade.A11"]}"#,
        .argsSize(limit: 10)
      ),
    ])
  func refused(request: String, refusal: BybitWire.Refusal) throws {
    var bybit = try Self.emulator()
    _ = bybit.receive(.text(Self.subscribe(["BTCUSDT"])), at: .zero)
    #expect(bybit.receive(.text(request), at: .zero) == Self.refusal(refusal))
    #expect(bybit.subscribed == ["BTCUSDT"])
    #expect(!bybit.isClosing)
  }

  @Test("ten topics are taken; the message of args size >10 is Bybit's")
  func tenTopics() throws {
    var bybit = try Self.emulator(acceptAnySymbol: true)
    let ten = (1...10).map { "A\($0)USDT" }
    #expect(
      bybit.receive(.text(Self.subscribe(ten)), at: .zero) == [
        .text(BybitWire.answer(op: "subscribe", requestID: "1"))
      ])
    #expect(bybit.subscribed == ten)
    #expect(BybitWire.Refusal.argsSize(limit: 10).message == "args size >10")
  }

  @Test("messages that are no request: refused, the connection stays")
  func notRequests() throws {
    var bybit = try Self.emulator()
    #expect(
      bybit.receive(.text("hello"), at: .zero)
        == Self.refusal(
          BybitWire.Refusal(
            message: "Failed to decode incoming data:readObjectStart: expect { or n, but found h"),
          op: nil, id: nil))
    #expect(bybit.receive(.text("[]"), at: .zero) == Self.refusal(.undecodable("[]"), op: nil, id: nil))
    #expect(
      bybit.receive(.text(#"{"op":"nope","req_id":"9"}"#), at: .zero)
        == Self.refusal(.invalidOp, op: "nope", id: "9"))
    #expect(bybit.receive(.text(#"{"req_id":"9"}"#), at: .zero) == Self.refusal(.invalidOp, op: nil, id: "9"))
    #expect(
      bybit.receive(.text(#"{"op":"auth","args":["k",1,"s"]}"#), at: .zero)
        == Self.refusal(.invalidOp, op: "auth", id: nil))
    #expect(bybit.requestCount == 0 && !bybit.isClosing)
  }

  @Test("the ping gets the spot pong, which names no req_id; control frames get nothing from the venue")
  func pingPong() throws {
    var bybit = try Self.emulator()
    #expect(bybit.receive(.text(#"{"req_id":"ping","op":"ping"}"#), at: .zero) == [.text(BybitWire.pong)])
    #expect(bybit.receive(.binary(Array(#"{"op":"ping"}"#.utf8)), at: .zero) == [.text(BybitWire.pong)])
    #expect(
      BybitWire.pong
        == #"{"success":true,"ret_msg":"pong","conn_id":"d3kq8v6f1lq9eoj0c2ng-5zvw1","op":"ping"}"#)
    #expect(bybit.receive(.ping(Array("x".utf8)), at: .zero).isEmpty)
    #expect(bybit.receive(.pong([]), at: .zero).isEmpty)
  }

  @Test("trades go out only for symbols subscribed")
  func filtering() throws {
    var bybit = try Self.emulator()
    let (_, server) = try Self.fixtureMessages()
    let trades = VenueTest.serverStep(.text, server[1])
    #expect(bybit.outgoing(trades, at: .zero).isEmpty)  // nothing subscribed
    _ = bybit.receive(.text(Self.subscribe(["ETHUSDT"])), at: .zero)
    #expect(bybit.outgoing(trades, at: .zero).isEmpty)  // another symbol
    _ = bybit.receive(.text(Self.subscribe(["BTCUSDT"], id: "2")), at: .zero)
    #expect(bybit.outgoing(trades, at: .zero) == [.text(server[1])])
    _ = bybit.receive(.text(Self.request("unsubscribe", ["publicTrade.BTCUSDT"])), at: .zero)
    #expect(bybit.outgoing(trades, at: .zero).isEmpty)
  }

  @Test("the upgrade: /v5/public/spot only")
  func upgrade() throws {
    let bybit = try Self.emulator()
    #expect(bybit.admit(try VenueTest.request("/v5/public/spot")) == .accept)
    #expect(bybit.admit(try VenueTest.request("/v5/public/spot?x=1")) == .accept)
    #expect(
      bybit.admit(try VenueTest.request("/v5/public/linear"))
        == .refuse(
          status: 404, reason: "Not Found", violation: .refusedHandshake("unknown path /v5/public/linear")))
  }

  @Test(
    "10 minutes with nothing pushed: cut without a close frame; a pong and a trade are pushes, a request refused too"
  )
  func idle() throws {
    var bybit = try Self.emulator()
    let (_, server) = try Self.fixtureMessages()
    #expect(bybit.nextDeadline == VenueTest.at(600))
    _ = bybit.receive(.text(Self.subscribe(["BTCUSDT"])), at: VenueTest.at(1))
    #expect(bybit.nextDeadline == VenueTest.at(601))
    _ = bybit.outgoing(VenueTest.serverStep(.text, server[1]), at: VenueTest.at(5))
    #expect(bybit.nextDeadline == VenueTest.at(605))
    // A trade of a symbol not subscribed is not pushed: the deadline stays.
    let other =
      #"{"topic":"publicTrade.ETHUSDT","ts":1,"type":"snapshot","data":[{"s":"ETHUSDT","p":"1","T":1}]}"#
    #expect(bybit.outgoing(VenueTest.serverStep(.text, other), at: VenueTest.at(6)).isEmpty)
    #expect(bybit.nextDeadline == VenueTest.at(605))
    // WebSocket control frames are not Bybit's ping-pong.
    #expect(bybit.receive(.ping([1]), at: VenueTest.at(300)).isEmpty)
    #expect(bybit.nextDeadline == VenueTest.at(605))
    _ = bybit.receive(.text(#"{"op":"ping"}"#), at: VenueTest.at(400))
    #expect(bybit.nextDeadline == VenueTest.at(1000))
    #expect(bybit.tick(at: VenueTest.at(999.9)).isEmpty)
    #expect(bybit.tick(at: VenueTest.at(1000)) == [.violation(.quiet), .drop])
    #expect(bybit.isClosing && bybit.nextDeadline == nil)
    #expect(bybit.receive(.text(#"{"op":"ping"}"#), at: VenueTest.at(1001)).isEmpty)
  }

  @Test("a client that pings every 20 s is never cut; the timeout scales, and patience lifts it")
  func keptByPings() throws {
    var bybit = try Self.emulator(rules: BybitRules().scaled(by: 0.01))
    _ = bybit.receive(.text(Self.subscribe(["BTCUSDT"])), at: .zero)
    #expect(bybit.nextDeadline == VenueTest.at(6))
    for second in stride(from: 0.2, through: 60, by: 0.2) {
      #expect(bybit.tick(at: VenueTest.at(second - 0.001)).isEmpty)
      #expect(
        bybit.receive(.text(#"{"req_id":"ping","op":"ping"}"#), at: VenueTest.at(second)) == [
          .text(BybitWire.pong)
        ])
    }
    #expect(!bybit.isClosing)
    let patient = try Self.emulator(rules: BybitRules().patient())
    #expect(patient.nextDeadline == nil)
    #expect(
      BybitRules().scaled(by: 0.5).idleTimeout == 300 && BybitRules().scaled(by: 0.5).argsPerRequest == 10)
  }

  @Test("the demo's leniency: any well-formed symbol; without it, only those listed")
  func acceptAnySymbol() throws {
    var strict = try Self.emulator()
    #expect(strict.receive(.text(Self.subscribe(["XLMUSDT"])), at: .zero).count == 2)
    var lenient = try Self.emulator(acceptAnySymbol: true)
    #expect(
      lenient.receive(.text(Self.subscribe(["XLMUSDT"])), at: .zero)
        == [.text(BybitWire.answer(op: "subscribe", requestID: "1"))])
    #expect(lenient.receive(.text(Self.subscribe(["xlmusdt"])), at: .zero).count == 2)
    #expect(lenient.receive(.text(Self.subscribe(["XLM-USDT"])), at: .zero).count == 2)
    #expect(lenient.walkStart(for: "XLMUSDT") == .dollars)
    #expect(lenient.walkStart(for: "xlmusdt") == nil && lenient.walkStart(for: "") == nil)
  }

  @Test("the synthetic stream: trade messages as spot writes them, a symbol's consecutive trades batched")
  func synthetic() throws {
    var bybit = try Self.emulator(rules: BybitRules().scaled(by: 0.01), acceptAnySymbol: true)
    _ = bybit.receive(.text(Self.subscribe(["BTCUSDT", "XLMUSDT"])), at: .zero)
    let start = try #require(bybit.lastPrices["BTCUSDT"])
    #expect(start.price == "79409.4" && start.time == 1_791_370_955_805)
    // A hand-made step: two BTC trades, one of a symbol not subscribed, one XLM trade.
    let step = [
      SyntheticTrade(symbol: "BTCUSDT", cents: 7_941_000, time: 1_791_370_956_000, volume: 63, up: true),
      SyntheticTrade(symbol: "BTCUSDT", cents: 7_940_995, time: 1_791_370_956_001, volume: 1500, up: false),
      SyntheticTrade(symbol: "ETHUSDT", cents: 300_000, time: 1_791_370_956_002, volume: 1, up: true),
      SyntheticTrade(symbol: "XLMUSDT", cents: 12_345, time: 1_791_370_956_003, volume: 5000, up: true),
    ]
    #expect(
      bybit.synthetic(step) == [
        .text(
          #"{"topic":"publicTrade.BTCUSDT","ts":1791370956002,"type":"snapshot","data":["#
            + #"{"i":"2290000001226832765","T":1791370956000,"p":"79410","v":"0.00063","S":"Buy","seq":115032991038,"s":"BTCUSDT","BT":false,"RPI":false},"#
            + #"{"i":"2290000001226832766","T":1791370956001,"p":"79409.95","v":"0.015","S":"Sell","seq":115032991038,"s":"BTCUSDT","BT":false,"RPI":false}]}"#
        ),
        .text(
          #"{"topic":"publicTrade.XLMUSDT","ts":1791370956004,"type":"snapshot","data":["#
            + #"{"i":"2290000001226832767","T":1791370956003,"p":"123.45","v":"0.05","S":"Buy","seq":115032991039,"s":"XLMUSDT","BT":false,"RPI":false}]}"#
        ),
      ])
    #expect(
      bybit.lastPrices["BTCUSDT"]?.price == "79409.95" && bybit.lastPrices["XLMUSDT"]?.price == "123.45")
    // Untimed pushes count at the deadline: the connection is not cut while they flow.
    #expect(bybit.tick(at: VenueTest.at(6)).isEmpty)
    #expect(bybit.nextDeadline == VenueTest.at(12))
    #expect(bybit.tick(at: VenueTest.at(12)) == [.violation(.quiet), .drop])  // and then nothing was pushed
  }

  @Test("the walk from the demo's last trade: quotes through the provider, prices exact, times rising")
  func walk() throws {
    var bybit = try Self.emulator()
    _ = bybit.receive(.text(Self.subscribe(["BTCUSDT"])), at: .zero)
    var walk = SyntheticTrades(seed: 5, start: bybit.lastPrices)
    var times: [Int64] = []
    var expected: [String] = []
    var prices: [String] = []
    for _ in 0..<20 {
      let trades = walk.nextTrades(symbols: bybit.subscribed, elapsedMilliseconds: 150)
      expected += trades.map { SyntheticTrades.format(cents: $0.cents) }
      for action in bybit.synthetic(trades) {
        guard case .text(let text) = action else {
          Issue.record("\(action)")
          continue
        }
        let quotes = BybitProvider().decode(.text(text)).quotes
        #expect(!quotes.isEmpty)
        prices += quotes.map(\.price.text)
        times += quotes.map(\.time)
      }
    }
    #expect(prices == expected && prices.allSatisfy { !($0.contains(".") && $0.hasSuffix("0")) })
    #expect(
      times.count >= 20 && times == times.sorted() && times.first.map { $0 > 1_791_370_955_805 } == true)
  }
}
