import FeedRuntime
import Testing
import Venues

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
    #expect(outbox.offer([1, 2, 3]) == .queued)
    #expect(outbox.offer([4, 5, 6]) == .queued)
    #expect(outbox.offer([7, 8, 9, 10, 11]) == .full)  // 11 bytes
    #expect(outbox.offer([7]) == .queued)
    #expect(outbox.offer([8]) == .full)  // 3 messages
    #expect(outbox.count == 3)
  }

  @Test("a close ends the queue: with discarding it goes first, and nothing is taken after it")
  func close() throws {
    let outbox = ClientOutbox(capacity: 8, byteLimit: 1 << 10)
    _ = outbox.offer([1])
    _ = outbox.offer([2])
    #expect(outbox.close(CloseStatus(code: .policyViolation), discarding: true))
    #expect(!outbox.close(CloseStatus(code: .goingAway), discarding: false))
    #expect(outbox.offer([3]) == .closing)
    let items = try #require(outbox.take())
    #expect(items.count == 1)
    guard case .close(let status) = items.first else {
      Issue.record("not a close: \(items)")
      return
    }
    #expect(status.code == .policyViolation)
    outbox.finish()
    #expect(outbox.take() == nil)
  }

  @Test("the writer waits while the queue is empty and wakes for the next frame")
  func wakes() async {
    let outbox = ClientOutbox(capacity: 8, byteLimit: 1 << 10)
    // `take()` blocks its thread: a thread of its own, never one of the concurrency pool's few.
    async let taken: Int? = withCheckedContinuation { continuation in
      DedicatedThread.start { continuation.resume(returning: outbox.take()?.count) }
    }
    // Offer only once the writer is blocked in take() (the bound is a hang guard, not a timing).
    let limit = ContinuousClock.now + .seconds(60)
    while !outbox.writerIsWaiting, ContinuousClock.now < limit { await Task.yield() }
    #expect(outbox.writerIsWaiting)
    _ = outbox.offer([1])
    #expect(await taken == 1)
  }
}
