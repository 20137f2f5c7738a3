import FeedRuntime
import Testing
import Venues
import WebSocketServer

@testable import FeedRuntime
@testable import Gateway
@testable import TickerSupport
@testable import WebSocketWire

@Suite("serve: the pure parts")
struct ServeTests {
  @Test("the union: joined by the first follower, left by the last; pinned symbols stay")
  func union() {
    var subscriptions = ServeSubscriptions(pinned: ["P"], perClientLimit: 2)
    #expect(subscriptions.add("X", for: 1) == .added(upstream: true))
    #expect(subscriptions.add("X", for: 2) == .added(upstream: false))
    #expect(subscriptions.add("X", for: 2) == .already)
    #expect(subscriptions.add("P", for: 2) == .added(upstream: false))
    #expect(subscriptions.add("Y", for: 2) == .tooMany)
    #expect(subscriptions.union == ["P", "X"])
    #expect(subscriptions.followers(of: "X") == [1, 2])
    #expect(subscriptions.removeClient(2) == [])
    #expect(subscriptions.remove("Y", for: 1) == false)
    #expect(subscriptions.remove("X", for: 1) == true)
    #expect(subscriptions.union == ["P"])
    #expect(subscriptions.removeClient(1) == [])
  }

  @Test("client requests: subscribe, unsubscribe, ping; everything else refused with a reason")
  func requests() {
    #expect(ServeRequest.parse(#"{"type":"subscribe","symbol":"AAPL"}"#) == .success(.subscribe("AAPL")))
    #expect(ServeRequest.parse(#" {"symbol":"A","type":"unsubscribe"} "#) == .success(.unsubscribe("A")))
    #expect(ServeRequest.parse(#"{"type":"ping"}"#) == .success(.ping))
    #expect(ServeRequest.parse("hello") == .failure(.notJSON))
    #expect(ServeRequest.parse("[1]") == .failure(.notAnObject))
    #expect(ServeRequest.parse(#"{"type":"sub"}"#) == .failure(.unknownType("sub")))
    #expect(ServeRequest.parse(#"{"type":"subscribe","symbol":""}"#) == .failure(.missingSymbol))
    #expect(ServeRequest.parse(#"{"type":"subscribe","symbol":7}"#) == .failure(.missingSymbol))
    #expect(
      ServeRequest.parse(#"{"type":"subscribe","symbol":"A\u001b[2J"}"#) == .failure(.badSymbol("A\u{1b}[2J"))
    )
    let long = String(repeating: "x", count: ServeRequest.maximumSymbolBytes + 1)
    #expect(ServeRequest.parse(#"{"type":"subscribe","symbol":"\#(long)"}"#) == .failure(.badSymbol(long)))
    #expect(ServeRequest.parse(String(repeating: "[", count: 100)) == .failure(.notJSON))
  }

