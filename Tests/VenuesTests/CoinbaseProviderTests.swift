import Testing

@testable import TestSupport
@testable import Venues

@Suite(.ownThread) struct CoinbaseProviderTests {
  let provider = CoinbaseProvider()

  func quote(_ symbol: String, _ price: String, _ time: Int64, volume: String? = nil) -> Quote {
    Quote(symbol: symbol, price: Price(price)!, volume: volume.map { Price($0)! }, time: time)
  }

  func ticker(_ members: String) -> String {
    #"{"type":"ticker","sequence":1,"product_id":"BTC-USD",\#(members)}"#
  }

  @Test func fixtureSessionDecodesAsExpected() throws {
    let lines = try Fixture.session("coinbase-session.ndjson")
    let events = lines.filter { $0.direction == "S>" && $0.kind == "text" }.map {
      provider.decode(.text($0.body))
    }
    let expected: [ProviderEvent] = [
      .acknowledged(id: nil),
      // 2026-08-25T03:35:57.198335Z, truncated to the millisecond.
      .quotes([quote("BTC-USD", "80691.53", 1_787_628_957_198, volume: "0.00000001")]),
      .error(
        VenueError(name: "Failed to subscribe", message: "GIBBERISH-USD is not a valid product", fatal: true)),
    ]
    #expect(events == expected)
    #expect(events[1].quotes.map(\.price.text) == ["80691.53"])
    #expect(events[1].quotes.map { $0.volume?.text } == ["0.00000001"])
  }

