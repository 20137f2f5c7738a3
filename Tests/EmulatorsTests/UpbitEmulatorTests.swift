import FeedRuntime
import Testing
import Venues

@testable import Emulators
@testable import Recording
@testable import TestSupport
@testable import WebSocketWire

/// Upbit's rules as a pure state machine, driven with explicit instants.
@Suite("FeedServer: Upbit emulation (pure)")
struct UpbitEmulatorTests {
  static let simpleRequest = #"[{"ticket":"t-1"},{"type":"ticker","codes":["KRW-BTC"]},{"format":"SIMPLE"}]"#

  static func request(_ codes: [String], format: String? = "SIMPLE", extra: String = "") -> String {
    let list = codes.map { "\"\($0)\"" }.joined(separator: ",")
    let tail = format.map { #",{"format":"\#($0)"}"# } ?? ""
    return #"[{"ticket":"t"},{"type":"ticker","codes":[\#(list)]\#(extra)}\#(tail)]"#
  }

  static func ticker(_ code: String, _ price: String, _ time: Int64) -> SessionScript.Step {
    VenueTest.serverStep(
      .binary, #"{"ty":"ticker","cd":"\#(code)","tp":\#(price),"pcp":100.0,"ttms":\#(time),"st":"REALTIME"}"#)
  }

  /// Two codes, alternating.
  static let twoCodes = SessionScript(steps: [
    ticker("KRW-BTC", "100.0", 1), ticker("KRW-ETH", "5.0", 2), ticker("KRW-BTC", "101.0", 3),
    ticker("KRW-ETH", "6.0", 4), ticker("KRW-BTC", "102.0", 5), ticker("KRW-ETH", "7.0", 6),
  ])

  static func emulator(_ script: SessionScript = twoCodes, rules: UpbitRules = UpbitRules()) -> UpbitEmulator
  {
    UpbitEmulator(script: script, rules: rules)
  }

  /// The code and stream type of an outgoing ticker (which must be a binary frame).
  static func codeAndType(_ action: EmulatorAction) throws -> String {
    guard case .binary(let text) = action else { throw TestFailure("not a binary frame: \(action)") }
    let value = try VenueTest.json(text)
    let code = value["cd"]?.stringValue ?? value["code"]?.stringValue ?? "?"
    let type = value["st"]?.stringValue ?? value["stream_type"]?.stringValue ?? "?"
    return "\(code) \(type)"
  }

  static func play(_ emulator: inout UpbitEmulator, _ steps: [SessionScript.Step]) throws -> [String] {
    try steps.flatMap { emulator.outgoing($0, at: VenueTest.at(1)) }.map(codeAndType)
  }

  @Test("a new request replaces the whole subscription: codes it leaves out stop flowing")
  func wholeListReplacement() throws {
    var upbit = Self.emulator()
    let steps = Self.twoCodes.steps
    #expect(upbit.receive(.text(Self.request(["KRW-BTC", "KRW-ETH"])), at: .zero).isEmpty)  // no ack
    #expect(upbit.subscribed == ["KRW-BTC", "KRW-ETH"])
    #expect(
      try Self.play(&upbit, Array(steps[0..<4])) == [
        "KRW-BTC SNAPSHOT", "KRW-ETH SNAPSHOT", "KRW-BTC REALTIME", "KRW-ETH REALTIME",
      ])

    // Only ETH now: its snapshot comes at once (from the latest ticker), BTC stops.
    let replaced = upbit.receive(.text(Self.request(["KRW-ETH"])), at: VenueTest.at(2))
    #expect(try replaced.map(Self.codeAndType) == ["KRW-ETH SNAPSHOT"])
    #expect(upbit.subscribed == ["KRW-ETH"])
    #expect(try Self.play(&upbit, Array(steps[4...])) == ["KRW-ETH REALTIME"])
    #expect(upbit.requestCount == 2)
  }

  @Test("tickers are binary frames in the requested format; exponent numbers keep their text")
  func formats() throws {
    var simple = Self.emulator(try VenueTest.fixture("upbit"))
    _ = simple.receive(.text(Self.simpleRequest), at: .zero)
    let fixture = VenueTest.dataSteps(try VenueTest.fixture("upbit"))
    let sent = fixture.flatMap { simple.outgoing($0, at: VenueTest.at(1)) }
    // The two tickers; the recorded UPs and the error (replies to the recording's client) are not replayed.
    #expect(sent.count == 2)
    guard case .binary(let snapshot) = sent[0], case .binary(let realtime) = sent[1] else {
      Issue.record("not binary: \(sent)")
      return
    }
    #expect(snapshot == fixture[0].body)  // already SIMPLE and SNAPSHOT: byte for byte
    #expect(realtime.contains(#""tp":1.03156E8"#) && realtime.contains(#""st":"REALTIME""#))

    var full = Self.emulator(try VenueTest.fixture("upbit"))
    _ = full.receive(.text(Self.request(["KRW-BTC"], format: nil)), at: .zero)  // DEFAULT is the default
    guard case .binary(let text) = try #require(full.outgoing(fixture[1], at: VenueTest.at(1)).first) else {
      Issue.record("not binary")
      return
    }
    let value = try VenueTest.json(text)
    #expect(value["code"]?.stringValue == "KRW-BTC")
    #expect(value["trade_price"]?.numberText == "1.03156E8")
    #expect(value["trade_timestamp"]?.numberText == "1771247815101")
    #expect(value["stream_type"]?.stringValue == "SNAPSHOT")
    #expect(value["cd"] == nil && value["tp"] == nil)
  }

