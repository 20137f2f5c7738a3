import Foundation
import Testing
import Venues
import WebSocketClient

@testable import Emulators
@testable import Recording
@testable import TestSupport
@testable import WebSocketWire

/// Each venue emulation over a real socket, with our own engine as the client (it answers pings
/// by itself, as a well-behaved client must) or with raw frames for what a bad client does.
/// Time bounds are hang guards only: every wait ends on an event.
@Suite("FeedServer: venue emulations end to end", .ownThread)
struct VenueEmulatorTests {
  static func serve(
    _ script: SessionScript, _ emulation: FeedServer.Options.Emulation,
    ending: ConnectionPlan.Ending = .hold, plans: [ConnectionPlan] = []
  ) throws -> FeedServer {
    let server = try FeedServer(
      script: script,
      options: .init(timeScale: 0, emulation: emulation, ending: ending, plans: plans))
    server.start()
    return server
  }

  static func connect(
    _ server: FeedServer, target: String? = nil, headers: [(name: String, value: String)] = []
  ) async throws -> MessageReader {
    var url = server.url
    if let target { url.target = target }
    return MessageReader(
      try await NativeEngine().connect(to: url, options: ConnectOptions(headers: headers, connectTimeout: 30))
    )
  }

  static func upbitRequest(_ codes: [String]) -> String {
    #"[{"ticket":"t"},{"type":"ticker","codes":[\#(codes.map { "\"\($0)\"" }.joined(separator: ","))]},{"format":"SIMPLE"}]"#
  }

  // MARK: Upbit

  @Test("Upbit: binary frames, and a new request replaces the whole list (dropped codes stop flowing)")
  func upbitWholeList() async throws {
    let script = SessionScript(steps: [
      VenueTest.serverStep(
        .binary, #"{"ty":"ticker","cd":"KRW-BTC","tp":100000000.0,"pcp":1.0,"ttms":1771247814642}"#),
      VenueTest.serverStep(
        .binary, #"{"ty":"ticker","cd":"KRW-ETH","tp":5000000.0,"pcp":1.0,"ttms":1771247814643}"#),
    ])
    let server = try Self.serve(script, .venue(.upbit), ending: .synthetic(seed: 11, interval: 0.005))
    let guardian = HangGuard(server)
    defer {
      guardian.cancel()
      server.stop()
    }
    #expect(server.url.target == "/websocket/v1")
    let connection = try await Self.connect(server)
    let both = Self.upbitRequest(["KRW-BTC", "KRW-ETH"])
    try await connection.send(.text(both))
    var seen: Set<String> = []
    let first = await connection.messages { message in
      if let code = try? VenueTest.json(message.text)["cd"]?.stringValue { seen.insert(code) }
      return seen.count == 2
    }
    #expect(first?.allSatisfy(\.isBinary) == true)

    try await connection.send(.text(Self.upbitRequest(["KRW-ETH"])))
    // Up to ETH's new snapshot, BTC may still be in flight; after it, ETH only.
    let boundary = await connection.messages { message in
      let value = try? VenueTest.json(message.text)
      return value?["cd"]?.stringValue == "KRW-ETH" && value?["st"]?.stringValue == "SNAPSHOT"
    }
    #expect(boundary != nil)
    var after: [String] = []
    for _ in 0..<30 {
      guard let message = await connection.next() else { break }
      #expect(message.isBinary)
      after.append((try? VenueTest.json(message.text)["cd"]?.stringValue) ?? "?")
    }
    #expect(after.count == 30 && after.allSatisfy { $0 == "KRW-ETH" }, "\(after)")
    await connection.close()

    let record = server.record
    #expect(record.clientMessages == [both, Self.upbitRequest(["KRW-ETH"])])
    #expect(
      record.subscriptions == [
        .init(connection: 0, request: both, subscribed: ["KRW-BTC", "KRW-ETH"]),
        .init(connection: 0, request: Self.upbitRequest(["KRW-ETH"]), subscribed: ["KRW-ETH"]),
      ])
    #expect(record.violations.isEmpty)
  }

  @Test("Upbit: PING is answered by {\"status\":\"UP\"} in a binary frame, then again every interval")
  func upbitPing() async throws {
    var rules = UpbitRules()
    rules.statusInterval = 0.05
    let server = try Self.serve(SessionScript(steps: []), .emulating(UpbitProvider(), rules: rules))
    let guardian = HangGuard(server)
    defer {
      guardian.cancel()
      server.stop()
    }
    let connection = try await Self.connect(server)
    try await connection.send(.text("PING"))
    var statuses: [WebSocketMessage] = []
    for _ in 0..<3 {
      guard let message = await connection.next() else { break }
      statuses.append(message)
    }
    // One answer, then two repeats nobody asked for.
    #expect(statuses == Array(repeating: .binary(Array(#"{"status":"UP"}"#.utf8)), count: 3))
    #expect(server.record.clientMessages == ["PING"])
    await connection.close()
  }

  @Test("Upbit: a malformed request gets the error in a binary frame, then a close with 1000")
  func upbitErrorThenClose() async throws {
    let fixture = try VenueTest.fixture("upbit")
    // The plan's own close must not overtake the venue's.
    let server = try Self.serve(
      fixture, .venue(.upbit), ending: .close(.init(code: .normalClosure, reason: "replay finished")))
    let guardian = HangGuard(server)
    defer {
      guardian.cancel()
      server.stop()
    }
    let connection = try await Self.connect(server)
    // The recorded request: an object, not an array.
    try await connection.send(.text(VenueTest.clientMessages(fixture)[2]))
    let messages = await connection.drain()
    let failed = connection.failed
    #expect(messages == [.binary(Array(VenueTest.dataSteps(fixture)[4].body.utf8))])
    #expect(!failed)
    #expect(connection.connection.peerCloseStatus == CloseStatus(code: .normalClosure))
    #expect(server.record.violations == [.invalidRequest("WRONG_FORMAT")])
    #expect(server.record.serverCloses == [CloseStatus(code: .normalClosure)])
  }

  @Test("Upbit: an upgrade request carrying Origin is refused with 429")
  func upbitOrigin() async throws {
    let server = try Self.serve(SessionScript(steps: []), .venue(.upbit))
    defer { server.stop() }
    await #expect(throws: WebSocketError.self) {
      _ = try await Self.connect(server, headers: [(name: "Origin", value: "https://example.com")])
    }
    #expect(server.record.violations == [.refusedHandshake("Origin header")])
  }

