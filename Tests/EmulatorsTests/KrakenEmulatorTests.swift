import FeedRuntime
import Testing
import Venues

@testable import Emulators
@testable import JSON
@testable import TestSupport
@testable import TickerSupport
@testable import WebSocketWire

/// Kraken's v2 rules as a pure state machine, driven with explicit instants.
@Suite("FeedServer: Kraken emulation (pure)")
struct KrakenEmulatorTests {
  static func emulator(rules: KrakenRules = KrakenRules(), acceptAnySymbol: Bool = false) throws
    -> KrakenEmulator
  {
    KrakenEmulator(script: try VenueTest.fixture("kraken"), rules: rules, acceptAnySymbol: acceptAnySymbol)
  }

  static func fixtureMessages() throws -> (client: [String], server: [String]) {
    let fixture = try VenueTest.fixture("kraken")
    return (VenueTest.clientMessages(fixture), VenueTest.dataSteps(fixture).map(\.body))
  }

  static func subscribe(_ pairs: [String], id: Int, snapshot: Bool? = nil) -> ClientInput {
    let list = pairs.map(JSONEscaping.quoted).joined(separator: ",")
    let flag = snapshot.map { #","snapshot":\#($0)"# } ?? ""
    return .text(
      #"{"method":"subscribe","params":{"channel":"ticker","symbol":[\#(list)]\#(flag)},"req_id":\#(id)}"#)
  }

  static func unsubscribe(_ pairs: [String], id: Int) -> ClientInput {
    let list = pairs.map(JSONEscaping.quoted).joined(separator: ",")
    return .text(
      #"{"method":"unsubscribe","params":{"channel":"ticker","symbol":[\#(list)]},"req_id":\#(id)}"#)
  }

  /// The texts of `actions`' text frames, parsed; the answers' times are left out.
  static func answers(_ actions: [EmulatorAction]) throws -> [JSONValue] {
    try actions.compactMap { action -> JSONValue? in
      guard case .text(let text) = action else { return nil }
      guard case .object(var object) = try VenueTest.json(text) else { return nil }
      object["time_in"] = nil
      object["time_out"] = nil
      return .object(object)
    }
  }

  static func violations(_ actions: [EmulatorAction]) -> [FeedServer.Violation] {
    actions.compactMap { if case .violation(let v) = $0 { v } else { nil } }
  }

  /// A recorded server message without its times.
  static func recorded(_ text: String) throws -> JSONValue {
    guard case .object(var object) = try VenueTest.json(text) else { return .null }
    object["time_in"] = nil
    object["time_out"] = nil
    return .object(object)
  }

  @Test("the recorded session: status, the ack, snapshot then updates, the refusal, the pong")
  func recordedSession() throws {
    var kraken = try Self.emulator()
    let (client, server) = try Self.fixtureMessages()
    // The status as the connection opens.
    #expect(kraken.nextDeadline == .zero)
    #expect(kraken.tick(at: .zero) == [.text(server[0])])
    // The answer to the subscription, in the recorded shape (its times are the emulator's own).
    let ack = kraken.receive(.text(client[0]), at: VenueTest.at(0.054))
    #expect(try Self.answers(ack) == [try Self.recorded(server[1])])
    #expect(kraken.subscribed == ["BTC/USD"])
    // The recorded snapshot goes out as the snapshot, the updates as updates.
    #expect(
      kraken.outgoing(VenueTest.serverStep(.text, server[2]), at: VenueTest.at(0.06)) == [.text(server[2])])
    // The recorded heartbeat: the emulator sends its own.
    #expect(kraken.outgoing(VenueTest.serverStep(.text, server[3]), at: VenueTest.at(1)).isEmpty)
    #expect(
      kraken.outgoing(VenueTest.serverStep(.text, server[4]), at: VenueTest.at(1.3)) == [.text(server[4])])
    // XBT/USD is Kraken's v1 name: refused, naming it; the connection stays and BTC/USD flows on.
    let refused = kraken.receive(.text(client[1]), at: VenueTest.at(1.6))
    #expect(try Self.answers(refused) == [try Self.recorded(server[5])])
    #expect(Self.violations(refused) == [.invalidRequest("Currency pair not supported XBT/USD")])
    #expect(kraken.outgoing(VenueTest.serverStep(.text, server[5]), at: VenueTest.at(1.7)).isEmpty)
    #expect(
      kraken.outgoing(VenueTest.serverStep(.text, server[6]), at: VenueTest.at(2)) == [.text(server[6])])
    // The ping is answered by a pong (the recorded one is a reply, not replayed).
    let pong = kraken.receive(.text(client[2]), at: VenueTest.at(25))
    #expect(try Self.answers(pong) == [try Self.recorded(server[7])])
    #expect(kraken.outgoing(VenueTest.serverStep(.text, server[7]), at: VenueTest.at(25)).isEmpty)
    #expect(kraken.subscribed == ["BTC/USD"])
    #expect(!kraken.isClosing)
  }

