import FeedRuntime
import Testing
import Venues

@testable import Emulators
@testable import Recording
@testable import TestSupport
@testable import WebSocketWire

/// Bithumb's rules as a pure state machine, driven with explicit instants.
@Suite("FeedServer: Bithumb emulation (pure)")
struct BithumbEmulatorTests {
  static func request(_ codes: [String], format: String? = "DEFAULT", extra: String = "") -> String {
    let list = codes.map { "\"\($0)\"" }.joined(separator: ",")
    let tail = format.map { #",{"format":"\#($0)"}"# } ?? ""
    return #"[{"ticket":"t"},{"type":"trade","codes":[\#(list)]\#(extra)}\#(tail)]"#
  }

  static func trade(_ code: String, _ price: String, _ time: Int64) -> SessionScript.Step {
    VenueTest.serverStep(
      .binary,
      #"{"type":"trade","code":"\#(code)","trade_price":\#(price),"trade_volume":0.5,"ask_bid":"BID","prev_closing_price":100,"trade_timestamp":\#(time),"sequential_id":"\#(time)","timestamp":\#(time),"stream_type":"REALTIME"}"#
    )
  }

  /// Two codes, alternating.
  static let twoCodes = SessionScript(steps: [
    trade("KRW-BTC", "100", 1), trade("KRW-ETH", "5", 2), trade("KRW-BTC", "101", 3),
    trade("KRW-ETH", "6", 4),
    trade("KRW-BTC", "102", 5), trade("KRW-ETH", "7", 6),
  ])

  static func emulator(_ script: SessionScript = twoCodes, rules: BithumbRules = BithumbRules())
    -> BithumbEmulator
  {
    BithumbEmulator(script: script, rules: rules)
  }

  /// The code and stream type of an outgoing trade (which must be a binary frame).
  static func codeAndType(_ action: EmulatorAction) throws -> String {
    guard case .binary(let text) = action else { throw TestFailure("not a binary frame: \(action)") }
    let value = try VenueTest.json(text)
    let code = value["code"]?.stringValue ?? value["cd"]?.stringValue ?? "?"
    let type = value["stream_type"]?.stringValue ?? value["st"]?.stringValue ?? "?"
    return "\(code) \(type)"
  }

  static func play(_ emulator: inout BithumbEmulator, _ steps: [SessionScript.Step]) throws -> [String] {
    try steps.flatMap { emulator.outgoing($0, at: VenueTest.at(1)) }.map(codeAndType)
  }

  @Test("a new request replaces the whole subscription: codes it leaves out stop flowing")
  func wholeListReplacement() throws {
    var bithumb = Self.emulator()
    let steps = Self.twoCodes.steps
    #expect(bithumb.receive(.text(Self.request(["KRW-BTC", "KRW-ETH"])), at: .zero).isEmpty)  // no ack
    #expect(bithumb.subscribed == ["KRW-BTC", "KRW-ETH"])
    #expect(
      try Self.play(&bithumb, Array(steps[0..<4])) == [
        "KRW-BTC SNAPSHOT", "KRW-ETH SNAPSHOT", "KRW-BTC REALTIME", "KRW-ETH REALTIME",
      ])
    // Only ETH now: its snapshot (its latest trade) comes at once again, BTC stops.
    let replaced = bithumb.receive(.text(Self.request(["KRW-ETH"])), at: VenueTest.at(2))
    #expect(try replaced.map(Self.codeAndType) == ["KRW-ETH SNAPSHOT"])
    #expect(bithumb.subscribed == ["KRW-ETH"])
    #expect(try Self.play(&bithumb, Array(steps[4...])) == ["KRW-ETH REALTIME"])
    #expect(bithumb.requestCount == 2)
  }