  @Test func fixtureClientMessagesMatchOurs() throws {
    let sent = try Fixture.session("coinbase-session.ndjson").filter { $0.direction == "C>" }.map(
      \.body)
    var ids = RequestIDs(prefix: "unused")
    #expect(provider.subscriptionMessages(from: [], to: ["BTC-USD"], ids: &ids) == [.text(sent[0])])
    #expect(
      provider.subscriptionMessages(from: ["BTC-USD"], to: ["BTC-USD", "GIBBERISH-USD"], ids: &ids) == [
        .text(sent[1])
      ])
    #expect(ids.last == 0)
  }

  @Test func subscriptionChanges() {
    var ids = RequestIDs(prefix: "unused")
    #expect(
      provider.subscriptionMessages(from: [], to: ["BTC-USD", "ETH-USD"], ids: &ids)
        == [.text(#"{"type":"subscribe","product_ids":["BTC-USD","ETH-USD"],"channels":["ticker"]}"#)])
    #expect(
      provider.subscriptionMessages(from: ["BTC-USD", "ETH-USD"], to: ["ETH-USD"], ids: &ids)
        == [.text(#"{"type":"unsubscribe","product_ids":["BTC-USD"],"channels":["ticker"]}"#)])
    #expect(
      provider.subscriptionMessages(from: ["ETH-USD"], to: ["SOL-EUR", "BTC-USD"], ids: &ids)
        == [
          .text(#"{"type":"unsubscribe","product_ids":["ETH-USD"],"channels":["ticker"]}"#),
          .text(#"{"type":"subscribe","product_ids":["SOL-EUR","BTC-USD"],"channels":["ticker"]}"#),
        ])
    #expect(provider.subscriptionMessages(from: ["A-B", "C-D"], to: ["C-D", "A-B"], ids: &ids) == [])
    #expect(provider.subscriptionMessages(from: [], to: [], ids: &ids) == [])
  }

  @Test(arguments: [
    ("BTC-USD", "BTC-USD"), ("btc-usd", "BTC-USD"), ("Eth-Eur", "ETH-EUR"), ("1INCH-USD", "1INCH-USD"),
  ])
  func productsAreCanonicalisedToUpperCase(input: String, canonical: String) {
    #expect(provider.canonicalSymbol(input) == .success(canonical))
    #expect(provider.serverSymbol(for: canonical) == canonical)
  }

  @Test(arguments: ["", "BTCUSD", "BTC-", "BTC-USD-X", "BTC/USD", "BTC_USD", " BTC-USD", "ÉTH-USD"])
  func thingsThatCannotBeProductsAreRefused(input: String) {
    guard case .failure(let error) = provider.canonicalSymbol(input) else {
      Issue.record("\(input) accepted")
      return
    }
    #expect(error.message.contains("such as BTC-USD"))
  }

  @Test func tickerTimesAndSizes() {
    #expect(
      provider.decode(
        .text(ticker(#""price":"1285.22","time":"2022-10-19T23:28:22.061769Z","last_size":"11.4396987""#)))
        == .quotes([quote("BTC-USD", "1285.22", 1_666_222_102_061, volume: "11.4396987")]))
    // No last_size (or null): a quote without volume.
    #expect(
      provider.decode(.text(ticker(#""price":"1","time":"2022-10-19T23:28:22Z","last_size":null"#)))
        == .quotes([quote("BTC-USD", "1", 1_666_222_102_000)]))
    // Offsets are applied.
    #expect(
      provider.decode(.text(ticker(#""price":"1","time":"2024-03-01T00:30:00.5+01:00""#)))
        == .quotes([quote("BTC-USD", "1", 1_709_249_400_500)]))
  }

  @Test func otherMessageTypes() {
    #expect(
      provider.decode(.text(#"{"type":"heartbeat","last_trade_id":1,"product_id":"BTC-USD","sequence":2}"#))
        == .ignored("heartbeat"))
    #expect(provider.decode(.text(#"{"type":"status","products":[]}"#)) == .ignored("status"))
    #expect(provider.decode(.text(#"{"type":"subscriptions","channels":[]}"#)) == .acknowledged(id: nil))
    #expect(
      provider.decode(.text(#"{"type":"error","message":"Failed to subscribe"}"#))
        == .error(VenueError(message: "Failed to subscribe", fatal: true)))
    #expect(
      provider.decode(.text(#"{"type":"error"}"#))
        == .error(VenueError(message: "unspecified error", fatal: true)))
    // Observed on the older feed right after subscribing: a ticker without a time is a price all
    // the same (time 0: the runtime stamps when it arrived).
    guard case .quotes(let untimed) = provider.decode(.text(ticker(#""price":"1""#))) else {
      Issue.record("a ticker without a time was not a quote")
      return
    }
    #expect(untimed.map(\.time) == [0] && untimed.map(\.price.text) == ["1"])
  }

  @Test(arguments: [
    (
      #"{"type":"ticker","price":"1","time":"2022-10-19T23:28:22Z"}"#,
      #""product_id" must be a non-empty string"#
    ),
    (
      #"{"type":"ticker","product_id":"A-B","price":1,"time":"2022-10-19T23:28:22Z"}"#,
      #""price" must be a decimal string"#
    ),
    (
      #"{"type":"ticker","product_id":"A-B","price":"1.","time":"2022-10-19T23:28:22Z"}"#,
      #""price" is not a decimal number"#
    ),
    (
      #"{"type":"ticker","product_id":"A-B","price":"1","last_size":2,"time":"2022-10-19T23:28:22Z"}"#,
      #""last_size" must be a decimal string"#
    ),
    (
      #"{"type":"ticker","product_id":"A-B","price":"1","last_size":"x","time":"2022-10-19T23:28:22Z"}"#,
      #""last_size" is not a decimal number"#
    ),
    (
      #"{"type":"ticker","product_id":"A-B","price":"1","time":1666222102}"#,
      #""time" must be an RFC 3339 string"#
    ),
    (
      #"{"type":"ticker","product_id":"A-B","price":"1","time":"2022-02-30T00:00:00Z"}"#,
      #""time" is not an RFC 3339 date-time"#
    ),
    (
      #"{"type":"ticker","product_id":"A-B","price":"1","time":"yesterday"}"#,
      #""time" is not an RFC 3339 date-time"#
    ),
    (#"{"type":7}"#, #"message has no string "type""#),
    (#"{"product_id":"BTC-USD"}"#, #"message has no string "type""#),
    (#""ticker""#, "message must be a JSON object, not a string"),
    ("{", "invalid JSON: unexpected end of input at byte 1"),
  ])
  func malformedMessages(text: String, reason: String) {
    #expect(provider.decode(.text(text)) == .malformed(reason))
    #expect(provider.decode(.binary(Array(text.utf8))) == .malformed(reason))
  }

  @Test func garbageNeverTraps() {
    var generator = SplitMix64(seed: 11)
    let seed = Array(
      ticker(#""price":"1285.22","time":"2022-10-19T23:28:22.061769Z","last_size":"11.4396987""#).utf8)
    for _ in 0..<2000 {
      var bytes = seed
      for _ in 0..<3 {
        bytes[Int(generator.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: generator.next())
      }
      _ = provider.decode(.binary(bytes))
    }
    #expect(provider.decode(.binary(seed)).quotes.count == 1)
    #expect(
      provider.decode(.binary([0xFF, 0x00, 0xC3]))
        == .malformed("invalid JSON: unexpected byte 0xFF at byte 0"))
  }

  @Test func settings() {
    #expect(provider.name == "coinbase" && provider.displayName == "Coinbase")
    #expect(provider.defaultURL.description == "wss://ws-feed.exchange.coinbase.com/")
    #expect(provider.tokenVariable == nil && !provider.requiresToken)
    #expect(provider.subscriptionStyle == .incremental)
    #expect(provider.keepalive == nil && provider.firstQuoteDeadline == nil)
    #expect(provider.limits == VenueLimits())
    #expect(provider.handshakeAdvice(status: 451) == nil)
    #expect(ProviderCatalog.provider(named: "coinbase")?.name == "coinbase")
  }
}

/// The top of book (`--bid-ask`): the best bid and ask of the same `ticker` messages.
@Suite(.ownThread) struct CoinbaseBookTests {
  let provider = CoinbaseProvider(stream: .topOfBook)

  func book(_ bid: String, _ bidSize: String?, _ ask: String, _ askSize: String?, _ time: Int64) -> Quote {
    Quote(
      symbol: "BTC-USD", bid: Price(bid)!, bidSize: bidSize.map { Price($0)! }, ask: Price(ask)!,
      askSize: askSize.map { Price($0)! }, time: time)
  }

  @Test("topOfBook: the same venue on the same channel, reading the best bid and ask")
  func variant() throws {
    let book = try #require(CoinbaseProvider().topOfBook)
    #expect(book.stream == .topOfBook && book.name == "coinbase")
    #expect(CoinbaseProvider().stream == .trades)
  }

  @Test("the recorded ticker decodes to its best bid and ask, digits exactly as sent")
  func recordedTicker() throws {
    let lines = try Fixture.session("coinbase-session.ndjson")
    let events = lines.filter { $0.direction == "S>" && $0.kind == "text" }.map {
      provider.decode(.text($0.body))
    }
    #expect(
      events == [
        .acknowledged(id: nil),
        .quotes([book("80691.52", "0.35000000", "80691.53", "0.01200000", 1_787_628_957_198)]),
        .error(
          VenueError(
            name: "Failed to subscribe", message: "GIBBERISH-USD is not a valid product", fatal: true)),
      ])
    let quote = try #require(events[1].quotes.first)
    #expect(quote.isTopOfBook)
    #expect([quote.bid.text, quote.ask?.price.text] == ["80691.52", "80691.53"])
    #expect([quote.bidSize?.text, quote.ask?.size?.text] == ["0.35000000", "0.01200000"])
    // The trade stream reads the same message as its trade.
    let ticker = try #require(lines.first { $0.body.hasPrefix(#"{"type":"ticker""#) })
    #expect(CoinbaseProvider().decode(.text(ticker.body)).quotes.map(\.price.text) == ["80691.53"])
    #expect(CoinbaseProvider().decode(.text(ticker.body)).quotes.first?.isTopOfBook == false)
  }

  @Test("an older ticker without sizes or time: the sizes are nil, the time 0 (stamped on arrival)")
  func olderTicker() {
    let text =
      #"{"type":"ticker","trade_id":20153558,"sequence":3262786978,"product_id":"BTC-USD","price":"4388.01000000","side":"buy","last_size":"0.03000000","best_bid":"4388","best_ask":"4388.01"}"#
    #expect(provider.decode(.text(text)) == .quotes([book("4388", nil, "4388.01", nil, 0)]))
  }

  @Test("the subscription messages are the trade stream's: the same ticker channel")
  func subscriptions() {
    var ids = RequestIDs(prefix: "unused")
    var tradeIDs = RequestIDs(prefix: "unused")
    for (old, new) in [([], ["BTC-USD", "ETH-USD"]), (["BTC-USD", "ETH-USD"], ["SOL-EUR"])]
      as [([String], [String])]
    {
      #expect(
        provider.subscriptionMessages(from: old, to: new, ids: &ids)
          == CoinbaseProvider().subscriptionMessages(from: old, to: new, ids: &tradeIDs))
    }
    #expect(
      provider.subscriptionMessages(from: [], to: ["BTC-USD"], ids: &ids)
        == [.text(#"{"type":"subscribe","product_ids":["BTC-USD"],"channels":["ticker"]}"#)])
    #expect(ids.last == 0)
  }

  @Test(
    "hostile tickers are malformed, never a quote",
    arguments: [
      (#""best_ask":"1.5""#, #""best_bid" must be a decimal string"#),
      (#""best_bid":1.4,"best_ask":"1.5""#, #""best_bid" must be a decimal string"#),
      (#""best_bid":"1.4""#, #""best_ask" must be a decimal string"#),
      (#""best_bid":"1.4","best_ask":"x""#, #""best_ask" must be a decimal string"#),
      (#""best_bid":"1.4","best_ask":"1.5","best_bid_size":2"#, #""best_bid_size" must be a decimal string"#),
      (
        #""best_bid":"1.4","best_ask":"1.5","best_ask_size":"-""#, #""best_ask_size" is not a decimal number"#
      ),
      (#""best_bid":"1.4","best_ask":"1.5","time":"yesterday""#, #""time" is not an RFC 3339 date-time"#),
      (#""best_bid":"1.4","best_ask":"1.5","time":5"#, #""time" must be an RFC 3339 string"#),
    ])
  func hostile(members: String, problem: String) {
    let text = #"{"type":"ticker","product_id":"BTC-USD",\#(members)}"#
    #expect(provider.decode(.text(text)) == .malformed(problem))
    #expect(
      provider.decode(.text(#"{"type":"ticker","product_id":"","best_bid":"1","best_ask":"2"}"#))
        == .malformed(#""product_id" must be a non-empty string"#))
  }

  @Test("random damage to a ticker never traps")
  func garbageNeverTraps() {
    var generator = SplitMix64(seed: 17)
    let seed = Array(
      #"{"type":"ticker","product_id":"BTC-USD","best_bid":"80691.52","best_bid_size":"0.35","best_ask":"80691.53","best_ask_size":"0.012","time":"2026-08-25T03:35:57.198335Z"}"#
        .utf8)
    for _ in 0..<2000 {
      var bytes = seed
      for _ in 0..<3 {
        bytes[Int(generator.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: generator.next())
      }
      _ = provider.decode(.binary(bytes))
    }
    #expect(provider.decode(.binary(seed)).quotes.first?.ask?.price.text == "80691.53")
  }
}
