import Testing
import Venues

@testable import Emulators
@testable import Recording
@testable import TestSupport
@testable import TickerSupport
@testable import WebSocketWire

/// Bitstamp's rules as a pure state machine, driven with explicit instants.
@Suite("FeedServer: Bitstamp emulation (pure)")
struct BitstampEmulatorTests {
  static func emulator(rules: BitstampRules = BitstampRules()) throws -> BitstampEmulator {
    BitstampEmulator(script: try VenueTest.fixture("bitstamp"), rules: rules)
  }

  static func fixtureMessages() throws -> (client: [String], server: [String]) {
    let fixture = try VenueTest.fixture("bitstamp")
    return (VenueTest.clientMessages(fixture), VenueTest.dataSteps(fixture).map(\.body))
  }

  static func request(_ event: String, _ channel: String) -> String {
    #"{"event":"bts:\#(event)","data":{"channel":"\#(channel)"}}"#
  }

  static func subscribe(_ market: String) -> String { request("subscribe", "live_trades_" + market) }

  static func ack(_ market: String, _ event: String = "bts:subscription_succeeded") -> EmulatorAction {
    .text(BitstampWire.answer(event, channel: "live_trades_" + market))
  }

  static func refusal(_ refusal: BitstampWire.Refusal) -> [EmulatorAction] {
    [.text(BitstampWire.error(refusal)), .violation(.invalidRequest(refusal.message))]
  }

