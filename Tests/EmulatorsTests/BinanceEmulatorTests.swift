import FeedRuntime
import Testing
import Venues

@testable import Emulators
@testable import Recording
@testable import TestSupport
@testable import WebSocketWire

/// Binance's rules as a pure state machine, driven with explicit instants.
@Suite("FeedServer: Binance emulation (pure)")
struct BinanceEmulatorTests {
  static let invalidStream = #"{"error":{"code":2,"msg":"Invalid request: invalid stream"},"id":2}"#
  static let close1008 = EmulatorAction.close(CloseStatus(code: .policyViolation, reason: ""))

  static func emulator(_ target: String, rules: BinanceRules = BinanceRules()) throws -> BinanceEmulator {
    var binance = BinanceEmulator(script: try VenueTest.fixture("binance"), rules: rules)
    #expect(binance.admit(try VenueTest.request(target)) == .accept)
    return binance
  }

  static func subscribe(_ streams: [String], id: Int, method: String = "SUBSCRIBE") -> String {
    #"{"method":"\#(method)","params":[\#(streams.map { "\"\($0)\"" }.joined(separator: ","))],"id":\#(id)}"#
  }

  static var trade: SessionScript.Step {
    get throws { VenueTest.dataSteps(try VenueTest.fixture("binance"))[0] }
  }

  @Test(
    "the endpoints Binance serves, and the streams their URLs subscribe",
    arguments: [
      ("/stream?streams=btcusdt@trade/ethusdt@trade", true, ["btcusdt@trade", "ethusdt@trade"]),
      ("/stream", true, []),
      ("/stream?streams=btcusdt%40trade", true, ["btcusdt@trade"]),
      ("/ws/btcusdt@trade", false, ["btcusdt@trade"]),
      ("/ws", false, []),
      ("/ws/btcusdt@kline_1m/ethusdt@depth@100ms", false, ["btcusdt@kline_1m", "ethusdt@depth@100ms"]),
    ])
  func endpoints(target: String, combined: Bool, streams: [String]) throws {
    let binance = try Self.emulator(target)
    #expect(binance.combined == combined)
    #expect(binance.subscribed == streams)
    #expect(binance.isReady(awaiting: 1) == !streams.isEmpty)
  }

  @Test(
    "other paths are not found; invalid stream names in the URL are bad requests",
    arguments: [
      ("/", 404), ("/websocket", 404), ("/streams?streams=btcusdt@trade", 404),
      ("/stream?streams=BTCUSDT@trade", 400), ("/ws/btcusdt", 400), ("/ws/btcusdt@trades", 400),
      ("/stream?streams=btc-usdt@trade", 400),
    ])
  func refusedTargets(target: String, status: Int) throws {
    var binance = BinanceEmulator(script: SessionScript(steps: []), rules: BinanceRules())
    guard case .refuse(let code, _, .refusedHandshake) = binance.admit(try VenueTest.request(target)) else {
      Issue.record("\(target) was accepted")
      return
    }
    #expect(code == status)
  }