  @Test("isOnlySnapshot and isOnlyRealtime")
  func snapshotFlags() throws {
    var snapshots = Self.emulator()
    _ = snapshots.receive(.text(Self.request(["KRW-BTC"], extra: #","isOnlySnapshot":true"#)), at: .zero)
    #expect(try Self.play(&snapshots, Self.twoCodes.steps) == ["KRW-BTC SNAPSHOT"])
    var realtime = Self.emulator()
    _ = realtime.receive(.text(Self.request(["KRW-BTC"], extra: #","isOnlyRealtime":true"#)), at: .zero)
    #expect(
      try Self.play(&realtime, Self.twoCodes.steps) == [
        "KRW-BTC REALTIME", "KRW-BTC REALTIME", "KRW-BTC REALTIME",
      ])
  }

  @Test("lower-case and unknown codes are accepted without a word, and get nothing")
  func silentCodes() throws {
    var upbit = Self.emulator()
    #expect(upbit.receive(.text(Self.request(["krw-btc", "KRW-NOPE"])), at: .zero).isEmpty)
    #expect(upbit.subscribed == ["krw-btc", "KRW-NOPE"])
    #expect(try Self.play(&upbit, Self.twoCodes.steps).isEmpty)
    #expect(upbit.nextDeadline == nil)  // no error, no close coming
  }

  @Test("PING is answered by {\"status\":\"UP\"} in a binary frame, which then repeats")
  func pingUp() {
    var upbit = Self.emulator()
    #expect(upbit.receive(.text("PING"), at: VenueTest.at(20)) == [.binary(#"{"status":"UP"}"#)])
    #expect(upbit.requestCount == 0)
    #expect(upbit.nextDeadline == VenueTest.at(30))
    #expect(upbit.tick(at: VenueTest.at(29.9)).isEmpty)
    #expect(upbit.tick(at: VenueTest.at(30)) == [.binary(#"{"status":"UP"}"#)])
    #expect(upbit.nextDeadline == VenueTest.at(40))
  }

  @Test(
    "an invalid request gets Upbit's error, then a close with 1000 about 150 ms later",
    arguments: [
      (#"{"type":"ticker","codes":["KRW-BTC"]}"#, "WRONG_FORMAT"),  // an object, as recorded
      ("ping", "WRONG_FORMAT"),
      ("[]", "WRONG_FORMAT"),
      (#"[{"ticket":"t"},{"format":"SIMPLE"},{"type":"ticker","codes":["KRW-BTC"]}]"#, "WRONG_FORMAT"),
      (#"[{"type":"ticker","codes":["KRW-BTC"]},{"ticket":"t"}]"#, "NO_TICKET"),
      (#"[{"ticket":""},{"type":"ticker","codes":["KRW-BTC"]}]"#, "NO_TICKET"),
      (#"[{"ticket":"t"}]"#, "NO_TYPE"),
      (#"[{"ticket":"t"},{"codes":["KRW-BTC"]}]"#, "NO_TYPE"),
      (#"[{"ticket":"t"},{"type":"ticker"}]"#, "NO_CODES"),
      (#"[{"ticket":"t"},{"type":"ticker","codes":[]}]"#, "NO_CODES"),
      (#"[{"ticket":"t"},{"type":"tickers","codes":["KRW-BTC"]}]"#, "INVALID_PARAM"),
      (#"[{"ticket":"t"},{"type":"ticker","codes":["KRW-BTC"]},{"format":"XML"}]"#, "INVALID_PARAM"),
    ])
  func errorThenClose(request: String, name: String) throws {
    var upbit = Self.emulator()
    let actions = upbit.receive(.text(request), at: VenueTest.at(1))
    #expect(actions.count == 2)
    guard case .binary(let text) = actions.first else {
      Issue.record("not a binary frame: \(actions)")
      return
    }
    #expect(try VenueTest.json(text)["error"]?["name"]?.stringValue == name)
    #expect(actions.last == .violation(.invalidRequest(name)))
    // Nothing is heard or sent before the close.
    #expect(upbit.receive(.text(Self.simpleRequest), at: VenueTest.at(1.05)).isEmpty)
    #expect(upbit.outgoing(Self.twoCodes.steps[0], at: VenueTest.at(1.05)).isEmpty)
    #expect(upbit.nextDeadline == VenueTest.at(1.15))
    #expect(upbit.tick(at: VenueTest.at(1.149)).isEmpty)
    #expect(upbit.tick(at: VenueTest.at(1.15)) == [.close(CloseStatus(code: .normalClosure))])
    #expect(upbit.nextDeadline == nil)
  }

  @Test("the recorded WRONG_FORMAT error, byte for byte; a binary request is one too")
  func recordedError() {
    var upbit = Self.emulator()
    #expect(
      upbit.receive(.binary(Array(Self.simpleRequest.utf8)), at: .zero).first
        == .binary(#"{"error":{"message":"Format 이 맞지 않습니다.","name":"WRONG_FORMAT"}}"#))
  }

  @Test("more than 5 requests in a second (PING included) is closed with 1008")
  func perSecondLimit() {
    var upbit = Self.emulator()
    for i in 0..<4 {
      #expect(upbit.receive(.text(Self.simpleRequest), at: VenueTest.at(Double(i) * 0.2)).isEmpty)
    }
    #expect(upbit.receive(.text("PING"), at: VenueTest.at(0.8)) == [.binary(UpbitEmulator.status)])
    #expect(
      upbit.receive(.text(Self.simpleRequest), at: VenueTest.at(0.9))
        == [
          .violation(.tooManyMessages),
          .close(CloseStatus(code: .policyViolation, reason: "too many requests")),
        ])
    #expect(upbit.receive(.text("PING"), at: VenueTest.at(5)).isEmpty)  // closed

    // Spread out, the same six are fine.
    var paced = Self.emulator()
    for i in 0..<6 {
      #expect(paced.receive(.text(Self.simpleRequest), at: VenueTest.at(Double(i) * 0.25)).isEmpty)
    }
  }

  @Test("more than 100 requests in a minute is closed with 1008")
  func perMinuteLimit() {
    var upbit = Self.emulator()
    for i in 0..<100 { #expect(upbit.receive(.text("PING"), at: VenueTest.at(Double(i) * 0.5)).count == 1) }
    #expect(upbit.receive(.text("PING"), at: VenueTest.at(50)).first == .violation(.tooManyMessages))
  }

  @Test("an upgrade request with an Origin header is refused with 429")
  func origin() throws {
    let upbit = Self.emulator()
    #expect(
      upbit.admit(try VenueTest.request("/websocket/v1", headers: [("Origin", "https://example.com")]))
        == .refuse(status: 429, reason: "Too Many Requests", violation: .refusedHandshake("Origin header")))
    #expect(upbit.admit(try VenueTest.request("/websocket/v1")) == .accept)
    var lenient = UpbitRules()
    lenient.refuseOrigin = false
    let allowed = Self.emulator(rules: lenient)
    #expect(
      allowed.admit(try VenueTest.request("/", headers: [("Origin", "https://example.com")])) == .accept)
  }

  @Test("the replay waits for a request; the synthetic stream continues each code in SIMPLE form")
  func readinessAndSynthetic() throws {
    var upbit = Self.emulator(try VenueTest.fixture("upbit"))
    #expect(!upbit.isReady(awaiting: 1))
    _ = upbit.receive(.text("PING"), at: .zero)
    #expect(!upbit.isReady(awaiting: 1))
    _ = upbit.receive(.text(Self.simpleRequest), at: .zero)
    #expect(upbit.isReady(awaiting: 1))
    let start = upbit.lastPrices["KRW-BTC"]
    #expect(start?.price == "103156000" && start?.time == 1_771_247_815_101)

    var walk = SyntheticTrades(seed: 3, start: upbit.lastPrices)
    var seen = 0
    for step in 0..<20 {
      let trades = walk.nextTrades(symbols: upbit.subscribed, elapsedMilliseconds: 150)
      for action in upbit.synthetic(trades) {
        guard case .binary(let text) = action else {
          Issue.record("not binary: \(action)")
          continue
        }
        let value = try VenueTest.json(text)
        #expect(value["cd"]?.stringValue == "KRW-BTC")
        // The first after the request is the code's snapshot, then realtime.
        #expect(value["st"]?.stringValue == (seen == 0 ? "SNAPSHOT" : "REALTIME"), "step \(step)")
        let price = try #require(value["tp"]?.numberText.flatMap(UpbitTicker.plainDecimal))
        #expect(Int64(price) != nil, "\(price)")
        #expect(value["ttms"]?.numberText.flatMap { Int64($0) }.map { $0 > 1_771_247_815_101 } == true)
        #expect(value["ab"]?.stringValue == "BID" || value["ab"]?.stringValue == "ASK")
        seen += 1
      }
    }
    #expect(seen >= 20)
  }

  @Test(
    "numbers as Upbit writes them",
    arguments: [
      (Int64(103_160_000), "1.0316E8"), (100_000_000, "1.0E8"), (5_123_000, "5123000.0"),
      (10_000_000, "1.0E7"),
    ])
  func javaDouble(value: Int64, text: String) {
    #expect(UpbitTicker.javaDouble(value) == text)
    #expect(UpbitTicker.plainDecimal(text) == String(value))
  }

  @Test(
    "exponent numbers read as plain decimals",
    arguments: [
      ("1.03156E8", "103156000"), ("4.9E-4", "0.00049"), ("103160000.0", "103160000"), ("0.5", "0.5"),
    ])
  func plainDecimal(text: String, plain: String) {
    #expect(UpbitTicker.plainDecimal(text) == plain)
  }
}

struct TestFailure: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