  @Test("the recorded session: the answers word for word, trades, an unknown market acknowledged and silent")
  func recordedSession() throws {
    var bitstamp = try Self.emulator()
    let (client, server) = try Self.fixtureMessages()
    // server: ack, four trades, the unknown market's ack, a trade.
    #expect(bitstamp.receive(.text(client[0]), at: VenueTest.at(0.006)) == [.text(server[0])])
    #expect(bitstamp.subscribed == ["btcusd"])
    for (i, at) in [(1, 0.5), (2, 1.7), (3, 1.7), (4, 4.6)] {
      #expect(
        bitstamp.outgoing(VenueTest.serverStep(.text, server[i]), at: VenueTest.at(at)) == [.text(server[i])])
    }
    #expect(bitstamp.receive(.text(client[1]), at: VenueTest.at(5.1)) == [.text(server[5])])
    #expect(bitstamp.subscribed == ["btcusd", "nopeusd"])
    #expect(
      bitstamp.outgoing(VenueTest.serverStep(.text, server[6]), at: VenueTest.at(7.2)) == [.text(server[6])])
    // The script's own answers are the emulator's to make, not to replay.
    for reply in [server[0], server[5], BitstampWire.heartbeat, BitstampWire.error(.badSubscription)] {
      #expect(bitstamp.outgoing(VenueTest.serverStep(.text, reply), at: VenueTest.at(8)).isEmpty)
    }
    #expect(bitstamp.requestCount == 2)
    #expect(bitstamp.lastPrices["btcusd"]?.price == "79416")
    #expect(bitstamp.lastPrices["btcusd"]?.time == 1_791_455_024_290)
  }

  @Test(
    "subscribe, subscribe again, unsubscribe (also what is not subscribed): each answered naming its channel")
  func answers() throws {
    var bitstamp = try Self.emulator()
    #expect(bitstamp.receive(.text(Self.subscribe("ethusd")), at: .zero) == [Self.ack("ethusd")])
    #expect(bitstamp.receive(.text(Self.subscribe("ethusd")), at: .zero) == [Self.ack("ethusd")])
    #expect(bitstamp.receive(.text(Self.subscribe("xlmeur")), at: .zero) == [Self.ack("xlmeur")])
    #expect(bitstamp.subscribed == ["ethusd", "xlmeur"])
    #expect(
      bitstamp.receive(.text(Self.request("unsubscribe", "live_trades_ethusd")), at: .zero)
        == [Self.ack("ethusd", "bts:unsubscription_succeeded")])
    #expect(
      bitstamp.receive(.text(Self.request("unsubscribe", "live_trades_btcusd")), at: .zero)
        == [Self.ack("btcusd", "bts:unsubscription_succeeded")])
    #expect(bitstamp.subscribed == ["xlmeur"])
    // Another public family is acknowledged too, and carries nothing here.
    #expect(
      bitstamp.receive(.text(Self.request("subscribe", "diff_order_book_btcusd")), at: .zero)
        == [.text(BitstampWire.answer("bts:subscription_succeeded", channel: "diff_order_book_btcusd"))])
    #expect(bitstamp.subscribed == ["xlmeur"])
    // The book's channel (the top of book) is followed under its name.
    #expect(
      bitstamp.receive(.text(Self.request("subscribe", "order_book_btcusd")), at: .zero)
        == [.text(BitstampWire.answer("bts:subscription_succeeded", channel: "order_book_btcusd"))])
    #expect(bitstamp.subscribed == ["xlmeur", "order_book_btcusd"])
    #expect(
      bitstamp.receive(.text(Self.request("unsubscribe", "order_book_btcusd")), at: .zero)
        == [.text(BitstampWire.answer("bts:unsubscription_succeeded", channel: "order_book_btcusd"))])
    #expect(bitstamp.subscribed == ["xlmeur"])
    #expect(bitstamp.requestCount == 8)
  }

  @Test(
    "what Bitstamp refuses, with its words; nothing changes and the connection stays",
    arguments: [
      ("nope", BitstampWire.Refusal.incorrectJSON),
      (#"{"event":"bts:subscribe","data":{"channel":"live_trades_BTCUSD"}}"#, .invalidChannel),
      (#"{"event":"bts:subscribe","data":{"channel":"live_trades_btc/usd"}}"#, .invalidChannel),
      (#"{"event":"bts:subscribe","data":{"channel":"live_trades_"}}"#, .invalidChannel),
      (#"{"event":"bts:subscribe","data":{"channel":"trades_btcusd"}}"#, .invalidChannel),
      (#"{"event":"bts:subscribe","data":{}}"#, .badSubscription),
      (#"{"event":"bts:subscribe","data":{"channel":""}}"#, .badSubscription),
      (#"{"event":"bts:subscribe"}"#, .badSubscription),
      (#"{"event":"bts:ping"}"#, .badSubscription),
      (#"{"data":{"channel":"live_trades_btcusd"}}"#, .badSubscription),
      (#"[]"#, .badSubscription),
    ])
  func refused(request: String, refusal: BitstampWire.Refusal) throws {
    var bitstamp = try Self.emulator()
    _ = bitstamp.receive(.text(Self.subscribe("btcusd")), at: .zero)
    #expect(bitstamp.receive(.text(request), at: .zero) == Self.refusal(refusal))
    #expect(bitstamp.subscribed == ["btcusd"])
    #expect(!bitstamp.isClosing)
  }

  @Test("the error's wire shape: no channel, no code")
  func errorShape() {
    #expect(
      BitstampWire.error(.badSubscription)
        == #"{"event":"bts:error","channel":"","data":{"code":null,"message":"Bad subscription string."}}"#)
    #expect(
      BitstampProvider().decode(.text(BitstampWire.error(.invalidChannel)))
        == .error(VenueError(message: "Invalid channel provided.", fatal: false)))
  }

  @Test("the heartbeat is answered; binary frames are read as text")
  func heartbeat() throws {
    var bitstamp = try Self.emulator()
    #expect(
      bitstamp.receive(.text(#"{"event":"bts:heartbeat"}"#), at: .zero) == [.text(BitstampWire.heartbeat)])
    #expect(
      bitstamp.receive(.binary(Array(Self.subscribe("btcusd").utf8)), at: .zero) == [Self.ack("btcusd")])
    #expect(BitstampProvider().decode(.text(BitstampWire.heartbeat)) == .keepalive)
    #expect(bitstamp.requestCount == 1)
  }

  @Test("a frame over 512 bytes: closed with 1009")
  func oversizedFrame() throws {
    var bitstamp = try Self.emulator()
    let fits = Self.subscribe(String(repeating: "a", count: 512 - Self.subscribe("").utf8.count))
    #expect(fits.utf8.count == 512)
    #expect(bitstamp.receive(.text(fits), at: .zero).count == 1)
    let over = Self.subscribe(String(repeating: "a", count: 513 - Self.subscribe("").utf8.count))
    #expect(
      bitstamp.receive(.text(over), at: .zero)
        == [
          .violation(.invalidRequest("a frame of 513 bytes, over 512")),
          .close(CloseStatus(code: .messageTooBig, reason: "read limited at 513 bytes")),
        ])
    #expect(bitstamp.isClosing && bitstamp.nextDeadline == nil)
    #expect(bitstamp.receive(.text(#"{"event":"bts:heartbeat"}"#), at: .zero).isEmpty)
  }

  @Test("one channel past the limit: dropped without a word")
  func channelLimit() throws {
    var rules = BitstampRules()
    rules.channelsPerConnection = 2
    var bitstamp = try Self.emulator(rules: rules)
    _ = bitstamp.receive(.text(Self.subscribe("btcusd")), at: .zero)
    _ = bitstamp.receive(.text(Self.request("subscribe", "order_book_btcusd")), at: .zero)
    // The same channel again is no new one.
    #expect(bitstamp.receive(.text(Self.subscribe("btcusd")), at: .zero) == [Self.ack("btcusd")])
    #expect(
      bitstamp.receive(.text(Self.subscribe("ethusd")), at: .zero)
        == [.violation(.invalidRequest("more than 2 channels")), .drop])
    #expect(bitstamp.isClosing)
  }

  @Test("trades go out only for markets subscribed on live_trades")
  func filtering() throws {
    var bitstamp = try Self.emulator()
    let (_, server) = try Self.fixtureMessages()
    let trade = VenueTest.serverStep(.text, server[1])
    #expect(bitstamp.outgoing(trade, at: .zero).isEmpty)  // nothing subscribed
    _ = bitstamp.receive(.text(Self.request("subscribe", "order_book_btcusd")), at: .zero)
    #expect(bitstamp.outgoing(trade, at: .zero).isEmpty)  // another family
    _ = bitstamp.receive(.text(Self.subscribe("ethusd")), at: .zero)
    #expect(bitstamp.outgoing(trade, at: .zero).isEmpty)  // another market
    _ = bitstamp.receive(.text(Self.subscribe("btcusd")), at: .zero)
    #expect(bitstamp.outgoing(trade, at: .zero) == [.text(server[1])])
    _ = bitstamp.receive(.text(Self.request("unsubscribe", "live_trades_btcusd")), at: .zero)
    #expect(bitstamp.outgoing(trade, at: .zero).isEmpty)
    // What is neither an answer nor a trade goes out as it is: the maintenance notice.
    #expect(
      bitstamp.outgoing(VenueTest.serverStep(.text, BitstampWire.requestReconnect), at: .zero)
        == [.text(BitstampWire.requestReconnect)])
    #expect(
      BitstampProvider().decode(.text(BitstampWire.requestReconnect)) == .closingSoon("bts:request_reconnect")
    )
  }

  @Test("a ping every 54 s; a pong echoing it keeps the connection, anything else does not")
  func pings() throws {
    var bitstamp = try Self.emulator()
    #expect(bitstamp.nextDeadline == VenueTest.at(54))
    #expect(bitstamp.tick(at: VenueTest.at(53.9)).isEmpty)
    #expect(bitstamp.tick(at: VenueTest.at(54)) == [.ping(Array("1".utf8))])
    // Client messages, a heartbeat included, are no answer to the ping.
    _ = bitstamp.receive(.text(#"{"event":"bts:heartbeat"}"#), at: VenueTest.at(60))
    _ = bitstamp.receive(.pong(Array("other".utf8)), at: VenueTest.at(61))
    #expect(bitstamp.nextDeadline == VenueTest.at(108))
    #expect(bitstamp.tick(at: VenueTest.at(108)) == [.violation(.missedPong), .drop])
    #expect(bitstamp.isClosing && bitstamp.nextDeadline == nil)
  }

  @Test("a client whose engine answers every ping is never dropped; the timings scale")
  func keptByPongs() throws {
    var bitstamp = try Self.emulator(rules: BitstampRules().scaled(by: 0.01))
    _ = bitstamp.receive(.text(Self.subscribe("btcusd")), at: .zero)
    var now = 0.0
    for _ in 0..<50 {
      let due = try #require(bitstamp.nextDeadline)
      #expect(due <= VenueTest.at(now + 0.541))
      now = due.fractionalSeconds
      for action in bitstamp.tick(at: due) {
        guard case .ping(let payload) = action else {
          Issue.record("\(action)")
          continue
        }
        _ = bitstamp.receive(.pong(payload), at: due + .milliseconds(100))
      }
    }
    #expect(!bitstamp.isClosing && now > 20)
  }

  @Test("the maximum connection age ends the connection with 1001")
  func maximumAge() throws {
    var rules = BitstampRules()
    rules.maximumAge = 10
    rules.pingInterval = nil
    var bitstamp = try Self.emulator(rules: rules)
    #expect(bitstamp.nextDeadline == VenueTest.at(10))
    #expect(
      bitstamp.tick(at: VenueTest.at(10)) == [
        .close(CloseStatus(code: .goingAway, reason: "maximum connection age"))
      ])
    #expect(BitstampRules().maximumAge == Double(90 * 86_400))
    #expect(BitstampRules().scaled(by: 0.5).pingInterval == 27)
  }

  @Test("the synthetic stream: trades with every member, exact strings beside their floats")
  func synthetic() throws {
    var bitstamp = try Self.emulator()
    _ = bitstamp.receive(.text(Self.subscribe("btcusd")), at: .zero)
    _ = bitstamp.receive(.text(Self.subscribe("xlmeur")), at: .zero)
    #expect(bitstamp.walkStart(for: "xlmeur") == .dollars)
    #expect(bitstamp.walkStart(for: "XLMEUR") == nil && bitstamp.walkStart(for: "xlm/eur") == nil)
    let start = try #require(bitstamp.lastPrices["btcusd"])
    #expect(start.price == "79416" && start.time == 1_791_455_024_290)
    var walk = SyntheticTrades(seed: 5, start: bitstamp.lastPrices)
    walk.admit("xlmeur", from: .dollars)
    let provider = BitstampProvider()
    var times: [Int64] = []
    var ids: [Int64] = []
    for _ in 0..<20 {
      let trades = walk.nextTrades(symbols: bitstamp.subscribed, elapsedMilliseconds: 150)
      let actions = bitstamp.synthetic(trades)
      #expect(actions.count == trades.count)
      for (trade, action) in zip(trades, actions) {
        guard case .text(let text) = action else {
          Issue.record("\(action)")
          continue
        }
        let value = try VenueTest.json(text)
        #expect(value["event"]?.stringValue == "trade")
        #expect(value["channel"]?.stringValue == "live_trades_" + trade.symbol)
        let data = try #require(value["data"])
        let price = try #require(data["price_str"]?.stringValue)
        #expect(price == SyntheticTrades.format(cents: trade.cents, places: 2))
        #expect(Price(try #require(data["price"]?.numberText)) == Price(price))
        #expect(data["amount_str"]?.stringValue?.split(separator: ".").last?.count == 8)
        #expect(data["type"]?.numberText == (trade.up ? "0" : "1"))
        #expect(data["microtimestamp"]?.stringValue == String(trade.time * 1000))
        #expect(data["timestamp"]?.stringValue == String(trade.time / 1000))
        #expect(provider.decode(.text(text)).quotes.map(\.price.text) == [price])
        times.append(trade.time)
        ids.append(try #require(data["id"]?.numberText.flatMap { Int64($0) }))
      }
    }
    #expect(times.count >= 20 && times.first.map { $0 > start.time } == true)
    // Trade ids go on from the recording's.
    #expect(ids == ids.sorted() && Set(ids).count == ids.count && ids.first == 412_093_376)
    // A market not subscribed gets nothing.
    _ = bitstamp.receive(.text(Self.request("unsubscribe", "live_trades_xlmeur")), at: .zero)
    #expect(
      bitstamp.synthetic([SyntheticTrade(symbol: "xlmeur", cents: 100, time: 1, volume: 1, up: true)]).isEmpty
    )
  }

  @Test("the synthetic book: order_book_ snapshots, best first, that decode to the top of book, bid < ask")
  func syntheticBook() throws {
    var bitstamp = try Self.emulator()
    _ = bitstamp.receive(.text(Self.request("subscribe", "order_book_btcusd")), at: .zero)
    _ = bitstamp.receive(.text(Self.request("subscribe", "order_book_xlmeur")), at: .zero)
    #expect(bitstamp.isReady(awaiting: 2))
    #expect(bitstamp.subscribed == ["order_book_btcusd", "order_book_xlmeur"])
    #expect(bitstamp.walkStart(for: "order_book_xlmeur") == .dollars)
    #expect(
      bitstamp.walkStart(for: "order_book_XLMEUR") == nil && bitstamp.walkStart(for: "order_book_") == nil)
    #expect(bitstamp.market(of: "order_book_xlmeur") == Market(base: "XLM", quote: "EUR"))
    #expect(bitstamp.market(of: "xlmeur") == nil)
    // The book walks from where its market last traded in the script.
    #expect(bitstamp.lastPrices["order_book_btcusd"]?.price == "79416")
    var walk = SyntheticTrades(seed: 9, start: bitstamp.lastPrices)
    walk.admit("order_book_xlmeur", from: .dollars)
    let provider = BitstampProvider().topOfBook!
    var count = 0
    for _ in 0..<20 {
      let trades = walk.nextTrades(symbols: bitstamp.subscribed, elapsedMilliseconds: 150)
      let actions = bitstamp.synthetic(trades)
      #expect(actions.count == trades.count)
      for (trade, action) in zip(trades, actions) {
        guard case .text(let text) = action else {
          Issue.record("\(action)")
          continue
        }
        let value = try VenueTest.json(text)
        #expect(value["event"]?.stringValue == "data")
        #expect(value["channel"]?.stringValue == trade.symbol)
        let data = try #require(value["data"])
        #expect(data["bids"]?.arrayValue?.count == BitstampEmulator.bookDepth)
        #expect(data["microtimestamp"]?.stringValue == String(trade.time * 1000))
        let quote = try #require(provider.decode(.text(text)).quotes.first)
        let ask = try #require(quote.ask)
        #expect(quote.symbol == String(trade.symbol.dropFirst("order_book_".count)))
        #expect(quote.bid < ask.price, "\(text)")
        #expect(quote.bid.text == SyntheticTrades.format(cents: trade.book.bidCents, places: 2))
        #expect(ask.price.text == SyntheticTrades.format(cents: trade.book.askCents, places: 2))
        #expect(quote.time == trade.time)
        count += 1
      }
    }
    #expect(count >= 20)
    // A book not subscribed gets nothing, nor does a market subscribed only on its book.
    #expect(
      bitstamp.synthetic([
        SyntheticTrade(symbol: "order_book_ethusd", cents: 100, time: 1, volume: 1, up: true),
        SyntheticTrade(symbol: "btcusd", cents: 100, time: 1, volume: 1, up: true),
      ]).isEmpty)
  }

  @Test("the blast: trades of btcusd that decode, distinct prices")
  func blast() {
    let provider = BitstampProvider()
    let prices = (0..<50).map { i in
      provider.decode(.text(BitstampProvider.blastMessage(i))).quotes.map(\.price.text)
    }
    #expect(prices.allSatisfy { $0.count == 1 })
    #expect(Set(prices.flatMap { $0 }).count > 40)
  }
}