  @Test("the provider's change: the added code's snapshot alone, then every code in real time, no repeat")
  func providerChange() throws {
    var bithumb = Self.emulator()
    let provider = BithumbProvider()
    var ids = RequestIDs(prefix: "t")
    for message in provider.subscriptionMessages(from: [], to: ["KRW-BTC"], ids: &ids) {
      #expect(bithumb.receive(.text(message.text), at: .zero).isEmpty)
    }
    #expect(
      try Self.play(&bithumb, Array(Self.twoCodes.steps[0..<3])) == ["KRW-BTC SNAPSHOT", "KRW-BTC REALTIME"])
    let change = provider.subscriptionMessages(from: ["KRW-BTC"], to: ["KRW-BTC", "KRW-ETH"], ids: &ids)
    #expect(change.count == 2)
    let answers = try change.flatMap { bithumb.receive(.text($0.text), at: VenueTest.at(2)) }.map(
      Self.codeAndType)
    // ETH's latest trade is its starting price; BTC's is not sent again.
    #expect(answers == ["KRW-ETH SNAPSHOT"])
    #expect(bithumb.subscribed == ["KRW-BTC", "KRW-ETH"])
    #expect(
      try Self.play(&bithumb, Array(Self.twoCodes.steps[3...])) == [
        "KRW-ETH REALTIME", "KRW-BTC REALTIME", "KRW-ETH REALTIME",
      ])
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

  @Test("trades are binary frames in the requested format; the recorded ones byte for byte")
  func formats() throws {
    let fixture = try VenueTest.fixture("bithumb")
    var bithumb = Self.emulator(fixture)
    _ = bithumb.receive(.text(VenueTest.clientMessages(fixture)[0]), at: .zero)
    let data = VenueTest.dataSteps(fixture)
    let sent = data.flatMap { bithumb.outgoing($0, at: VenueTest.at(1)) }
    // The four BTC trades, then the one after the change; the recorded statuses and the error
    // (replies to the recording's client) are not replayed, ETH is not subscribed.
    #expect(sent.count == 5)
    #expect(sent.first == .binary(data[0].body))  // the recorded SNAPSHOT
    #expect(sent[1] == .binary(data[1].body))  // and the REALTIME after it

    var simple = Self.emulator(fixture)
    _ = simple.receive(.text(Self.request(["KRW-BTC"], format: "SIMPLE")), at: .zero)
    guard case .binary(let text) = try #require(simple.outgoing(data[1], at: VenueTest.at(1)).first) else {
      Issue.record("not binary")
      return
    }
    let value = try VenueTest.json(text)
    #expect(value["cd"]?.stringValue == "KRW-BTC" && value["tp"]?.numberText == "95540000")
    #expect(value["ttms"]?.numberText == "1783658381574" && value["st"]?.stringValue == "SNAPSHOT")
    #expect(value["code"] == nil && value["trade_price"] == nil)
  }

  @Test("unknown and lower-case codes are accepted without a word, and get nothing")
  func silentCodes() throws {
    var bithumb = Self.emulator()
    #expect(bithumb.receive(.text(Self.request(["krw-btc", "KRW-NOPE"])), at: .zero).isEmpty)
    #expect(bithumb.subscribed == ["krw-btc", "KRW-NOPE"])
    #expect(try Self.play(&bithumb, Self.twoCodes.steps).isEmpty)
    #expect(bithumb.nextDeadline == VenueTest.at(60))  // only the idle close
  }

  @Test("PING is answered by {\"status\":\"UP\"} in a binary frame, which then repeats every 10 s")
  func pingUp() {
    var bithumb = Self.emulator()
    #expect(bithumb.receive(.text("PING"), at: VenueTest.at(20)) == [.binary(#"{"status":"UP"}"#)])
    #expect(bithumb.requestCount == 0)
    #expect(bithumb.nextDeadline == VenueTest.at(30))
    #expect(bithumb.tick(at: VenueTest.at(29.9)).isEmpty)
    #expect(bithumb.tick(at: VenueTest.at(30)) == [.binary(#"{"status":"UP"}"#)])
    #expect(bithumb.nextDeadline == VenueTest.at(40))
  }

  @Test(
    "a client silent for 60 s is closed with 1001; anything it sends, a ping frame too, restarts the clock")
  func idle() {
    var silent = Self.emulator()
    _ = silent.receive(.text(Self.request(["KRW-BTC"])), at: VenueTest.at(1))
    #expect(silent.nextDeadline == VenueTest.at(61))
    #expect(silent.tick(at: VenueTest.at(60.9)).isEmpty)
    #expect(
      silent.tick(at: VenueTest.at(61))
        == [.violation(.idle), .close(CloseStatus(code: .goingAway, reason: "Idle Timeout"))])
    #expect(silent.isClosing && silent.nextDeadline == nil)
    #expect(silent.receive(.text("PING"), at: VenueTest.at(62)).isEmpty)

    var kept = Self.emulator()
    _ = kept.receive(.text(Self.request(["KRW-BTC"])), at: .zero)
    for second in stride(from: 20.0, through: 200, by: 20) {
      let actions = kept.tick(at: VenueTest.at(second))
      #expect(!actions.contains(.violation(.idle)))
      // Every other time a WebSocket ping frame instead of the text.
      let input: ClientInput = second.truncatingRemainder(dividingBy: 40) == 0 ? .ping([]) : .text("PING")
      _ = kept.receive(input, at: VenueTest.at(second))
    }
    #expect(!kept.isClosing)

    var scaled = Self.emulator(rules: BithumbRules().scaled(by: 0.1))
    #expect(scaled.nextDeadline == VenueTest.at(6))
    #expect(scaled.tick(at: VenueTest.at(6)).first == .violation(.idle))
    var never = BithumbRules()
    never.idleTimeout = nil
    #expect(Self.emulator(rules: never).nextDeadline == nil)
  }

  @Test(
    "an invalid request gets Bithumb's documented error, then a close with 1000",
    arguments: [
      (#"{"type":"trade","codes":["KRW-BTC"]}"#, "WRONG_FORMAT", "Format 이 맞지 않습니다."),  // an object
      ("ping", "WRONG_FORMAT", "Format 이 맞지 않습니다."),
      ("[]", "WRONG_FORMAT", "Format 이 맞지 않습니다."),
      (
        #"[{"ticket":"t"},{"format":"DEFAULT"},{"type":"trade","codes":["KRW-BTC"]}]"#, "WRONG_FORMAT",
        "Format 이 맞지 않습니다."
      ),
      (#"[{"type":"trade","codes":["KRW-BTC"]},{"ticket":"t"}]"#, "NO_TICKET", "티켓이 존재하지 않거나, 유효하지 않습니다."),
      (#"[{"ticket":""},{"type":"trade","codes":["KRW-BTC"]}]"#, "NO_TICKET", "티켓이 존재하지 않거나, 유효하지 않습니다."),
      (#"[{"ticket":"t"}]"#, "NO_TYPE", "type 필드가 존재하지 않습니다."),
      (#"[{"ticket":"t"},{"codes":["KRW-BTC"]}]"#, "NO_TYPE", "type 필드가 존재하지 않습니다."),
      (#"[{"ticket":"t"},{"type":"trade"}]"#, "NO_CODES", "codes 필드가 존재하지 않습니다."),
      (#"[{"ticket":"t"},{"type":"trade","codes":[]}]"#, "INVALID_PARAM", "codes 필드가 비어 있습니다."),
      (
        #"[{"ticket":"t"},{"type":"trade","codes":["KRW-BTC"]},{"format":"XML"}]"#, "INVALID_PARAM",
        "XML은 지원하지 않는 포맷입니다."
      ),
      (
        #"[{"ticket":"t"},{"type":"trade","codes":["KRW-BTC"]},{"format":"JSON_LIST"}]"#, "INVALID_PARAM",
        "JSON_LIST은 지원하지 않는 포맷입니다."
      ),
      (
        #"[{"ticket":"t"},{"type":"trades","codes":["KRW-BTC"]}]"#, "INVALID_PARAM", "Invalid parameter: type"
      ),
      (
        #"[{"ticket":"t"},{"type":"trade","codes":["KRW-BTC"],"isOnlySnapshot":true,"isOnlyRealtime":true}]"#,
        "INVALID_PARAM", "Invalid parameter: isOnlySnapshot and isOnlyRealtime"
      ),
    ])
  func errorThenClose(request: String, name: String, message: String) throws {
    var bithumb = Self.emulator()
    let actions = bithumb.receive(.text(request), at: VenueTest.at(1))
    #expect(actions.count == 2)
    guard case .binary(let text) = actions.first else {
      Issue.record("not a binary frame: \(actions)")
      return
    }
    #expect(try VenueTest.json(text)["error"]?["name"]?.stringValue == name)
    #expect(try VenueTest.json(text)["error"]?["message"]?.stringValue == message)
    #expect(actions.last == .violation(.invalidRequest(name)))
    // Nothing is heard or sent before the close.
    #expect(bithumb.receive(.text(Self.request(["KRW-BTC"])), at: VenueTest.at(1.05)).isEmpty)
    #expect(bithumb.outgoing(Self.twoCodes.steps[0], at: VenueTest.at(1.05)).isEmpty)
    #expect(bithumb.nextDeadline == VenueTest.at(1.15))
    #expect(bithumb.tick(at: VenueTest.at(1.149)).isEmpty)
    #expect(bithumb.tick(at: VenueTest.at(1.15)) == [.close(CloseStatus(code: .normalClosure))])
    #expect(bithumb.nextDeadline == nil)
  }

  @Test("the documented WRONG_FORMAT error, byte for byte; a binary request is one too")
  func recordedError() {
    var bithumb = Self.emulator()
    #expect(
      bithumb.receive(.binary(Array(Self.request(["KRW-BTC"]).utf8)), at: .zero).first
        == .binary(#"{"error":{"name":"WRONG_FORMAT","message":"Format 이 맞지 않습니다."}}"#))
  }

  @Test("other types are accepted and send nothing here; several trade objects add up")
  func types() throws {
    var bithumb = Self.emulator()
    let request =
      #"[{"ticket":"t"},{"type":"ticker","codes":["KRW-BTC"]},{"type":"trade","codes":["KRW-ETH"]},{"type":"trade","codes":["KRW-BTC"],"isOnlyRealtime":true}]"#
    #expect(bithumb.receive(.text(request), at: .zero).isEmpty)
    #expect(bithumb.subscribed == ["KRW-ETH", "KRW-BTC"])
    #expect(
      try Self.play(&bithumb, Array(Self.twoCodes.steps[0..<4])) == [
        "KRW-BTC REALTIME", "KRW-ETH SNAPSHOT", "KRW-BTC REALTIME", "KRW-ETH REALTIME",
      ])
  }

  @Test("the replay waits for a request; the synthetic stream continues each code in the venue's shape")
  func readinessAndSynthetic() throws {
    var bithumb = Self.emulator(try VenueTest.fixture("bithumb"))
    #expect(!bithumb.isReady(awaiting: 1))
    _ = bithumb.receive(.text("PING"), at: .zero)
    #expect(!bithumb.isReady(awaiting: 1))
    _ = bithumb.receive(.text(Self.request(["KRW-BTC"])), at: .zero)
    #expect(bithumb.isReady(awaiting: 1))
    let start = bithumb.lastPrices["KRW-BTC"]
    #expect(start?.price == "95548000" && start?.time == 1_783_658_411_779)
    #expect(bithumb.lastPrices["KRW-ETH"]?.price == "4146000")

    var walk = SyntheticTrades(seed: 3, start: bithumb.lastPrices)
    var seen = 0
    for step in 0..<20 {
      let trades = walk.nextTrades(symbols: bithumb.subscribed, elapsedMilliseconds: 150)
      for (trade, action) in zip(trades, bithumb.synthetic(trades)) {
        guard case .binary(let text) = action else {
          Issue.record("not binary: \(action)")
          continue
        }
        let value = try VenueTest.json(text)
        #expect(value["code"]?.stringValue == "KRW-BTC")
        // The first after the request is the code's snapshot, then realtime.
        #expect(value["stream_type"]?.stringValue == (seen == 0 ? "SNAPSHOT" : "REALTIME"), "step \(step)")
        #expect(value["trade_price"]?.numberText == BithumbWire.won(trade.cents))
        #expect(value["trade_timestamp"]?.numberText == String(trade.time))
        // The Korean date and time of the trade, nine hours ahead of UTC.
        let (date, time) = BithumbWire.koreanDateAndTime(trade.time)
        #expect(value["trade_date"]?.stringValue == date && value["trade_time"]?.stringValue == time)
        #expect(value["sequential_id"]?.stringValue?.count == 18)
        #expect(value["ask_bid"]?.stringValue == (trade.up ? "BID" : "ASK"))
        seen += 1
      }
    }
    #expect(seen >= 20)
  }

  @Test(
    "Korean date and time",
    arguments: [
      (Int64(1_783_658_381_138), "2026-07-10", "13:39:41"), (1_783_641_600_000, "2026-07-10", "09:00:00"),
      (1_783_609_200_000, "2026-07-10", "00:00:00"), (1_783_609_199_999, "2026-07-09", "23:59:59"),
    ])
  func koreanTime(milliseconds: Int64, date: String, time: String) {
    #expect(BithumbWire.koreanDateAndTime(milliseconds) == (date, time))
  }

  @Test("the synthetic walk starts any code of the venue's shape, KRW-USDT near its real rate")
  func walkStarts() {
    let bithumb = Self.emulator(SessionScript(steps: []))
    #expect(bithumb.walkStart(for: "KRW-XRP") == .won)
    #expect(bithumb.walkStart(for: "KRW-USDT") == .usdtInWon)
    #expect(bithumb.walkStart(for: "krw-xrp") == nil)
    #expect(bithumb.walkStart(for: "KRWXRP") == nil)
  }

  @Test("the replies are what the provider takes them for")
  func replies() throws {
    var bithumb = Self.emulator()
    let provider = BithumbProvider()
    guard case .binary(let up) = try #require(bithumb.receive(.text("PING"), at: .zero).first) else {
      Issue.record("not binary")
      return
    }
    #expect(provider.decode(.binary(Array(up.utf8))) == .keepalive)
    guard case .binary(let error) = try #require(bithumb.receive(.text("[]"), at: .zero).first) else {
      Issue.record("not binary")
      return
    }
    #expect(
      provider.decode(.binary(Array(error.utf8)))
        == .error(VenueError(name: "WRONG_FORMAT", message: "Format 이 맞지 않습니다.", fatal: true)))
  }

  @Test("the emulation's rules: the venue's, scaled, and its connection limit")
  func rules() {
    let rules = BithumbRules()
    #expect(rules.idleTimeout == 60 && rules.statusInterval == 10 && rules.errorCloseDelay == 0.15)
    let scaled = rules.scaled(by: 0.5)
    #expect(scaled.idleTimeout == 30 && scaled.statusInterval == 5 && scaled.errorCloseDelay == 0.075)
    #expect(scaled.connectionsPerSecond == 10)
    #expect(BithumbProvider.connectionLimit(rules)?.count == 10)
    #expect(BithumbProvider.idleDeadline(rules) == 60)
    #expect(VenueEmulation(BithumbProvider())?.idleDeadline == 60)
  }
}