  @Test(
    "trade messages in Finnhub's shape keep each price's decimal text, and decode back to the same quotes")
  func tradeShape() throws {
    let quotes = [
      Quote(
        symbol: "BINANCE:BTCUSDT", price: try #require(Price("95372.10")), volume: Price("0.00063"), time: 1),
      Quote(symbol: "A\"B", price: try #require(Price("0.000012")), volume: nil, time: 1_768_655_932_976),
    ]
    let text = FinnhubWire.tradeMessage(quotes)
    #expect(
      text == #"{"data":[{"c":null,"p":95372.10,"s":"BINANCE:BTCUSDT","t":1,"v":0.00063},"#
        + #"{"c":null,"p":0.000012,"s":"A\"B","t":1768655932976,"v":0}],"type":"trade"}"#)
    guard case .quotes(let decoded) = FinnhubProvider().decode(.text(text)) else {
      Issue.record("not decoded as quotes")
      return
    }
    #expect(decoded.map(\.price.text) == ["95372.10", "0.000012"])
    #expect(decoded.map(\.symbol) == ["BINANCE:BTCUSDT", "A\"B"])
    #expect(
      FinnhubWire.error("Invalid symbol \u{1b}X") == #"{"msg":"Invalid symbol \u001bX","type":"error"}"#)
  }

  @Test("the token: read from the query (percent-decoded) and compared whole")
  func token() {
    #expect(ServeAccess.queryValue("token", in: "/?token=abc") == "abc")
    #expect(ServeAccess.queryValue("token", in: "/ws?x=1&token=a%2Bb%20c") == "a+b c")
    #expect(ServeAccess.queryValue("token", in: "/?tokens=abc") == nil)
    #expect(ServeAccess.queryValue("token", in: "/") == nil)
    #expect(ServeAccess.queryValue("token", in: "/?token=%zz") == nil)
    #expect(ServeAccess.tokenMatches("s3cret", expected: "s3cret"))
    #expect(!ServeAccess.tokenMatches("s3cre", expected: "s3cret"))
    #expect(!ServeAccess.tokenMatches("s3cretx", expected: "s3cret"))
    #expect(!ServeAccess.tokenMatches("S3cret", expected: "s3cret"))
    #expect(!ServeAccess.tokenMatches(nil, expected: "s3cret"))
    #expect(!ServeAccess.tokenMatches("", expected: "s3cret"))
  }

  @Test(
    "loopback addresses",
    arguments: [
      ("127.0.0.1", true), ("127.1.2.3", true), ("::1", true), ("localhost", true),
      ("0.0.0.0", false), ("::", false), ("192.168.1.5", false), ("128.0.0.1", false),
    ])
  func loopback(address: String, isLoopback: Bool) {
    #expect(ServeAccess.isLoopback(address) == isLoopback)
  }
}

@Suite("serve: a client's request budget")
struct RequestBudgetTests {
  @Test("a burst at once, then the refill rate")
  func budget() {
    let start = ContinuousClock.now
    var budget = RequestBudget<ContinuousClock.Instant>(burst: 3, perSecond: 2)
    var answers: [Bool] = []
    for _ in 0..<4 { answers.append(budget.spend(at: start)) }
    answers.append(budget.spend(at: start + .milliseconds(400)))  // 0.8 of a request back
    answers.append(budget.spend(at: start + .milliseconds(600)))
    answers.append(budget.spend(at: start + .milliseconds(600)))
    // Never more than the burst, however long the pause.
    for _ in 0..<4 { answers.append(budget.spend(at: start + .seconds(100))) }
    #expect(answers == [true, true, true, false, false, true, false, true, true, true, false])
  }
}

@Suite("serve: a client's outbox")
struct ClientOutboxTests {
  @Test("bounded in messages and bytes; full says so instead of waiting")
  func bounded() {
    let outbox = ClientOutbox(capacity: 3, byteLimit: 10)
    #expect(outbox.offer([1, 2, 3]).offer == .queued)
    #expect(outbox.offer([4, 5, 6]).offer == .queued)
    #expect(outbox.offer([7, 8, 9, 10, 11]).offer == .full)  // 11 bytes
    #expect(outbox.offer([7]).offer == .queued)
    #expect(outbox.offer([8]).offer == .full)  // 3 messages
    #expect(outbox.count == 3)
  }

  @Test("a close ends the queue: with discarding it goes first, and nothing is taken after it")
  func close() throws {
    let outbox = ClientOutbox(capacity: 8, byteLimit: 1 << 10)
    _ = outbox.offer([1])
    _ = outbox.offer([2])
    #expect(outbox.close(CloseStatus(code: .policyViolation), discarding: true).queued)
    #expect(!outbox.close(CloseStatus(code: .goingAway), discarding: false).queued)
    #expect(outbox.offer([3]).offer == .closing)
    let items = try #require(outbox.take())
    #expect(items.count == 1)
    guard case .close(let status) = items.first else {
      Issue.record("not a close: \(items)")
      return
    }
    #expect(status.code == .policyViolation)
    #expect(outbox.take()?.isEmpty == true)
    outbox.finish()
    #expect(outbox.take() == nil)
  }

  @Test("the loop is asked to flush once per taking, however many frames come before it takes")
  func asksOnce() {
    let outbox = ClientOutbox(capacity: 8, byteLimit: 1 << 10)
    #expect(outbox.offer([1]).askFlush)
    #expect(!outbox.offer([2]).askFlush)
    #expect(outbox.take()?.count == 2)
    #expect(outbox.close(CloseStatus(code: .goingAway), discarding: false).askFlush)
  }
}

@Suite("serve: admission and fan-out")
struct ServeAdmissionTests {
  static func request(_ target: String, upgrade: Bool = true) throws -> ServerHandshake.Request {
    var text = "GET \(target) HTTP/1.1\r\nHost: x\r\n"
    if upgrade {
      text +=
        "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
    }
    return try #require(try ServerHandshake.parseRequest(Array((text + "\r\n").utf8))).request
  }

  @Test("the token, the upgrade, and a full server, each answered as a client sees it")
  func answers() throws {
    guard case .upgrade(let response) = ServeAdmission.answer(try Self.request("/?token=t"), token: "t")
    else {
      Issue.record("not upgraded")
      return
    }
    #expect(String(decoding: response, as: UTF8.self).hasPrefix("HTTP/1.1 101 Switching Protocols\r\n"))
    guard
      case .refuse(let unauthorized, 401, _) = ServeAdmission.answer(
        try Self.request("/?token=x"), token: "t")
    else {
      Issue.record("not refused with 401")
      return
    }
    #expect(String(decoding: unauthorized, as: UTF8.self).hasSuffix("\r\n\r\n401 Unauthorized\n"))
    guard
      case .refuse(_, 400, let why) = ServeAdmission.answer(try Self.request("/", upgrade: false), token: nil)
    else {
      Issue.record("not refused with 400")
      return
    }
    #expect(why == "not a WebSocket upgrade")
    guard case .refuse(let full, 503, "3 clients already connected") = ServeAdmission.full(limit: 3) else {
      Issue.record("not 503")
      return
    }
    #expect(String(decoding: full, as: UTF8.self).contains("Retry-After: 5\r\n"))
  }

  @Test("each client gets its symbols' trades under the names it asked for; equal asks share frames")
  func fanout() throws {
    let quotes = [
      Quote(symbol: "A", price: try #require(Price("1")), volume: nil, time: 1),
      Quote(symbol: "B", price: try #require(Price("2")), volume: nil, time: 2),
    ]
    var fanout = ServeFanout(quotes)
    let a = fanout.frames(for: [VenueSymbol(venue: 0, server: "A"): "A"])
    #expect(a.count == 1)
    #expect(fanout.frames(for: [VenueSymbol(venue: 0, server: "A"): "A"]) == a)
    #expect(fanout.frames(for: [VenueSymbol(venue: 0, server: "C"): "C"]).isEmpty)
    let renamed = try #require(fanout.frames(for: [VenueSymbol(venue: 0, server: "B"): "x/B"]).first)
    #expect(String(decoding: renamed.dropFirst(2), as: UTF8.self).contains(#""s":"x/B""#))
  }
}