  @Test("answers are per symbol, echo req_id and carry RFC 3339 times")
  func perSymbolAnswers() throws {
    var kraken = try Self.emulator()
    let actions = kraken.receive(
      Self.subscribe(["ETH/USD", "NOPE/USD", "SOL/USD"], id: 7), at: VenueTest.at(2))
    let answers = try Self.answers(actions)
    #expect(
      answers.map { $0["symbol"]?.stringValue ?? $0["result"]?["symbol"]?.stringValue } == [
        "ETH/USD", "NOPE/USD", "SOL/USD",
      ])
    #expect(answers.map { $0["success"]?.boolValue } == [true, false, true])
    #expect(
      answers.allSatisfy { $0["req_id"]?.numberText == "7" && $0["method"]?.stringValue == "subscribe" })
    #expect(answers[1]["error"]?.stringValue == "Currency pair not supported NOPE/USD")
    #expect(kraken.subscribed == ["ETH/USD", "SOL/USD"])
    guard case .text(let first) = actions.first else { return }
    let value = try VenueTest.json(first)
    let timeIn = try #require(value["time_in"]?.stringValue)
    let timeOut = try #require(value["time_out"]?.stringValue)
    #expect(timeIn.count == 27 && timeIn.hasSuffix("Z"), "\(timeIn)")
    // Two seconds after the start, which is a second before the script's first ticker.
    #expect(RFC3339.milliseconds(timeIn) == Int64(1_789_999_332_462))
    #expect(timeOut > timeIn)
  }

  @Test("subscribing twice is refused; unsubscribing answers per symbol, an unknown one refused")
  func duplicatesAndUnsubscribe() throws {
    var kraken = try Self.emulator()
    _ = kraken.receive(Self.subscribe(["BTC/USD", "ETH/USD"], id: 1), at: .zero)
    let again = try Self.answers(kraken.receive(Self.subscribe(["BTC/USD"], id: 2), at: .zero))
    #expect(again.map { $0["error"]?.stringValue } == ["Already subscribed"])
    #expect(again.first?["symbol"]?.stringValue == "BTC/USD")
    let off = try Self.answers(kraken.receive(Self.unsubscribe(["BTC/USD", "SOL/USD"], id: 3), at: .zero))
    #expect(off.map { $0["success"]?.boolValue } == [true, false])
    #expect(
      off[0]["result"]
        == .object(JSONObject([("channel", .string("ticker")), ("symbol", .string("BTC/USD"))])))
    #expect(off[1]["error"]?.stringValue == "Subscription Not Found")
    #expect(kraken.subscribed == ["ETH/USD"])
    #expect(kraken.requestCount == 3)
  }

  @Test(
    "requests the venue refuses without naming a pair; the connection stays",
    arguments: [
      ("nope", "Malformed request"),
      (#"{"params":{}}"#, "Malformed request"),
      (#"{"method":"subscribe","req_id":"x"}"#, "req_id must be an integer"),
      (#"{"method":"subscribe","req_id":1}"#, "Missing params"),
      (#"{"method":"subscribe","params":{"symbol":["BTC/USD"]}}"#, "Missing channel"),
      (#"{"method":"subscribe","params":{"channel":"ticker","symbol":[]}}"#, "Missing symbol"),
      (
        #"{"method":"subscribe","params":{"channel":"ticker","symbol":[1]}}"#,
        "symbol must be a list of strings"
      ),
      (
        #"{"method":"subscribe","params":{"channel":"ticker","symbol":["BTC/USD"],"snapshot":"yes"}}"#,
        "snapshot must be a boolean"
      ),
      (
        #"{"method":"subscribe","params":{"channel":"book","symbol":["BTC/USD"]}}"#,
        "Channel book is not emulated"
      ),
      (#"{"method":"add_order","req_id":9}"#, "Method not found"),
    ])
  func refused(request: String, error: String) throws {
    var kraken = try Self.emulator()
    let actions = kraken.receive(.text(request), at: .zero)
    let answers = try Self.answers(actions)
    #expect(answers.map { $0["error"]?.stringValue } == [error])
    #expect(answers.first?["success"] == .bool(false) && answers.first?["symbol"] == nil)
    #expect(Self.violations(actions) == [.invalidRequest(error)])
    #expect(!kraken.isClosing && kraken.subscribed.isEmpty)
  }

  @Test("a snapshot at once when the pair's ticker has gone by; none when not asked for")
  func snapshots() throws {
    var kraken = try Self.emulator()
    let (_, server) = try Self.fixtureMessages()
    // Nothing subscribed: remembered, not sent.
    #expect(kraken.outgoing(VenueTest.serverStep(.text, server[4]), at: .zero).isEmpty)
    let actions = kraken.receive(Self.subscribe(["BTC/USD"], id: 1), at: .zero)
    #expect(actions.count == 2)
    guard case .text(let snapshot) = actions.last else { return }
    #expect(try VenueTest.json(snapshot)["type"]?.stringValue == "snapshot")
    #expect(try VenueTest.json(snapshot)["data"]?.arrayValue?.first?["last"]?.numberText == "80915.0")
    // Without a snapshot, the next ticker is an update.
    var quiet = try Self.emulator()
    #expect(quiet.receive(Self.subscribe(["BTC/USD"], id: 1, snapshot: false), at: .zero).count == 1)
    guard case .text(let update)? = quiet.outgoing(VenueTest.serverStep(.text, server[2]), at: .zero).first
    else {
      Issue.record("nothing sent")
      return
    }
    #expect(try VenueTest.json(update)["type"]?.stringValue == "update")
  }

  @Test("tickers only for subscribed pairs")
  func filtering() throws {
    var kraken = try Self.emulator()
    let (_, server) = try Self.fixtureMessages()
    let ticker = VenueTest.serverStep(.text, server[2])
    _ = kraken.receive(Self.subscribe(["ETH/USD"], id: 1), at: .zero)
    #expect(kraken.outgoing(ticker, at: .zero).isEmpty)
    _ = kraken.receive(Self.subscribe(["BTC/USD"], id: 2), at: .zero)
    _ = kraken.receive(Self.unsubscribe(["BTC/USD"], id: 3), at: .zero)
    #expect(kraken.outgoing(ticker, at: .zero).isEmpty)
  }

  @Test("heartbeats: only while subscribed, only in a second without a ticker")
  func heartbeats() throws {
    var kraken = try Self.emulator()
    let (_, server) = try Self.fixtureMessages()
    #expect(kraken.tick(at: .zero) == [.text(KrakenWire.status)])
    #expect(kraken.nextDeadline == VenueTest.at(60))  // the idle timeout only: nothing subscribed
    _ = kraken.receive(Self.subscribe(["BTC/USD"], id: 1), at: VenueTest.at(0.5))
    #expect(kraken.nextDeadline == VenueTest.at(1.5))
    #expect(kraken.tick(at: VenueTest.at(1.5)) == [.text(#"{"channel":"heartbeat"}"#)])
    // A ticker within the next second: no heartbeat for it.
    _ = kraken.outgoing(VenueTest.serverStep(.text, server[4]), at: VenueTest.at(2))
    #expect(kraken.tick(at: VenueTest.at(2.5)).isEmpty)
    #expect(kraken.tick(at: VenueTest.at(3.5)) == [.text(#"{"channel":"heartbeat"}"#)])
    _ = kraken.receive(Self.unsubscribe(["BTC/USD"], id: 2), at: VenueTest.at(4))
    #expect(kraken.nextDeadline == VenueTest.at(64))
  }

  @Test("a connection that sends no request for a minute is closed; a ping a while keeps it")
  func idle() throws {
    var kraken = try Self.emulator()
    _ = kraken.tick(at: .zero)
    _ = kraken.receive(Self.subscribe(["BTC/USD"], id: 1), at: VenueTest.at(1))
    // Pings every 25 s: never idle.
    for second in stride(from: 26.0, through: 201, by: 25) {
      _ = kraken.tick(at: VenueTest.at(second - 0.5))
      #expect(
        try Self.answers(kraken.receive(.text(#"{"method":"ping"}"#), at: VenueTest.at(second))).map {
          $0["method"]?.stringValue
        } == ["pong"])
    }
    #expect(!kraken.isClosing)
    // Then silence: WebSocket pings are not requests.
    #expect(kraken.receive(.ping([1]), at: VenueTest.at(220)).isEmpty)
    let closing = kraken.tick(at: VenueTest.at(261))
    #expect(closing.suffix(2) == [.violation(.idle), .close(CloseStatus(code: .goingAway, reason: "idle"))])
    #expect(kraken.isClosing && kraken.nextDeadline == nil)
    #expect(kraken.receive(.text(#"{"method":"ping"}"#), at: VenueTest.at(262)).isEmpty)
  }

  @Test("more requests than the window allows are refused with Exceeded msg rate; the connection stays")
  func rateLimit() throws {
    var rules = KrakenRules()
    rules.rateWindow = 600  // six requests are surely within it
    var kraken = try Self.emulator(rules: rules)
    for id in 1...5 {
      #expect(
        Self.violations(kraken.receive(.text(#"{"method":"ping","req_id":\#(id)}"#), at: .zero)).isEmpty)
    }
    let sixth = kraken.receive(Self.subscribe(["BTC/USD"], id: 6), at: VenueTest.at(1))
    let answers = try Self.answers(sixth)
    #expect(answers.map { $0["error"]?.stringValue } == ["Exceeded msg rate"])
    #expect(
      answers.first?["req_id"]?.numberText == "6" && answers.first?["method"]?.stringValue == "subscribe")
    #expect(Self.violations(sixth) == [.tooManyMessages])
    #expect(!kraken.isClosing && kraken.subscribed.isEmpty)
    // WebSocket control frames do not count.
    #expect(kraken.receive(.ping([]), at: VenueTest.at(1)).isEmpty)
  }

  @Test("the upgrade: /v2 only")
  func paths() throws {
    let kraken = try Self.emulator()
    #expect(kraken.admit(try VenueTest.request("/v2")) == .accept)
    #expect(kraken.admit(try VenueTest.request("/v2?x=1")) == .accept)
    #expect(
      kraken.admit(try VenueTest.request("/"))
        == .refuse(status: 404, reason: "Not Found", violation: .refusedHandshake("unknown path /")))
  }

  @Test("pairs: the script's and the listed ones; with acceptAnySymbol, any of Kraken's shape")
  func pairs() throws {
    var strict = try Self.emulator()
    let refused = try Self.answers(strict.receive(Self.subscribe(["XLM/EUR", "btc/usd"], id: 1), at: .zero))
    #expect(refused.map { $0["success"]?.boolValue } == [false, false])
    var lenient = try Self.emulator(acceptAnySymbol: true)
    let answers = try Self.answers(
      lenient.receive(Self.subscribe(["XLM/EUR", "btc/usd", "XLM-EUR"], id: 1), at: .zero))
    #expect(answers.map { $0["success"]?.boolValue } == [true, false, false])
    #expect(lenient.subscribed == ["XLM/EUR"])
    #expect(lenient.walkStart(for: "XLM/EUR") == .dollars)
    #expect(lenient.walkStart(for: "xlm/eur") == nil && lenient.walkStart(for: "XLM-EUR") == nil)
  }

  @Test("the synthetic stream: ticker updates with Kraken's fields, numbers and microsecond times")
  func synthetic() throws {
    var kraken = try Self.emulator()
    let (client, _) = try Self.fixtureMessages()
    _ = kraken.receive(.text(client[0]), at: .zero)
    let start = try #require(kraken.lastPrices["BTC/USD"])
    #expect(start.price == "80909.8")
    #expect(start.time == 1_789_999_333_384)
    var walk = SyntheticTrades(seed: 5, start: kraken.lastPrices)
    var times: [Int64] = []
    var types: [String] = []
    for _ in 0..<20 {
      for action in kraken.synthetic(walk.nextTrades(symbols: kraken.subscribed, elapsedMilliseconds: 150)) {
        guard case .text(let text) = action else { continue }
        let value = try VenueTest.json(text)
        #expect(value["channel"]?.stringValue == "ticker")
        types.append(value["type"]?.stringValue ?? "?")
        let entry = try #require(value["data"]?.arrayValue?.first)
        #expect(
          entry.objectValue?.keys == [
            "symbol", "bid", "bid_qty", "ask", "ask_qty", "last", "volume", "vwap", "low", "high", "change",
            "change_pct", "timestamp",
          ])
        let last = try #require(entry["last"]?.numberText)
        #expect(last.contains(".") && !last.hasSuffix("0") || last.hasSuffix(".0"), "\(last)")
        let time = try #require(entry["timestamp"]?.stringValue)
        #expect(time.count == 27 && time.hasSuffix("Z") && time.hasPrefix("2026-09-21T14:"), "\(time)")
        times.append(try #require(RFC3339.milliseconds(time)))
      }
    }
    #expect(times.count >= 20)
    #expect(times == times.sorted() && times.first! > 1_789_999_333_384)
    // Nothing of BTC/USD went by before the subscription: its first ticker is its snapshot.
    #expect(types.first == "snapshot" && types.dropFirst().allSatisfy { $0 == "update" })
  }

  @Test(
    "Kraken's numbers: the shortest decimal with a digit after the point",
    arguments: [
      (Int64(8_091_240), "80912.4"), (8_091_200, "80912.0"), (8_091_245, "80912.45"), (5, "0.05"),
      (100, "1.0"),
    ]
  )
  func numbers(cents: Int64, text: String) {
    #expect(KrakenWire.number(cents: cents) == text)
  }
}

/// The top of book (`--bid-ask`) in the emulation: tickers subscribed with `"event_trigger":"bbo"`.
@Suite("FeedServer: Kraken emulation, top of book")
struct KrakenEmulatorBookTests {
  @Test("the top-of-book subscription is answered per pair; its synthetic tickers decode to bid < ask")
  func syntheticBook() throws {
    var kraken = try KrakenEmulatorTests.emulator(acceptAnySymbol: true)
    let provider = try #require(KrakenProvider().topOfBook)
    var ids = RequestIDs(prefix: "unused")
    let requests = provider.subscriptionMessages(from: [], to: ["BTC/USD", "XLM/EUR"], ids: &ids)
    guard case .text(let request)? = requests.first, requests.count == 1 else {
      Issue.record("\(requests)")
      return
    }
    let answers = try KrakenEmulatorTests.answers(kraken.receive(.text(request), at: .zero))
    #expect(answers.map { $0["success"]?.boolValue } == [true, true])
    #expect(answers.map { $0["result"]?["symbol"]?.stringValue } == ["BTC/USD", "XLM/EUR"])
    #expect(kraken.bestBidOfferPairs == ["BTC/USD", "XLM/EUR"])
    var walk = SyntheticTrades(seed: 9, start: kraken.lastPrices)
    walk.admit("XLM/EUR", from: try #require(kraken.walkStart(for: "XLM/EUR")))
    var quotes: [Quote] = []
    for _ in 0..<20 {
      for case .text(let text) in kraken.synthetic(
        walk.nextTrades(symbols: kraken.subscribed, elapsedMilliseconds: 150))
      {
        quotes += provider.decode(.text(text)).quotes
      }
    }
    #expect(quotes.count >= 20)
    #expect(Set(quotes.map(\.symbol)) == ["BTC/USD", "XLM/EUR"])
    for quote in quotes {
      let ask = try #require(quote.ask)
      #expect(quote.bid < ask.price && quote.time > 0, "\(quote)")
      #expect(quote.bidSize.map { $0.value > 0 } == true && ask.size.map { $0.value > 0 } == true, "\(quote)")
    }
    // Unsubscribing forgets the trigger.
    _ = kraken.receive(KrakenEmulatorTests.unsubscribe(["XLM/EUR"], id: 9), at: .zero)
    #expect(kraken.bestBidOfferPairs == ["BTC/USD"])
  }

  @Test("an event_trigger other than bbo or trades is refused")
  func badTrigger() throws {
    var kraken = try KrakenEmulatorTests.emulator()
    let request =
      #"{"method":"subscribe","params":{"channel":"ticker","symbol":["BTC/USD"],"event_trigger":"book"},"req_id":1}"#
    let answers = try KrakenEmulatorTests.answers(kraken.receive(.text(request), at: .zero))
    #expect(answers.map { $0["success"]?.boolValue } == [false])
    #expect(answers.first?["error"]?.stringValue == "event_trigger must be bbo or trades")
    #expect(kraken.subscribed.isEmpty)
  }
}
