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