  @Test("SUBSCRIBE, UNSUBSCRIBE and LIST_SUBSCRIPTIONS are answered by id")
  func acknowledgements() throws {
    var binance = try Self.emulator("/stream")
    #expect(
      binance.receive(.text(Self.subscribe(["ethusdt@trade"], id: 1)), at: .zero) == [
        .text(#"{"result":null,"id":1}"#)
      ])
    #expect(
      binance.receive(.text(Self.subscribe(["btcusdt@trade", "ethusdt@trade"], id: 7)), at: VenueTest.at(1))
        == [.text(#"{"result":null,"id":7}"#)])
    #expect(binance.subscribed == ["ethusdt@trade", "btcusdt@trade"])
    #expect(
      binance.receive(.text(#"{"method":"LIST_SUBSCRIPTIONS","id":8}"#), at: VenueTest.at(2))
        == [.text(#"{"result":["ethusdt@trade","btcusdt@trade"],"id":8}"#)])
    #expect(
      binance.receive(
        .text(Self.subscribe(["ethusdt@trade"], id: 9, method: "UNSUBSCRIBE")), at: VenueTest.at(3))
        == [.text(#"{"result":null,"id":9}"#)])
    #expect(binance.subscribed == ["btcusdt@trade"])
    #expect(binance.requestCount == 3)
  }

  @Test("an invalid stream name gets the recorded error, then a close with 1008")
  func invalidStream() throws {
    var binance = try Self.emulator("/stream?streams=btcusdt@trade")
    let request = VenueTest.clientMessages(try VenueTest.fixture("binance"))[1]
    #expect(
      binance.receive(.text(request), at: .zero)
        == [
          .text(Self.invalidStream), .violation(.invalidRequest("Invalid request: invalid stream")),
          Self.close1008,
        ])
    #expect(binance.receive(.text(Self.subscribe(["ethusdt@trade"], id: 3)), at: .zero).isEmpty)
    #expect(try binance.outgoing(Self.trade, at: .zero).isEmpty)
  }

  @Test(
    "other bad requests are answered with an error and closed",
    arguments: [
      (#"{"method":"SUBSCRIBE","params":["BTCUSDT@trade"],"id":3}"#, 2, "3"),
      (#"{"method":"SUBSCRIBE","params":[1],"id":3}"#, 2, "3"),
      (#"{"method":"SUBSCRIBE","params":["btcusdt@trade"],"id":"a"}"#, 2, "null"),
      (#"{"method":"SUBSCRIBE","params":["btcusdt@trade"],"id":-1}"#, 2, "null"),
      (#"{"method":"SUBSCRIBE","params":["btcusdt@trade"]}"#, 2, "null"),
      (#"{"method":"subscribe","params":["btcusdt@trade"],"id":4}"#, 2, "4"),
      (#"{"params":["btcusdt@trade"],"id":4}"#, 2, "null"),
      (#"{"method":"SUBSCRIBE","id":5}"#, 2, "5"),
      ("not json", 3, "null"),
    ])
  func badRequests(request: String, code: Int, id: String) throws {
    var binance = try Self.emulator("/stream")
    let actions = binance.receive(.text(request), at: .zero)
    #expect(actions.count == 3)
    guard case .text(let text) = actions.first else {
      Issue.record("no error: \(actions)")
      return
    }
    let value = try VenueTest.json(text)
    #expect(value["error"]?["code"]?.numberText == String(code))
    #expect((value["id"]?.numberText ?? (value["id"]?.isNull == true ? "null" : "?")) == id)
    #expect(actions.last == Self.close1008)
  }

  @Test("a binary frame is not a request")
  func binaryRequest() throws {
    var binance = try Self.emulator("/stream")
    #expect(binance.receive(.binary([0x7B, 0x7D]), at: .zero).last == Self.close1008)
  }

  @Test("trades go to subscribed streams only, wrapped on /stream and raw on /ws")
  func wrapping() throws {
    let trade = try Self.trade
    var combined = try Self.emulator("/stream?streams=btcusdt@trade")
    #expect(combined.outgoing(trade, at: .zero) == [.text(trade.body)])  // the recorded bytes

    var raw = try Self.emulator("/ws/btcusdt@trade")
    let data = try VenueTest.json(trade.body)["data"]
    #expect(raw.outgoing(trade, at: .zero) == [.text(try #require(data).serialized)])

    var other = try Self.emulator("/stream?streams=ethusdt@trade")
    #expect(other.outgoing(trade, at: .zero).isEmpty)

    var switched = try Self.emulator("/ws/btcusdt@trade")
    #expect(
      switched.receive(.text(#"{"method":"SET_PROPERTY","params":["combined",true],"id":1}"#), at: .zero)
        == [.text(#"{"result":null,"id":1}"#)])
    #expect(
      switched.receive(.text(#"{"method":"GET_PROPERTY","params":["combined"],"id":2}"#), at: .zero)
        == [.text(#"{"result":true,"id":2}"#)])
    #expect(switched.outgoing(trade, at: .zero) == [.text(trade.body)])
  }

  @Test("the recorded acknowledgement, error and close are replies, not replayed")
  func scriptedReplies() throws {
    var binance = try Self.emulator("/stream?streams=btcusdt@trade")
    let fixture = try VenueTest.fixture("binance")
    let sent = fixture.steps.filter { $0.direction == .server && $0.kind != .http }.flatMap {
      binance.outgoing($0, at: .zero)
    }
    #expect(sent == [.text(try Self.trade.body), .ping(Array("1789404780000".utf8))])
  }

  @Test("a ping every 20 s; a pong echoing it within 60 s keeps the connection")
  func pingsAnswered() throws {
    var binance = try Self.emulator("/stream?streams=btcusdt@trade")
    #expect(binance.nextDeadline == VenueTest.at(20))
    #expect(binance.tick(at: VenueTest.at(19.9)).isEmpty)
    var now = 20.0
    for _ in 0..<5 {
      let actions = binance.tick(at: VenueTest.at(now))
      guard case .ping(let payload) = actions.first, actions.count == 1 else {
        Issue.record("no ping at \(now): \(actions)")
        return
      }
      #expect(binance.receive(.pong(payload), at: VenueTest.at(now + 1)).isEmpty)
      now += 20
    }
    #expect(binance.nextDeadline == VenueTest.at(now))  // only the next ping is due
  }

  @Test("no pong echoing the ping's payload within 60 s: dropped without a close frame")
  func pongDeadline() throws {
    var binance = try Self.emulator("/stream?streams=btcusdt@trade")
    guard case .ping = binance.tick(at: VenueTest.at(20)).first else {
      Issue.record("no ping")
      return
    }
    // An unsolicited pong, or one with another payload, does not count.
    #expect(binance.receive(.pong([]), at: VenueTest.at(21)).isEmpty)
    #expect(binance.receive(.pong(Array("x".utf8)), at: VenueTest.at(22)).isEmpty)
    for at in [40.0, 60.0] {
      #expect(binance.nextDeadline == VenueTest.at(at))  // the next ping
      #expect(binance.tick(at: VenueTest.at(at)).count == 1)
    }
    #expect(binance.nextDeadline == VenueTest.at(80))  // the first ping's deadline
    #expect(binance.tick(at: VenueTest.at(79.9)).isEmpty)
    #expect(binance.tick(at: VenueTest.at(80)) == [.violation(.missedPong), .drop])
    #expect(binance.nextDeadline == nil)
    #expect(binance.receive(.text(#"{"method":"LIST_SUBSCRIPTIONS","id":1}"#), at: VenueTest.at(81)).isEmpty)
  }

  @Test("a late pong for the first ping clears it, and older ones")
  func pongClearsOlder() throws {
    var binance = try Self.emulator("/stream?streams=btcusdt@trade")
    var payloads: [[UInt8]] = []
    for at in [20.0, 40.0] {
      guard case .ping(let payload) = binance.tick(at: VenueTest.at(at)).first else { return }
      payloads.append(payload)
    }
    #expect(binance.receive(.pong(payloads[1]), at: VenueTest.at(45)).isEmpty)
    #expect(binance.nextDeadline == VenueTest.at(60))  // the third ping, no deadline before it
    #expect(binance.tick(at: VenueTest.at(60)).count == 1)
    #expect(binance.tick(at: VenueTest.at(80)).count == 1)  // the fourth ping, not a drop
  }

  @Test("more than 5 incoming frames a second, pings and pongs included, is closed with 1008")
  func rateLimit() throws {
    var binance = try Self.emulator("/stream")
    let inputs: [ClientInput] = [
      .text(Self.subscribe(["btcusdt@trade"], id: 1)), .ping([]), .pong([]), .pong([1]),
      .text(#"{"method":"LIST_SUBSCRIPTIONS","id":2}"#),
    ]
    for (i, input) in inputs.enumerated() {
      #expect(!binance.receive(input, at: VenueTest.at(Double(i) * 0.1)).contains(Self.close1008))
    }
    #expect(
      binance.receive(.pong([]), at: VenueTest.at(0.9))
        == [
          .violation(.tooManyMessages),
          .close(CloseStatus(code: .policyViolation, reason: "Too many messages")),
        ])

    var paced = try Self.emulator("/stream")
    for i in 0..<12 {
      #expect(
        !paced.receive(.pong([]), at: VenueTest.at(Double(i) * 0.2)).contains {
          $0 == .violation(.tooManyMessages)
        })
    }
  }

  @Test("the synthetic stream: trades of the subscribed streams, decimal strings, wrapped")
  func synthetic() throws {
    var binance = try Self.emulator("/stream?streams=btcusdt@trade")
    #expect(binance.lastPrices["btcusdt@trade"]?.price == "78860.00000000")
    var walk = SyntheticTrades(seed: 9, start: binance.lastPrices)
    var lastTime: Int64 = 1_789_404_776_250
    var ids: Set<String> = []
    for _ in 0..<30 {
      for action in binance.synthetic(walk.nextTrades(symbols: binance.subscribed, elapsedMilliseconds: 150))
      {
        guard case .text(let text) = action else {
          Issue.record("not text: \(action)")
          continue
        }
        let value = try VenueTest.json(text)
        #expect(value["stream"]?.stringValue == "btcusdt@trade")
        let data = try #require(value["data"])
        #expect(data["e"]?.stringValue == "trade" && data["s"]?.stringValue == "BTCUSDT")
        let price = try #require(data["p"]?.stringValue)
        #expect(price.split(separator: ".").last?.count == 8, "\(price)")
        #expect(data["q"]?.stringValue?.split(separator: ".").last?.count == 8)
        let time = try #require(data["T"]?.numberText.flatMap { Int64($0) })
        #expect(time > lastTime)
        lastTime = time
        ids.insert(data["t"]?.numberText ?? "")
      }
    }
    #expect(ids.count >= 30)
    #expect(!ids.contains("5206081234"))  // continues after the recorded trade id
  }
}