  @Test("Upbit: the upbitError ending sends the error in a binary frame and closes with 1000")
  func upbitErrorEnding() async throws {
    let server = try Self.serve(
      SessionScript(steps: []), .venue(.upbit),
      ending: .upbitError(name: "INVALID_PARAM", message: "bad codes"))
    let guardian = HangGuard(server)
    defer {
      guardian.cancel()
      server.stop()
    }
    let connection = try await Self.connect(server)
    try await connection.send(.text(Self.upbitRequest(["KRW-BTC"])))
    let messages = await connection.drain()
    #expect(
      messages == [.binary(Array(#"{"error":{"message":"bad codes","name":"INVALID_PARAM"}}"#.utf8))])
    #expect(connection.connection.peerCloseStatus?.code == .normalClosure)
  }

  // MARK: Binance

  @Test("Binance: our engine answers every one of the server's pings, and the connection stays up")
  func binancePingsAnswered() async throws {
    var rules = BinanceRules()
    // A ping every 0.2 s: twenty-five of them, each answered. The deadline is generous (both ends
    // live in this loaded test process, and a stall of the server's own reader must not count
    // against the client); that a late pong is dropped is `binanceNoPong`'s subject. The rate
    // limit is not the subject either (a stalled client answering several pings at once would
    // break it), so it is raised.
    rules.pingInterval = 0.2
    rules.pongTimeout = 30
    rules.messagesPerWindow = 100
    let server = try Self.serve(SessionScript(steps: []), .emulating(BinanceProvider(), rules: rules))
    let guardian = HangGuard(server)
    defer {
      guardian.cancel()
      server.stop()
    }
    let connection = try await Self.connect(server, target: "/stream?streams=btcusdt@trade")
    let cycles = await eventually(within: 60) { server.record.clientPongs.count >= 25 }
    #expect(cycles)
    try await connection.send(.text(#"{"method":"LIST_SUBSCRIPTIONS","id":1}"#))
    #expect(await connection.next() == .text(#"{"result":["btcusdt@trade"],"id":1}"#))
    let record = server.record
    #expect(record.violations.isEmpty)
    #expect(record.serverPings >= 25)
    #expect(record.clientPongs.count >= 25)
    await connection.close()
  }

  @Test("Binance: a client that never answers a ping is dropped, without a close frame")
  func binanceNoPong() async throws {
    var rules = BinanceRules()
    rules.pingInterval = 0.05
    rules.pongTimeout = 0.2
    let server = try Self.serve(SessionScript(steps: []), .emulating(BinanceProvider(), rules: rules))
    let guardian = HangGuard(server)
    defer {
      guardian.cancel()
      server.stop()
    }
    let port = server.port
    let frames = try await offPool { () -> Result<[Frame], any Error> in
      Result {
        let client = try RawWebSocketClient(port: port, target: "/ws/btcusdt@trade")
        var frames: [Frame] = []
        while let frame = try client.readFrame() { frames.append(frame) }
        return frames
      }
    }.get()
    #expect(!frames.isEmpty)
    #expect(frames.allSatisfy { $0.opcode == .ping })  // pings, and no close frame: a drop
    #expect(server.record.violations == [.missedPong])
    #expect(server.record.serverCloses.isEmpty)
  }

  @Test(
    "Binance: SUBSCRIBE acknowledged by id, trades wrapped on /stream, an invalid stream closed with 1008")
  func binanceSubscribe() async throws {
    let fixture = try VenueTest.fixture("binance")
    let server = try Self.serve(fixture, .venue(.binance))
    let guardian = HangGuard(server)
    defer {
      guardian.cancel()
      server.stop()
    }
    #expect(server.url.target == "/stream")
    let connection = try await Self.connect(server)
    try await connection.send(.text(#"{"method":"SUBSCRIBE","params":["btcusdt@trade"],"id":1}"#))
    #expect(await connection.next() == .text(#"{"result":null,"id":1}"#))
    #expect(await connection.next() == .text(VenueTest.dataSteps(fixture)[0].body))  // wrapped
    try await connection.send(.text(VenueTest.clientMessages(fixture)[1]))  // @@@bad###
    let messages = await connection.drain()
    let failed = connection.failed
    #expect(messages == [.text(#"{"error":{"code":2,"msg":"Invalid request: invalid stream"},"id":2}"#)])
    #expect(!failed)
    #expect(connection.connection.peerCloseStatus?.code == .policyViolation)
    #expect(server.record.violations == [.invalidRequest("Invalid request: invalid stream")])
  }

  @Test("Binance: raw /ws/<stream> payloads are not wrapped")
  func binanceRaw() async throws {
    let fixture = try VenueTest.fixture("binance")
    let server = try Self.serve(fixture, .venue(.binance))
    let guardian = HangGuard(server)
    defer {
      guardian.cancel()
      server.stop()
    }
    let connection = try await Self.connect(server, target: "/ws/btcusdt@trade")
    let message = await connection.next()
    let data = try #require(try VenueTest.json(VenueTest.dataSteps(fixture)[0].body)["data"])
    #expect(message == .text(data.serialized))
    #expect(
      server.record.subscriptions == [
        .init(connection: 0, request: "/ws/btcusdt@trade", subscribed: ["btcusdt@trade"])
      ])
    await connection.close()
  }

  @Test("Binance: the sixth message within the window is closed with 1008")
  func binanceRateLimit() async throws {
    var rules = BinanceRules()
    rules.rateWindow = 600  // six messages are surely within it, however slow the machine
    rules.pingInterval = nil
    let server = try Self.serve(SessionScript(steps: []), .emulating(BinanceProvider(), rules: rules))
    let guardian = HangGuard(server)
    defer {
      guardian.cancel()
      server.stop()
    }
    let connection = try await Self.connect(server)
    for id in 1...6 { try await connection.send(.text(#"{"method":"LIST_SUBSCRIPTIONS","id":\#(id)}"#)) }
    let messages = await connection.drain()
    let _ = connection.failed
    #expect(messages == (1...5).map { WebSocketMessage.text(#"{"result":[],"id":\#($0)}"#) })
    #expect(connection.connection.peerCloseStatus?.code == .policyViolation)
    #expect(server.record.violations == [.tooManyMessages])
  }

  @Test("Binance: serverShutdown before a planned close")
  func binanceServerShutdown() async throws {
    let server = try Self.serve(
      SessionScript(steps: []), .venue(.binance), ending: .binanceServerShutdown(eventTime: 1_789_404_800_000)
    )
    let guardian = HangGuard(server)
    defer {
      guardian.cancel()
      server.stop()
    }
    let connection = try await Self.connect(server, target: "/ws/btcusdt@trade")
    let messages = await connection.drain()
    let failed = connection.failed
    #expect(messages == [.text(#"{"e":"serverShutdown","E":1789404800000}"#)])
    #expect(!failed)
    #expect(connection.connection.peerCloseStatus?.code == .goingAway)
  }

  // MARK: Coinbase

  @Test("Coinbase: no subscribe within the deadline, and the connection is dropped")
  func coinbaseDeadline() async throws {
    let server = try Self.serve(
      try VenueTest.fixture("coinbase"),
      .emulating(CoinbaseProvider(), rules: CoinbaseRules().scaled(by: 0.05)))
    let guardian = HangGuard(server)
    defer {
      guardian.cancel()
      server.stop()
    }
    let connection = try await Self.connect(server)
    let messages = await connection.drain()
    let failed = connection.failed
    #expect(messages.isEmpty)
    #expect(failed)  // no close frame: 1006
    #expect(connection.connection.peerCloseStatus == nil)
    #expect(server.record.violations == [.noSubscription])
  }

  @Test(
    "Coinbase: the subscriptions reply and tickers; a bad product leaves the connection open"
  )
  func coinbaseSubscribe() async throws {
    let fixture = try VenueTest.fixture("coinbase")
    // The deadline is real time: a test task held up on a loaded machine could miss a short
    // one. It is tested on its own (above, and by the pure tests).
    var rules = CoinbaseRules()
    rules.subscribeDeadline = 60
    let server = try Self.serve(fixture, .emulating(CoinbaseProvider(), rules: rules))
    let guardian = HangGuard(server)
    defer {
      guardian.cancel()
      server.stop()
    }
    let connection = try await Self.connect(server)
    let client = VenueTest.clientMessages(fixture)
    let replies = VenueTest.dataSteps(fixture).map(\.body)
    try await connection.send(.text(client[0]))
    #expect(await connection.next() == .text(replies[0]))  // subscriptions
    #expect(await connection.next() == .text(replies[1]))  // ticker
    try await connection.send(.text(client[1]))  // GIBBERISH-USD
    #expect(await connection.next() == .text(replies[2]))
    // Still open after the error: a new subscribe is answered with the whole subscription.
    try await connection.send(.text(#"{"type":"subscribe","product_ids":["ETH-USD"],"channels":["ticker"]}"#))
    #expect(
      await connection.next()
        == .text(
          #"{"type":"subscriptions","channels":[{"name":"ticker","product_ids":["BTC-USD","ETH-USD"]}]}"#))
    #expect(server.record.violations == [.invalidRequest("GIBBERISH-USD is not a valid product")])
    await connection.close()
  }

  // MARK: Verbatim

  @Test("verbatim: the script as it is from the first moment; nothing the client says is answered")
  func verbatim() async throws {
    let script = SessionScript(steps: [
      VenueTest.serverStep(.text, #"{"data":[{"p":1,"s":"X","t":1,"v":1}],"type":"trade"}"#),
      VenueTest.serverStep(.binary, "raw"),
    ])
    // The close comes once the client's message has been handled: any answer would precede it.
    let server = try Self.serve(
      script, .verbatim,
      plans: [.init(cues: [.init(.clientMessages(1), [.close(.init(code: .normalClosure))])], ending: .hold)])
    let guardian = HangGuard(server)
    defer {
      guardian.cancel()
      server.stop()
    }
    let connection = try await Self.connect(server)
    // Sent before the client has said anything.
    #expect(await connection.next() == .text(script.steps[0].body))
    #expect(await connection.next() == .binary(Array("raw".utf8)))
    try await connection.send(.text(#"{"type":"subscribe","symbol":"NOPE"}"#))
    #expect(await connection.drain().isEmpty)
    #expect(connection.connection.peerCloseStatus?.code == .normalClosure)
    #expect(server.record.subscriptions.isEmpty && server.record.violations.isEmpty)
  }

  // MARK: Cues

  @Test("a cue drops the connection after the client's second message; the next connection is recorded apart")
  func cueDrop() async throws {
    let finnhub = try VenueTest.fixture("finnhub")
    let server = try Self.serve(
      finnhub, .venue(.finnhub),
      plans: [
        .init(cues: [.init(.clientMessages(2), [.drop])], ending: .hold),
        .init(
          cues: [.init(.feedMessages(1), [.text(#"{"type":"ping"}"#), .close(.init(code: .goingAway))])],
          ending: .hold),
      ])
    let guardian = HangGuard(server)
    defer {
      guardian.cancel()
      server.stop()
    }
    let subscribe = #"{"type":"subscribe","symbol":"BINANCE:BTCUSDT"}"#
    let first = try await Self.connect(server)
    try await first.send(.text(subscribe))
    try await first.send(.text(#"{"type":"subscribe","symbol":"AAPL"}"#))
    let _ = await first.drain()
    let dropped = first.failed
    #expect(dropped)
    #expect(first.connection.peerCloseStatus == nil)

    let second = try await Self.connect(server)
    try await second.send(.text(subscribe))
    let messages = await second.drain()
    let failed = second.failed
    #expect(messages.count == 2 && messages.last == .text(#"{"type":"ping"}"#))
    #expect(!failed && second.connection.peerCloseStatus?.code == .goingAway)
    #expect(server.record.subscriptions.map(\.connection) == [0, 0, 1])
    #expect(server.record.subscriptions.last?.subscribed == ["BINANCE:BTCUSDT"])
  }
}
