import FeedRuntime
import Testing
import Venues

@testable import Emulators
@testable import TestSupport
@testable import TickerSupport

/// Coinbase Exchange's rules as a pure state machine, driven with explicit instants.
@Suite("FeedServer: Coinbase emulation (pure)")
struct CoinbaseEmulatorTests {
  static func emulator(rules: CoinbaseRules = CoinbaseRules()) throws -> CoinbaseEmulator {
    CoinbaseEmulator(script: try VenueTest.fixture("coinbase"), rules: rules)
  }

  static func fixtureMessages() throws -> (client: [String], server: [String]) {
    let fixture = try VenueTest.fixture("coinbase")
    return (VenueTest.clientMessages(fixture), VenueTest.dataSteps(fixture).map(\.body))
  }

  @Test("the recorded session: subscriptions reply, ticker, invalid product")
  func recordedSession() throws {
    var coinbase = try Self.emulator()
    let (client, server) = try Self.fixtureMessages()
    #expect(coinbase.receive(.text(client[0]), at: VenueTest.at(0.005)) == [.text(server[0])])
    #expect(coinbase.subscribed == ["BTC-USD"])
    #expect(
      coinbase.outgoing(VenueTest.serverStep(.text, server[1]), at: VenueTest.at(0.4)) == [.text(server[1])])
    #expect(
      coinbase.receive(.text(client[1]), at: VenueTest.at(0.5))
        == [.text(server[2]), .violation(.invalidRequest("GIBBERISH-USD is not a valid product"))])
    // The failed request changed nothing and the connection stays: no close, tickers still flow.
    #expect(coinbase.subscribed == ["BTC-USD"])
    #expect(coinbase.nextDeadline == nil)
    #expect(
      coinbase.outgoing(VenueTest.serverStep(.text, server[1]), at: VenueTest.at(1)) == [.text(server[1])])
  }

  @Test("no subscribe within 5 s: dropped without a close frame")
  func subscribeDeadline() throws {
    var coinbase = try Self.emulator()
    #expect(coinbase.nextDeadline == VenueTest.at(5))
    #expect(coinbase.tick(at: VenueTest.at(4.999)).isEmpty)
    // A failed subscribe does not count.
    _ = coinbase.receive(
      .text(#"{"type":"subscribe","product_ids":["NOPE-USD"],"channels":["ticker"]}"#), at: VenueTest.at(1))
    #expect(coinbase.nextDeadline == VenueTest.at(5))
    #expect(coinbase.tick(at: VenueTest.at(5)) == [.violation(.noSubscription), .drop])
    #expect(coinbase.nextDeadline == nil)
  }

  @Test("a subscribe in time lifts the deadline; a scaled deadline scales")
  func subscribeInTime() throws {
    var coinbase = try Self.emulator(rules: CoinbaseRules().scaled(by: 0.01))
    #expect(coinbase.nextDeadline == VenueTest.at(0.05))
    let (client, _) = try Self.fixtureMessages()
    _ = coinbase.receive(.text(client[0]), at: VenueTest.at(0.01))
    #expect(coinbase.nextDeadline == nil)
    #expect(coinbase.tick(at: VenueTest.at(100)).isEmpty)
  }

  @Test("channels as objects; the reply is the whole subscription; unsubscribe alike")
  func channelObjects() throws {
    var coinbase = try Self.emulator()
    #expect(
      coinbase.receive(
        .text(
          #"{"type":"subscribe","channels":[{"name":"ticker","product_ids":["ETH-USD"]},{"name":"heartbeat","product_ids":["ETH-USD"]}]}"#
        ), at: .zero)
        == [
          .text(
            #"{"type":"subscriptions","channels":[{"name":"ticker","product_ids":["ETH-USD"]},{"name":"heartbeat","product_ids":["ETH-USD"]}]}"#
          )
        ])
    #expect(
      coinbase.receive(
        .text(#"{"type":"subscribe","product_ids":["BTC-USD"],"channels":["ticker"]}"#), at: .zero)
        == [
          .text(
            #"{"type":"subscriptions","channels":[{"name":"ticker","product_ids":["ETH-USD","BTC-USD"]},{"name":"heartbeat","product_ids":["ETH-USD"]}]}"#
          )
        ])
    #expect(coinbase.subscribed == ["ETH-USD", "BTC-USD"])
    #expect(
      coinbase.receive(
        .text(#"{"type":"unsubscribe","product_ids":["ETH-USD"],"channels":["ticker","heartbeat"]}"#),
        at: .zero)
        == [.text(#"{"type":"subscriptions","channels":[{"name":"ticker","product_ids":["BTC-USD"]}]}"#)])
    #expect(
      coinbase.receive(.text(#"{"type":"unsubscribe","channels":["ticker"]}"#), at: .zero)
        == [.text(#"{"type":"subscriptions","channels":[]}"#)])
    #expect(coinbase.subscribed.isEmpty)
    #expect(coinbase.requestCount == 4)
  }

  @Test(
    "requests the venue refuses, each with its reason; nothing changes and the connection stays",
    arguments: [
      (#"{"type":"subscribe","product_ids":["BTC-USD"]}"#, "Failed to subscribe", "No channels provided"),
      (
        #"{"type":"subscribe","product_ids":["BTC-USD"],"channels":[]}"#, "Failed to subscribe",
        "No channels provided"
      ),
      (
        #"{"type":"subscribe","product_ids":["btc-usd"],"channels":["ticker"]}"#, "Failed to subscribe",
        "btc-usd is not a valid product"
      ),
      (
        #"{"type":"subscribe","product_ids":["BTC-USD","NOPE-USD"],"channels":["ticker"]}"#,
        "Failed to subscribe",
        "NOPE-USD is not a valid product"
      ),
      (
        #"{"type":"subscribe","product_ids":["BTC-USD"],"channels":["tickers"]}"#, "Failed to subscribe",
        "tickers is not a valid channel"
      ),
      (
        #"{"type":"subscribe","channels":["ticker"]}"#, "Failed to subscribe",
        "You need to specify at least one product ID for channel ticker"
      ),
      (
        #"{"type":"unsubscribe","product_ids":["NOPE-USD"],"channels":["ticker"]}"#, "Failed to unsubscribe",
        "NOPE-USD is not a valid product"
      ),
    ])
  func refused(request: String, message: String, reason: String) throws {
    var coinbase = try Self.emulator()
    let (client, _) = try Self.fixtureMessages()
    _ = coinbase.receive(.text(client[0]), at: .zero)
    #expect(
      coinbase.receive(.text(request), at: .zero)
        == [.text(CoinbaseEmulator.error(message, reason: reason)), .violation(.invalidRequest(reason))])
    #expect(coinbase.subscribed == ["BTC-USD"])
  }

  @Test("messages that are not requests get an error and change nothing")
  func notRequests() throws {
    var coinbase = try Self.emulator()
    for input in [ClientInput.text("nope"), .text(#"{"type":"hello"}"#), .binary([0x7B, 0x7D])] {
      let actions = coinbase.receive(input, at: .zero)
      guard case .text(let text) = actions.first, actions.count == 1 else {
        Issue.record("\(actions)")
        continue
      }
      #expect(try VenueTest.json(text)["type"]?.stringValue == "error")
    }
    #expect(coinbase.requestCount == 0 && coinbase.nextDeadline == VenueTest.at(5))
  }

  @Test("tickers for products not subscribed on the ticker channel are not sent")
  func filtering() throws {
    var coinbase = try Self.emulator()
    let (_, server) = try Self.fixtureMessages()
    let ticker = VenueTest.serverStep(.text, server[1])
    #expect(coinbase.outgoing(ticker, at: .zero).isEmpty)  // nothing subscribed
    _ = coinbase.receive(
      .text(#"{"type":"subscribe","product_ids":["BTC-USD"],"channels":["heartbeat"]}"#), at: .zero)
    #expect(coinbase.outgoing(ticker, at: .zero).isEmpty)  // not on the ticker channel
    _ = coinbase.receive(
      .text(#"{"type":"subscribe","product_ids":["ETH-USD"],"channels":["ticker"]}"#), at: .zero)
    #expect(coinbase.outgoing(ticker, at: .zero).isEmpty)  // another product
  }

  @Test("the synthetic stream: ticker messages with decimal strings and RFC 3339 microsecond times")
  func synthetic() throws {
    var coinbase = try Self.emulator()
    let (client, _) = try Self.fixtureMessages()
    _ = coinbase.receive(.text(client[0]), at: .zero)
    let start = try #require(coinbase.lastPrices["BTC-USD"])
    #expect(start.price == "80691.53")
    #expect(start.time == 1_787_628_957_198)
    var walk = SyntheticTrades(seed: 5, start: coinbase.lastPrices)
    var sequences: [Int64] = []
    for _ in 0..<20 {
      for action in coinbase.synthetic(
        walk.nextTrades(symbols: coinbase.subscribed, elapsedMilliseconds: 150))
      {
        guard case .text(let text) = action else { continue }
        let value = try VenueTest.json(text)
        #expect(value["type"]?.stringValue == "ticker" && value["product_id"]?.stringValue == "BTC-USD")
        let price = try #require(value["price"]?.stringValue)
        #expect(price.split(separator: ".").last?.count == 2, "\(price)")
        let time = try #require(value["time"]?.stringValue)
        #expect(time.count == 27 && time.hasSuffix("Z") && time.hasPrefix("2026-08-25T03:"), "\(time)")
        #expect(RFC3339.milliseconds(time).map { $0 > 1_787_628_957_198 } == true)
        sequences.append(try #require(value["sequence"]?.numberText.flatMap { Int64($0) }))
        #expect(value["open_24h"]?.stringValue == "79850.00")  // the rest of the recorded ticker
      }
    }
    #expect(sequences.count >= 20)
    #expect(sequences == sequences.sorted() && Set(sequences).count == sequences.count)
    #expect(sequences.first == 134_905_860_113)
  }

  @Test(
    "RFC 3339 with microseconds, both ways",
    arguments: [
      (Int64(1_787_628_957_198_335), "2026-08-25T03:35:57.198335Z"), (0, "1970-01-01T00:00:00.000000Z"),
      (951_782_400_000_001, "2000-02-29T00:00:00.000001Z"),
      (4_107_542_399_999_999, "2100-02-28T23:59:59.999999Z"),
    ])
  func rfc3339(microseconds: Int64, text: String) {
    #expect(RFC3339.format(microseconds: microseconds) == text)
    #expect(RFC3339.milliseconds(text) == microseconds / 1000)
  }
}

/// The top of book (`--bid-ask`) in the emulation: the same `ticker` subscription, the synthetic
/// tickers' best bid and ask around each trade.
@Suite("FeedServer: Coinbase emulation, top of book")
struct CoinbaseEmulatorBookTests {
  @Test("the top-of-book provider's subscription is accepted; synthetic tickers decode to bid < ask")
  func syntheticBook() throws {
    var coinbase = try CoinbaseEmulatorTests.emulator()
    let provider = try #require(CoinbaseProvider().topOfBook)
    var ids = RequestIDs(prefix: "unused")
    for case .text(let request) in provider.subscriptionMessages(
      from: [], to: ["BTC-USD", "ETH-EUR"], ids: &ids)
    {
      #expect(
        coinbase.receive(.text(request), at: .zero)
          == [
            .text(
              #"{"type":"subscriptions","channels":[{"name":"ticker","product_ids":["BTC-USD","ETH-EUR"]}]}"#)
          ])
    }
    var walk = SyntheticTrades(seed: 9, start: coinbase.lastPrices)
    walk.admit("ETH-EUR", from: try #require(coinbase.walkStart(for: "ETH-EUR")))
    var quotes: [Quote] = []
    for _ in 0..<20 {
      for case .text(let text) in coinbase.synthetic(
        walk.nextTrades(symbols: coinbase.subscribed, elapsedMilliseconds: 150))
      {
        quotes += provider.decode(.text(text)).quotes
      }
    }
    #expect(quotes.count >= 20)
    #expect(Set(quotes.map(\.symbol)) == ["BTC-USD", "ETH-EUR"])
    for quote in quotes {
      let ask = try #require(quote.ask)
      #expect(quote.bid < ask.price, "\(quote)")
      #expect(quote.bidSize != nil && ask.size != nil && quote.time > 0)
    }
  }
}
